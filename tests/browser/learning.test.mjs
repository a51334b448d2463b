// After every lesson: a three-point summary (both languages) and the
// glossary; every use of each term in the lesson text links to its entry:
// inline code and formulas, and the term's words in the prose (the glossary's
// word list of the page's language), also after a redraw rewrites text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS as LESSONS } from '../../web/src/lessons/index.js';
import { launch, openPage, settle } from './helpers.mjs';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';

/**
 * In the page: the uses of each term's words in the lesson's paragraphs and
 * list items (not in controls, questions, tables, headings, code or formulas)
 * that no link to that term holds, and how many each term's links hold.
 */
function proseUses(words) {
  const skip = 'pre, button, label, select, textarea, table, svg, figure, h1, h2, h3, .lesson-controls, .quiz, .glossary, code, .katex';
  const list = Object.entries(words).flatMap(([term, w]) => w.split('|').filter(Boolean).map((word) => [word, term]));
  const unlinked = [];
  const linked = {};
  for (const block of document.querySelectorAll('.lesson p, .lesson li')) {
    if (block.closest(skip)) continue;
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // other links (the course map's lesson names) lead elsewhere
      if (node.parentElement.closest(`${skip}, a:not(.term-link)`)) continue;
      const link = node.parentElement.closest('a.term-link');
      for (const [word, term] of list) {
        // a word, not part of a longer identifier or English word (Han text has no such boundary)
        const re = new RegExp(`(?<![A-Za-z0-9_])${word}(?![A-Za-z0-9_])`, 'gi');
        for (const m of node.nodeValue.matchAll(re)) {
          if (link && link.dataset.term === term) linked[term] = (linked[term] ?? 0) + 1;
          else unlinked.push(`${term}: “${node.nodeValue.slice(Math.max(0, m.index - 20), m.index + word.length + 20)}”`);
        }
      }
    }
  }
  // inline code naming a term, every time (not only its first use)
  const named = { d_model: 'd_model', max_len: 'max_len', rope_theta: 'base' };
  for (const code of document.querySelectorAll('.lesson code')) {
    const term = named[code.textContent.trim()];
    if (!term || code.closest(skip.replace(', code', '')) || code.closest('a:not(.term-link)')) continue;
    if (code.closest('a.term-link')?.dataset.term !== term) unlinked.push(`${term}: <code>${code.textContent}</code> in “${code.parentElement.textContent.slice(0, 60)}”`);
    else linked[term] = (linked[term] ?? 0) + 1;
  }
  return { unlinked, linked };
}

const CJK = /[\u4e00-\u9fff]/;
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const lang of ['en', 'zh']) {
  test(`every lesson (${lang}) ends with a three-point summary and the glossary, with its terms linked`, async () => {
    const page = await openPage(browser.context, `#lesson=formula&lang=${lang}`);
    const navIds = await page.$$eval('.lesson-list a', (as) => as.map((a) => new URLSearchParams(a.getAttribute('href').slice(1)).get('lesson')));
    assert.deepEqual(navIds, LESSONS, 'the lessons checked are the lessons of the site');
    const prose = {};
    let keyLinks = 0;
    for (const id of LESSONS) {
      await page.evaluate((id) => (location.hash = `lesson=${id}&lang=${new URLSearchParams(location.hash.slice(1)).get('lang')}`), id);
      await page.waitForSelector(`.lesson-${id} .lesson-pager`);
      await settle(page);
      const got = await page.evaluate(() => {
        const summary = [...document.querySelectorAll('.lesson-summary li')].map((li) => li.textContent);
        const order = ['.quiz', '.lesson-summary', '.glossary', '.lesson-pager'].map((s) => document.querySelector(s));
        const entries = [...document.querySelectorAll('.glossary dt')].map((dt) => dt.id);
        const links = [...document.querySelectorAll('.lesson a.term-link')].map((a) => ({ term: a.dataset.term, target: !!document.getElementById(a.getAttribute('href').slice(1)) }));
        const inOrder = order.filter(Boolean).every((el, k, all) => k === 0 || all[k - 1].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
        // the inline formula k alone: the notation's one meaning, a key vector (glossary qk)
        const keyLinks = [...document.querySelectorAll('.lesson .math-inline annotation')].filter((a) => a.textContent.trim() === 'k').map((a) => a.closest('a.term-link')?.dataset.term ?? 'unlinked');
        return { summary, entries, links, inOrder, keyLinks };
      });
      assert.ok(got.keyLinks.every((term) => term === 'qk'), `${id}: k links to ${got.keyLinks}`);
      keyLinks += got.keyLinks.length;
      assert.equal(got.summary.length, 3, `${id}: ${got.summary.length} summary points`);
      for (const p of got.summary) assert.ok(p.length > (lang === 'zh' ? 8 : 20) && CJK.test(p) === (lang === 'zh'), `${id}: summary point in ${lang}: ${p}`);
      assert.ok(got.entries.length >= 10, `${id}: ${got.entries.length} glossary entries`);
      assert.ok(got.inOrder, `${id}: questions, summary, glossary, pager in that order`);
      assert.ok(got.links.length >= 2, `${id}: ${got.links.length} term links`);
      for (const l of got.links) assert.ok(l.target, `${id}: the link to ${l.term} has its glossary entry`);
      const uses = await page.evaluate(proseUses, (lang === 'zh' ? zh : en).glossary.words);
      assert.deepEqual(uses.unlinked, [], `${id}: uses of a term with no link to its entry`);
      prose[id] = uses.linked;
    }
    // the check above saw uses: every term with words in the prose is linked somewhere
    const words = (lang === 'zh' ? zh : en).glossary.words;
    const total = (term) => Object.values(prose).reduce((sum, linked) => sum + (linked[term] ?? 0), 0);
    console.log(`${lang}: prose links per term`, Object.fromEntries(Object.keys(words).map((term) => [term, total(term)])));
    for (const term of ['omega', 'lambda', 'offset', 'base']) assert.ok(total(term) > 0, `${lang}: no prose use of ${term} linked`);
    assert.ok(keyLinks > 0, `${lang}: no inline k seen`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('the formula lesson links d_model, max_len and ω at their first use; a click opens the glossary there and keeps the URL', async () => {
  const page = await openPage(browser.context, '#lesson=formula');
  const terms = await page.$$eval('.lesson a.term-link', (as) => as.map((a) => a.dataset.term));
  for (const term of ['d_model', 'max_len', 'omega']) assert.ok(terms.includes(term), `${term} is linked (${terms})`);
  const hash = await page.evaluate(() => location.hash);
  // pressed where it is drawn, as a reader does: since the header is sticky, Playwright's own click
  // reports the paragraph as in the way, though the link's centre reaches the link (elementsFromPoint)
  const link = page.locator('.lesson a.term-link[data-term="d_model"]').first();
  const box = await link.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await settle(page);
  const shown = await page.evaluate(() => {
    const dt = document.getElementById('glossary-d_model');
    const r = dt.getBoundingClientRect();
    return { open: document.querySelector('.glossary').open, inView: r.top >= 0 && r.bottom <= innerHeight, focused: document.activeElement === dt, text: dt.nextElementSibling.textContent };
  });
  assert.deepEqual({ open: shown.open, inView: shown.inView, focused: shown.focused }, { open: true, inView: true, focused: true });
  assert.match(shown.text, /dimensions/);
  assert.equal(await page.evaluate(() => location.hash), hash);
  await page.close();
});
