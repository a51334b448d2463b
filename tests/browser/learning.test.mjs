// After every lesson: a three-point summary (both languages) and the
// glossary; the first use of each term in the lesson text links to its entry.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS as LESSONS } from '../../web/src/lessons/index.js';
import { launch, openPage, settle } from './helpers.mjs';

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
        return { summary, entries, links, inOrder };
      });
      assert.equal(got.summary.length, 3, `${id}: ${got.summary.length} summary points`);
      for (const p of got.summary) assert.ok(p.length > (lang === 'zh' ? 8 : 20) && CJK.test(p) === (lang === 'zh'), `${id}: summary point in ${lang}: ${p}`);
      assert.ok(got.entries.length >= 10, `${id}: ${got.entries.length} glossary entries`);
      assert.ok(got.inOrder, `${id}: questions, summary, glossary, pager in that order`);
      assert.ok(got.links.length >= 2, `${id}: ${got.links.length} term links`);
      for (const l of got.links) assert.ok(l.target, `${id}: the link to ${l.term} has its glossary entry`);
      assert.equal(new Set(got.links.map((l) => l.term)).size, got.links.length, `${id}: each term linked once (its first use)`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('lesson 1 links d_model, max_len and ω at their first use; a click opens the glossary there and keeps the URL', async () => {
  const page = await openPage(browser.context, '#lesson=formula');
  const terms = await page.$$eval('.lesson a.term-link', (as) => as.map((a) => a.dataset.term));
  for (const term of ['d_model', 'max_len', 'omega']) assert.ok(terms.includes(term), `${term} is linked (${terms})`);
  const hash = await page.evaluate(() => location.hash);
  await page.click('.lesson a.term-link[data-term="d_model"]');
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
