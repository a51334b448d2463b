// A 360 px phone: each lesson's controls panel, pinned at the top of the
// screen, folds with its toggle (a button: keyboard, aria-expanded), and
// folded it covers nothing of the lesson's summary; the fold is the lesson's
// own setting (kept across Previous / Next, a language switch and the URL).
// Open, a control and the figure it drives are on the screen together.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage, settle, hashSettled } from './helpers.mjs';

const VIEWPORT = { width: 360, height: 740 };
let browser;
before(async () => {
  browser = await launch({ viewport: VIEWPORT });
});
after(async () => {
  await browser?.close();
});

const state = (page) => page.evaluate(() => window.sinpeSite.state);

// In the page: with the summary scrolled to the top of the screen (where the
// pinned panel is), the parts of its title and points that another element
// (the panel) covers, at each line's start and middle.
function coveredSummary() {
  const summary = document.querySelector('.lesson-summary');
  const parts = [summary.querySelector('h2'), ...summary.querySelectorAll('li')];
  const covered = [];
  summary.scrollIntoView({ block: 'start' });
  for (const el of parts) {
    for (const rect of el.getClientRects()) {
      if (rect.bottom > innerHeight) continue; // below the screen: not covered, just further on
      for (const x of [rect.left + 4, (rect.left + rect.right) / 2]) {
        const y = (rect.top + rect.bottom) / 2;
        const hit = document.elementFromPoint(x, y);
        if (!hit || !summary.contains(hit)) covered.push(`${el.textContent.slice(0, 30)} at ${Math.round(y)} px: ${hit?.className || hit?.tagName}`);
      }
    }
  }
  return { covered, parts: parts.length };
}

for (const lesson of LESSON_IDS) {
  test(`lesson ${lesson} at 360 px: open, a slider and its figure are on the screen together; folded, the panel leaves the summary in view`, async () => {
    const page = await openPage(browser.context, `#lesson=${lesson}`);
    const toggles = await page.$$eval('.lesson-controls', (panels) =>
      panels.map((p) => {
        const b = p.querySelector(':scope > button.panel-toggle');
        return b && { expanded: b.getAttribute('aria-expanded'), controls: b.getAttribute('aria-controls') === p.id, shown: b.getBoundingClientRect().height > 0 };
      }),
    );
    assert.ok(toggles.length > 0, 'the lesson has a controls panel');
    for (const t of toggles) assert.deepEqual(t, { expanded: 'true', controls: true, shown: true });
    // open: the panel's first slider and the first figure after it are on the screen together
    const both = await page.evaluate(() => {
      const panel = [...document.querySelectorAll('.lesson-controls')].find((p) => p.querySelector('input.slider'));
      if (!panel) return null;
      const slider = panel.querySelector('input.slider');
      const figures = [...document.querySelectorAll('.lesson figure, .lesson .dials, .lesson .clock')];
      const figure = figures.find((f) => panel.compareDocumentPosition(f) & Node.DOCUMENT_POSITION_FOLLOWING);
      if (!figure) return { slider: slider.dataset.key, figure: null };
      figure.scrollIntoView({ block: 'end' });
      const inView = (el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight && r.height > 0;
      };
      return { slider: slider.dataset.key, figure: figure.className, sliderInView: inView(slider), figureInView: inView(figure) };
    });
    if (both !== null) {
      assert.ok(both.figure, `lesson ${lesson}: no figure after the panel with slider ${both.slider}`);
      assert.deepEqual([both.sliderInView, both.figureInView], [true, true], `slider ${both.slider} and ${both.figure}`);
    }
    // open, the pinned panel covers the summary's first lines (the rope lesson's panels end with their sections)
    const open = await page.evaluate(coveredSummary);
    if (lesson !== 'rope') assert.ok(open.covered.length > 0, 'the open panel covers the summary: the check below can see it');
    // fold it from the keyboard
    await page.focus('.lesson-controls > button.panel-toggle');
    await page.keyboard.press('Enter');
    await settle(page);
    assert.equal((await state(page)).panel, 'closed');
    // sections off the screen are laid out lazily (content-visibility): wait for their panels' new size
    await page
      .waitForFunction(() => [...document.querySelectorAll('.lesson-controls')].every((p) => p.getBoundingClientRect().height < 60), null, { timeout: 3000 })
      .catch(() => {}); // the assertions below say which panel did not fold
    const folded = await page.$$eval('.lesson-controls', (panels) =>
      panels.map((p) => ({
        expanded: p.querySelector(':scope > button.panel-toggle').getAttribute('aria-expanded'),
        height: p.getBoundingClientRect().height,
        focused: document.activeElement === p.querySelector(':scope > button.panel-toggle') || !p.contains(document.activeElement),
      })),
    );
    for (const f of folded) {
      assert.equal(f.expanded, 'false');
      assert.ok(f.height < 60, `a folded panel is one button high, not ${f.height.toFixed(0)} px`);
    }
    assert.ok(folded[0].focused, 'the toggle keeps the focus');
    const { covered, parts } = await page.evaluate(coveredSummary);
    assert.equal(parts, 4, 'the summary: its title and three points');
    assert.deepEqual(covered, [], 'summary covered by the folded panel');
    assert.match(await hashSettled(page), /panel=closed/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('the fold is kept per lesson across Previous / Next and a language switch, and Space opens it again', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap');
  await page.click('.lesson-controls > button.panel-toggle');
  await settle(page);
  await page.click('.lesson-pager a[rel="next"]');
  await page.waitForFunction(() => window.sinpeSite.state.lesson !== 'heatmap');
  await settle(page);
  assert.equal((await state(page)).panel, 'open', 'the next lesson has its own fold');
  await page.click('.lesson-pager a[rel="prev"]');
  await page.waitForFunction(() => window.sinpeSite.state.lesson === 'heatmap');
  await settle(page);
  assert.equal((await state(page)).panel, 'closed', 'the heatmap lesson is folded again');
  await page.click('.lang-button[data-lang="zh"]');
  await settle(page);
  const zh = await page.$eval('.lesson-controls > button.panel-toggle', (b) => ({ expanded: b.getAttribute('aria-expanded'), text: b.textContent }));
  assert.equal(zh.expanded, 'false');
  assert.match(zh.text, /[\u4e00-\u9fff]/);
  await page.focus('.lesson-controls > button.panel-toggle');
  await page.keyboard.press('Space');
  await settle(page);
  assert.equal((await state(page)).panel, 'open');
  await page.close();
});

