// A 360 px phone. Each lesson's controls panel folds with its toggle (a
// button: keyboard, aria-expanded); folded, it is one button pinned at the
// right and covers nothing of the lesson's summary; the fold is the lesson's
// own setting (kept across Previous / Next, a language switch and the URL).
// Open, a panel whose height fits in --pinned-share of the screen (style.css,
// 30 %) is pinned at its top, and its first slider and the figure it drives
// are on the screen together; a taller panel is not pinned (it sits in the
// page above its figure, every control in sight: panel-fit.test.mjs), so no
// pinned panel takes more than that share (360 × 780 and 360 × 740) and none
// scrolls inside; opened from its folded toggle further down, a tall panel is
// brought into view. No figure's caption scrolled into view is hidden under a
// pinned panel, and no pinned panel sits on another (the outer / inner hand-over).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage, settle, hashSettled } from './helpers.mjs';
import { panelFit } from './panel-fit.mjs';

const VIEWPORT = { width: 360, height: 740 };
let browser;
before(async () => {
  browser = await launch({ viewport: VIEWPORT });
});
after(async () => {
  await browser?.close();
});

const state = (page) => page.evaluate(() => window.sinpeSite.state);
// the share of the screen a pinned panel may take, from the page's style.css
const pinnedShare = (page) => page.evaluate(() => Number(getComputedStyle(document.documentElement).getPropertyValue('--pinned-share')));

// In the page: with the summary scrolled to the top of the screen (where the
// pinned panel is), the parts of its title and points that another element
// (the panel) covers, at each line's start and middle.
function coveredSummary() {
  const summary = document.querySelector('.lesson-summary');
  const parts = [summary.querySelector('h2'), ...summary.querySelectorAll('li')];
  const covered = [];
  // the summary's top at the top of the screen (where a scroll into view may stop short of it)
  scrollBy(0, summary.getBoundingClientRect().top);
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

let slidersWithFigure = 0; // pinned panels whose slider was seen with its figure
for (const lesson of LESSON_IDS) {
  test(`lesson ${lesson} at 360 px: open, a pinned panel's slider and its figure are on the screen together, a tall panel is not pinned; folded, the panel leaves the summary in view`, async () => {
    const page = await openPage(browser.context, `#lesson=${lesson}`);
    const toggles = await page.$$eval('.lesson-controls', (panels) =>
      panels.map((p) => {
        const b = p.querySelector(':scope > button.panel-toggle');
        return b && { expanded: b.getAttribute('aria-expanded'), controls: b.getAttribute('aria-controls') === p.id, shown: b.getBoundingClientRect().height > 0 };
      }),
    );
    assert.ok(toggles.length > 0, 'the lesson has a controls panel');
    for (const t of toggles) assert.deepEqual(t, { expanded: 'true', controls: true, shown: true });
    // open: a pinned panel's first slider and the first figure after it are on the screen together;
    // a panel taller than the share is not pinned (it stays above its figure)
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
      const share = Number(getComputedStyle(document.documentElement).getPropertyValue('--pinned-share'));
      return {
        slider: slider.dataset.key,
        figure: figure.className,
        pinned: getComputedStyle(panel).position === 'sticky',
        tall: panel.getBoundingClientRect().height > share * innerHeight,
        sliderInView: inView(slider),
        figureInView: inView(figure),
      };
    });
    if (both !== null) {
      assert.ok(both.figure, `lesson ${lesson}: no figure after the panel with slider ${both.slider}`);
      assert.equal(both.pinned, !both.tall, `slider ${both.slider}'s panel: pinned exactly when it fits in the share`);
      if (both.pinned) {
        assert.deepEqual([both.sliderInView, both.figureInView], [true, true], `slider ${both.slider} and ${both.figure}`);
        slidersWithFigure++;
      }
    }
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

test('the summary check sees an open panel pinned over the summary: it can see a cover', async () => {
  // the heatmap lesson's open panel is too tall to pin: pinned by force (its mark taken off, as a
  // short panel's would be), it sits over the summary scrolled under it
  const page = await openPage(browser.context, '#lesson=heatmap');
  const forced = await page.evaluate(() => {
    const panel = document.querySelector('.lesson-controls.panel-tall');
    panel?.classList.remove('panel-tall');
    return panel !== null && getComputedStyle(panel).position === 'sticky';
  });
  assert.ok(forced, 'the heatmap lesson has a tall panel, pinned once its mark is off');
  const { covered } = await page.evaluate(coveredSummary);
  assert.ok(covered.length > 0, 'no cover seen');
  await page.close();
});

test('some pinned panel had its slider and figure on the screen together', () => {
  assert.ok(slidersWithFigure >= 1, `${slidersWithFigure} panels`);
});

// In the page: the open panels' heights, every section laid out.
async function panelHeights() {
  for (const s of document.querySelectorAll('.lesson-section')) s.style.contentVisibility = 'visible';
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return [...document.querySelectorAll('.lesson-controls')].map((p) => ({
    height: p.getBoundingClientRect().height,
    sticky: getComputedStyle(p).position === 'sticky',
    scrolls: p.scrollHeight > p.clientHeight + 1,
    what: p.textContent.slice(0, 40),
  }));
}

// In the page: each figure caption (a figure's figcaption, a table's caption) scrolled
// into view (as a link, the keyboard's focus or a find would), and the points of its
// lines that a controls panel covers.
async function coveredCaptions() {
  const captions = [...document.querySelectorAll('article.lesson :is(figcaption, caption)')].filter((c) => c.getClientRects().length > 0 && c.textContent.trim());
  const covered = [];
  for (const caption of captions) {
    caption.scrollIntoView({ block: 'start' });
    await new Promise((r) => requestAnimationFrame(r));
    for (const rect of caption.getClientRects()) {
      if (rect.bottom > innerHeight || rect.width === 0) continue;
      for (const x of [rect.left + 4, (rect.left + rect.right) / 2]) {
        const y = (rect.top + rect.bottom) / 2;
        const hit = document.elementFromPoint(x, y);
        if (hit?.closest('.lesson-controls')) covered.push(`"${caption.textContent.trim().slice(0, 40)}" at ${Math.round(y)} px`);
      }
    }
  }
  return { covered, captions: captions.length };
}

let captionsChecked = 0;
let pinnedPanels = 0;
for (const height of [780, 740]) {
  for (const lesson of LESSON_IDS) {
    test(`lesson ${lesson} at 360 × ${height}: an open pinned panel takes ≤ 30 % of the screen, none scrolls inside, none covers a figure caption scrolled into view`, async () => {
      const page = await openPage(browser.context, `#lesson=${lesson}`);
      await page.setViewportSize({ width: 360, height });
      await settle(page);
      assert.equal((await state(page)).panel, 'open');
      const share = await pinnedShare(page);
      const panels = await page.evaluate(panelHeights);
      assert.ok(panels.length > 0, 'the lesson has a controls panel');
      pinnedPanels += panels.filter((p) => p.sticky).length;
      const wrong = panels.filter((p) => !(p.height > 0) || p.scrolls || p.sticky !== p.height <= share * height);
      assert.deepEqual(
        wrong.map((p) => `${p.height.toFixed(0)} px (${((100 * p.height) / height).toFixed(0)} %), ${p.sticky ? 'pinned' : 'not pinned'}${p.scrolls ? ', scrolls inside' : ''}: ${p.what}`),
        [],
        `open panels of a ${height} px screen: pinned exactly when ≤ ${share * 100} % of it, none scrolling inside`,
      );
      const { covered, captions } = await page.evaluate(coveredCaptions);
      captionsChecked += captions;
      assert.deepEqual(covered, [], 'figure captions under a pinned panel');
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }
}

// In the page: scrolls from the top to the end in steps of a third of the screen and, at each
// stop (two frames after it: the browser lays out what came into view), lists the pairs of
// controls panels whose boxes on the screen overlap (a pinned panel sitting on another).
async function overlappingPanels() {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const found = new Set();
  let stops = 0;
  for (let y = 0; y <= document.documentElement.scrollHeight; y += Math.floor(innerHeight / 3)) {
    scrollTo(0, y);
    await frame();
    stops++;
    const boxes = [...document.querySelectorAll('.lesson-controls')].map((p) => ({ p, r: p.getBoundingClientRect() })).filter(({ r }) => r.height > 0 && r.bottom > 0 && r.top < innerHeight);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i].r, boxes[j].r];
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) found.add(`${boxes[i].p.textContent.slice(0, 40)} / ${boxes[j].p.textContent.slice(0, 40)}`);
      }
  }
  return { overlaps: [...found], stops };
}

