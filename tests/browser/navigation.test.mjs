// Moving around the site: the wheel scrolls the page (Ctrl/⌘ + wheel zooms a
// heatmap), lesson changes land at the lesson's title and are history
// entries, and on a phone the lesson menu shows the current lesson.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage, settle, hashSettled } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const siteState = (page) => page.evaluate(() => window.sinpeSite.state);

test('a plain wheel over the heatmap scrolls the page; Ctrl + wheel zooms the heatmap', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap');
  const plot = page.locator('.lesson-heatmap .heatmap-plot');
  await plot.scrollIntoViewIfNeeded();
  const box = await plot.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
  const before = await page.evaluate(() => window.scrollY);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 100);
  // wait for the scroll itself (it may be animated), not for a fixed time
  const scrolled = await page
    .waitForFunction((y) => window.scrollY > y + 100, before, { timeout: 5000 })
    .then(() => true)
    .catch(() => false);
  await settle(page);
  const after = await page.evaluate(() => window.scrollY);
  assert.ok(scrolled && after > before + 100, `the page scrolled (${before} → ${after})`);
  const s = await siteState(page);
  assert.equal(s.start, 0, 'the wheel does not move the start position');
  assert.equal(s.len, 100, 'nor the zoom');
  // Ctrl + wheel (also what a trackpad pinch sends) zooms: fewer rows when rolled up, the page stays put
  await page.evaluate(() => window.scrollTo(0, 0));
  await plot.scrollIntoViewIfNeeded();
  const box2 = await plot.boundingBox();
  await page.mouse.move(box2.x + box2.width / 2, box2.y + 10);
  const y0 = await page.evaluate(() => window.scrollY);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await settle(page);
  assert.equal(await page.evaluate(() => window.scrollY), y0, 'Ctrl + wheel does not scroll the page');
  const zoomed = await siteState(page);
  assert.ok(zoomed.len < 100, `zoomed in to ${zoomed.len} rows`);
  assert.equal(zoomed.start, 0, 'zooming at the top row keeps position 0 in view');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a lesson chosen in the menu opens at its title, and Back/Forward move between lessons', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap');
  await page.evaluate(() => window.scrollTo(0, 1400));
  await page.waitForFunction(() => window.scrollY > 0);
  const length0 = await page.evaluate(() => history.length);
  await page.click('nav a[data-lesson="waves"]');
  await settle(page);
  assert.equal(await page.getAttribute('article.lesson', 'data-lesson'), 'waves');
  const title = await page.$eval('h1.lesson-title', (h) => h.getBoundingClientRect().top);
  assert.ok(title > -2 && title < 120, `the title is at the top of the window (top = ${title}px)`);
  assert.equal(await page.evaluate(() => history.length), length0 + 1, 'a history entry per lesson change');
  assert.match(await hashSettled(page), /lesson=waves/);
  await page.goBack();
  await settle(page);
  assert.equal(await page.getAttribute('article.lesson', 'data-lesson'), 'heatmap');
  assert.match(page.url(), /lesson=heatmap/);
  await page.goForward();
  await settle(page);
  assert.equal(await page.getAttribute('article.lesson', 'data-lesson'), 'waves');
  const back = await page.$eval('h1.lesson-title', (h) => h.getBoundingClientRect().top);
  assert.ok(back > -2 && back < 120, `Forward lands at the title too (top = ${back}px)`);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('Back keeps what was changed in the lesson left behind', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap');
  await page.fill('.lesson-heatmap input.number[data-key="start"]', '500');
  await page.press('.lesson-heatmap input.number[data-key="start"]', 'Enter');
  await settle(page);
  await page.click('nav a[data-lesson="binary"]');
  await settle(page);
  await page.goBack();
  await settle(page);
  const s = await siteState(page);
  assert.equal(s.lesson, 'heatmap');
  assert.equal(s.start, 500);
  await page.close();
});

