// A language switch keeps the place being read, and history entries keep
// their language. The reader is far down the rope lesson ("Half precision"),
// the waves lesson ("The clock picture") and the "Check a model" page (a
// model's cache card), on a desktop (1280 × 800) and a phone (390 × 844);
// they press 简体中文 as a reader would: where it is on the screen if it is
// there, else after scrolling to it (a header that scrolled away makes the
// reader leave their place). The same heading, now in Chinese, must be where
// it was in the window. Then Back shows the previous page in the language it
// had, a lesson and the "Check a model" page alike. A glossary link followed,
// the language switched at the glossary, and Back: the reader is where the
// link was, to the pixel, in the language of that entry.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from '../js/fixtures/make-genai-model.mjs';
import { launch, openPage, settle, HAN } from './helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'sinpe-language-place-'));
const model = makeGenaiModel({ caches: { default: { ...bake('exact', 1024, ROTARY_DIM, OPTIONS.llama31.default, 'float32'), rows: 1024 } } });
const files = [join(dir, 'llama.onnx'), join(dir, 'config.json')];
writeFileSync(files[0], model.model);
writeFileSync(files[1], JSON.stringify(CONFIGS.llama31));

after(() => rmSync(dir, { recursive: true, force: true }));

const HEADINGS = 'main article h2, main article h3';

/** Presses a language button as a reader does: where it is if it is on the screen, else scrolled to first. */
async function pressLanguage(page, lang) {
  const button = page.locator(`.lang-button[data-lang="${lang}"]`);
  const box = await button.boundingBox();
  const { height } = page.viewportSize();
  if (box && box.y >= 0 && box.y + box.height <= height) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  else await button.click();
}

/** Scrolls heading `index` to `offset` px below the window's top (again as sections above it render). */
async function scrollHeadingTo(page, index, offset) {
  for (let k = 0; k < 4; k++) {
    await page.evaluate(({ sel, index, offset }) => window.scrollBy({ top: document.querySelectorAll(sel)[index].getBoundingClientRect().top - offset, behavior: 'instant' }), { sel: HEADINGS, index, offset });
    await settle(page);
  }
}

/** Where heading `index` is: its top relative to the bottom of what is pinned at the window's top (`pinned`). */
const headingAt = (page, index) => page.evaluate(({ sel, index }) => {
  // the header, and on a phone a controls panel at its sticky place under it
  const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
  const pinned = Math.max(...[...document.querySelectorAll('.site-header, #lesson .lesson-controls')].map((e) => {
    const r = e.getBoundingClientRect();
    return getComputedStyle(e).position === 'sticky' && r.top <= header + 1 ? r.bottom : 0;
  }));
  const el = document.querySelectorAll(sel)[index];
  const bottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
  return { top: el.getBoundingClientRect().top - pinned, pinned, bottom, text: el.textContent, scrollY: window.scrollY };
}, { sel: HEADINGS, index });

const CASES = [
  { what: 'rope lesson, Half precision', hash: '#lesson=rope&lang=en', heading: /^Half precision/ },
  { what: 'waves lesson, The clock picture', hash: '#lesson=waves&lang=en', heading: /^The clock picture/ },
  { what: 'Check a model, a cache card', hash: '#page=check-model&lang=en', heading: /^cos_cache/, model: true },
];