for (const lesson of LESSON_IDS) {
  test(`lesson ${lesson} at 360 × 740: scrolled from top to end, no pinned panel sits on another`, async () => {
    const page = await openPage(browser.context, `#lesson=${lesson}`);
    await settle(page);
    const { overlaps, stops } = await page.evaluate(overlappingPanels);
    assert.ok(stops >= 5, `${stops} scroll stops`);
    assert.deepEqual(overlaps, [], 'controls panels overlapping on the screen');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('figure captions were checked, with pinned panels among the open ones', () => {
  assert.ok(captionsChecked >= 2 * LESSON_IDS.length, `${captionsChecked} captions`);
  assert.ok(pinnedPanels >= 2, `${pinnedPanels} pinned panels`);
});

test('a tall panel folded, opened from its pinned toggle further down, comes into view whole, not pinned, every control in it', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap&panel=closed');
  // down to the summary, far below the panel's place
  await page.evaluate(() => document.querySelector('.lesson-summary').scrollIntoView({ block: 'start' }));
  await settle(page);
  const toggle = page.locator('.lesson-controls > button.panel-toggle').first();
  assert.ok(await toggle.isVisible(), 'the folded toggle is on the screen (pinned)');
  await toggle.click();
  await settle(page);
  assert.equal((await state(page)).panel, 'open');
  const share = await pinnedShare(page);
  const seen = await page.evaluate((share) => {
    const p = document.querySelector('.lesson-controls');
    const r = p.getBoundingClientRect();
    const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
    return {
      pinned: getComputedStyle(p).position === 'sticky',
      tall: r.height > share * innerHeight,
      inView: r.top >= header - 1 && r.bottom <= innerHeight + 1,
      focused: document.activeElement === p.querySelector('.panel-toggle'),
    };
  }, share);
  assert.deepEqual(seen, { pinned: false, tall: true, inView: true, focused: true });
  const { panels } = await page.evaluate(panelFit);
  assert.ok(panels.length > 0);
  assert.deepEqual(panels.flatMap((p) => p.cut), []);
  await page.close();
});

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