test('on a phone the lesson menu shows the current lesson', async () => {
  const phone = await launch({ viewport: { width: 360, height: 740 } });
  try {
    for (const lesson of LESSON_IDS) {
      const page = await openPage(phone.context, `#lesson=${lesson}`);
      const r = await page.$eval(`nav a[data-lesson="${lesson}"]`, (a) => {
        const b = a.getBoundingClientRect();
        return { left: b.left, right: b.right };
      });
      assert.ok(r.left >= -1 && r.right <= 361, `${lesson}: its menu entry is on screen (${r.left}…${r.right})`);
      await page.close();
    }
    // and after choosing another lesson from the menu
    const page = await openPage(phone.context, '#lesson=formula');
    await page.$eval('nav a[data-lesson="pitfalls"]', (a) => a.click());
    await settle(page);
    const r = await page.$eval('nav a[data-lesson="pitfalls"]', (a) => a.getBoundingClientRect().right);
    assert.ok(r <= 361, `pitfalls entry on screen after the change (right = ${r})`);
    await page.close();
  } finally {
    await phone.close();
  }
});

test('a language switch mid-lesson keeps the section being read in view (the rope lesson, the M-RoPE section)', async () => {
  const page = await openPage(browser.context, '#lesson=rope&lang=en');
  const sections = 'article.lesson > section';
  // the section on text and an image (M-RoPE), found by its heading in English
  const index = await page.$$eval(sections, (ss) => ss.findIndex((s) => /three positions per token/.test(s.querySelector('h2')?.textContent ?? '')));
  assert.ok(index > 0, 'the M-RoPE section');
  await page.$$eval(sections, (ss, i) => ss[i].scrollIntoView({ block: 'start', behavior: 'instant' }), index);
  await page.evaluate(() => window.scrollBy({ top: 200, behavior: 'instant' }));
  await settle(page);
  const before = await page.evaluate(() => window.scrollY);
  assert.ok(before > 2000, `read far down the lesson (scrollY ${before})`);
  // the switch pressed where the reader is (a click through the DOM: a pointer click would first scroll the header into view)
  await page.$eval('.lang-button[data-lang="zh"]', (b) => b.click());
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await settle(page);
  // the same section spans the window's top, in Chinese
  const seen = await page.$$eval(sections, (ss, i) => {
    const r = ss[i].getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, title: ss[i].querySelector('h2').textContent, scrollY: window.scrollY };
  }, index);
  assert.ok(seen.top <= 1 && seen.bottom > 100, `the section is at the window's top (top ${seen.top}, bottom ${seen.bottom}, scrollY ${seen.scrollY})`);
  assert.match(seen.title, /[\u4e00-\u9fff]/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a glossary link is a history entry within the lesson: Back returns to the link, in the same lesson', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap&lang=en');
  await page.click('nav a[data-lesson="rope"]');
  await settle(page);
  // a link far down the lesson (the glossary is at its end)
  const link = page.locator('article.lesson > section:nth-of-type(4) a.term-link').first();
  await link.scrollIntoViewIfNeeded();
  // where the link is in the window when it is clicked (the pointer click may scroll it first)
  await page.evaluate(() => document.addEventListener('click', (e) => (window.clickedAt = [window.scrollY, e.target.closest('a').getBoundingClientRect().top]), { capture: true, once: true }));
  const jumpId = await link.getAttribute('data-jump-id');
  await link.click();
  await settle(page);
  const [y0, top0] = await page.evaluate(() => window.clickedAt);
  assert.equal(await page.evaluate(() => document.querySelector('details.glossary').open), true);
  const y1 = await page.evaluate(() => window.scrollY);
  assert.ok(Math.abs(y1 - y0) > 300, `the glossary entry is elsewhere (${y0} → ${y1})`);
  await page.goBack();
  await settle(page);
  assert.equal(await page.getAttribute('article.lesson', 'data-lesson'), 'rope', 'still the rope lesson');
  // the link where it was in the window (sections drawn meanwhile may have moved it within the page)
  const top2 = await page.$eval(`[data-jump-id="${jumpId}"]`, (a) => a.getBoundingClientRect().top);
  assert.ok(Math.abs(top2 - top0) <= 2, `back where the link was (${top0} px from the window's top), at ${top2}`);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.jumpId), jumpId, 'focus on the link followed');
  // a second Back leaves the lesson as before
  await page.goBack();
  await settle(page);
  assert.equal(await page.getAttribute('article.lesson', 'data-lesson'), 'heatmap');
  assert.deepEqual(page.problems, []);
  await page.close();
});