for (const [device, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  let browser;
  before(async () => {
    browser = await launch({ viewport });
  });
  after(async () => {
    await browser?.close();
  });

  for (const c of CASES) {
    test(`${device}: a language switch keeps the place being read (${c.what})`, async () => {
      const page = await openPage(browser.context, c.hash);
      if (c.model) {
        await page.waitForSelector('.check-model-drop');
        await page.setInputFiles('#check-model-input', files);
        await page.waitForSelector('.check-model-site h2');
        await settle(page);
      }
      const index = await page.$$eval(HEADINGS, (hs, src) => hs.findIndex((el) => new RegExp(src).test(el.textContent)), c.heading.source);
      assert.ok(index >= 0, `the heading ${c.heading}`);
      // the heading some way down the window (the reader is in the text above it), then at its top
      for (const offset of [device === 'phone' ? 420 : 300, null]) {
        if (offset === null) {
          await pressLanguage(page, 'en');
          await page.waitForFunction(() => document.documentElement.lang === 'en' && !/[\u4e00-\u9fff]/.test(document.querySelector('main article h1')?.textContent ?? '鿿'));
          await settle(page);
          // the page has done keeping the place (lib/position.js): what the test scrolls now stays
          await page.waitForFunction(() => !document.documentElement.dataset.placing);
        }
        // the top: just under what is pinned there (the header; on a phone the controls panel)
        const top = offset ?? (await headingAt(page, index)).pinned + 8;
        await scrollHeadingTo(page, index, top);
        const before = await headingAt(page, index);
        assert.ok(c.model || before.scrollY > 1000, `read far down the page (scrollY ${before.scrollY})`);
        assert.match(before.text, c.heading);
        await pressLanguage(page, 'zh');
        await page.waitForFunction(() => document.documentElement.lang === 'zh-CN' && /[\u4e00-\u9fff]/.test(document.querySelector('main article h1')?.textContent ?? ''));
        if (c.model) await page.waitForSelector('.check-model-site h2');
        await settle(page);
        const seen = await headingAt(page, index);
        // at the top, to the pixel; further down (or where the page ends before the heading reaches the top),
        // the text above it is worded in another length
        const tolerance = offset === null && !before.bottom ? 4 : 40;
        assert.ok(Math.abs(seen.top - before.top) <= tolerance, `${c.what}: the heading stays ${Math.round(before.top)} px below the window's top (scrollY ${before.scrollY}); after the switch it is at ${Math.round(seen.top)} (scrollY ${seen.scrollY}): “${seen.text}”`);
        if (!c.model) assert.match(seen.text, HAN, 'the heading is in Chinese');
      }
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  // a glossary link followed, the language switched there, then Back: the reader is back where the link was,
  // in the language that entry had (the page is rebuilt for it)
  for (const c of CASES.filter((c) => !c.model)) {
    test(`${device}: a glossary jump, a language switch, then Back returns to the exact place (${c.what})`, async () => {
      const page = await openPage(browser.context, c.hash);
      const index = await page.$$eval(HEADINGS, (hs, src) => hs.findIndex((el) => new RegExp(src).test(el.textContent)), c.heading.source);
      assert.ok(index >= 0, `the heading ${c.heading}`);
      await scrollHeadingTo(page, index, 200);
      // the first glossary link after the heading, brought to 60 % down the window
      const link = await page.evaluate(({ sel, index }) => {
        const heading = document.querySelectorAll(sel)[index];
        const el = [...document.querySelectorAll('article.lesson a.term-link')].find((a) => heading.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING && a.getClientRects().length);
        if (!el) return null;
        el.setAttribute('data-test-link', '');
        window.scrollBy({ top: el.getBoundingClientRect().top - 0.6 * window.innerHeight, behavior: 'instant' });
        return el.textContent;
      }, { sel: HEADINGS, index });
      assert.ok(link !== null, 'a glossary link after the heading');
      await settle(page);
      const before = await page.evaluate(() => window.scrollY);
      const headingBefore = await headingAt(page, index);
      assert.ok(before > 1000, `read far down the page (scrollY ${before})`);
      // followed as a reader does: clicked where it is
      const box = await page.locator('[data-test-link]').boundingBox();
      assert.ok(box && box.y > 0 && box.y < page.viewportSize().height, `the link “${link}” on the screen`);
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction((y) => Math.abs(window.scrollY - y) > 200 && document.querySelector('details.glossary')?.open, before);
      await pressLanguage(page, 'zh');
      await page.waitForFunction(() => /lang=zh/.test(location.hash) && /[\u4e00-\u9fff]/.test(document.querySelector('main article h1')?.textContent ?? ''));
      await settle(page);
      await page.goBack();
      await page.waitForFunction(() => document.documentElement.lang === 'en' && !/[\u4e00-\u9fff]/.test(document.querySelector('main article h1')?.textContent ?? '鿿'));
      await settle(page);
      await page.waitForFunction(() => !document.documentElement.dataset.placing);
      const back = await page.evaluate(() => ({ scrollY: window.scrollY, hash: location.hash, lang: document.documentElement.lang }));
      const headingBack = await headingAt(page, index);
      assert.match(back.hash, /lang=en/, 'the entry keeps its language');
      // the page is rebuilt for the entry: its place is the same block at the same place in the window, to
      // the pixel (scrollY may differ: sections above, never laid out in the new page, hold their estimated height)
      assert.ok(Math.abs(headingBack.top - headingBefore.top) <= 4, `${c.what}: the link “${link}” was followed at scrollY ${before}, its section's heading ${Math.round(headingBefore.top)} px below the top; after 简体中文 and Back the page is at ${back.scrollY}, the heading at ${Math.round(headingBack.top)}`);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test(`${device}: after a switch to Chinese, Back shows the previous page in the language it had; Forward the page in Chinese`, async () => {
    for (const [from, to] of [
      ['#lesson=heatmap&lang=en', 'nav a[data-lesson="rope"]'],
      ['#page=check-model&lang=en', 'nav a[data-lesson="rope"]'],
      ['#lesson=heatmap&lang=en', 'nav a[data-page="check-model"]'],
    ]) {
      const page = await openPage(browser.context, from);
      await page.waitForSelector('main article h1');
      const title = await page.textContent('main article h1');
      await page.locator(to).click();
      await page.waitForFunction((t) => document.querySelector('main article h1')?.textContent !== t, title);
      await settle(page);
      await pressLanguage(page, 'zh');
      await page.waitForFunction(() => /lang=zh/.test(location.hash) && /[\u4e00-\u9fff]/.test(document.querySelector('main article h1')?.textContent ?? ''));
      const zhHash = await page.evaluate(() => location.hash);
      await page.goBack();
      await page.waitForFunction((t) => document.querySelector('main article h1')?.textContent === t, title, { timeout: 10000 }).catch(() => {});
      const back = await page.evaluate(() => ({ hash: location.hash, lang: document.documentElement.lang, title: document.querySelector('main article h1')?.textContent }));
      assert.equal(back.title, title, `${from} → ${to}, 简体中文, Back: the previous page as it was (${back.hash})`);
      assert.equal(back.lang, 'en');
      assert.equal(back.hash, from);
      await page.goForward();
      await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector('main article h1')?.textContent ?? ''), null, { timeout: 10000 });
      assert.equal(await page.evaluate(() => location.hash), zhHash, 'Forward: the page in Chinese');
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });
}
