// Figures out of view are drawn after the frame (web/src/lib/offscreen.js):
// a keyboard step redraws what is on screen, and the variants lesson's cards
// and charts below the fold follow once the page is idle. After quick steps
// (each replacing the draw the one before left pending), every figure must
// show the final state, without being scrolled into view: each card's table
// has d columns (or the card is hidden where the preset refuses d), and each
// line of the frequency-ratio chart has one point per frequency, d/2 of them
// for every 1-D preset (Vaswani et al. 2017: ω_i for i = 0 … d/2 − 1).
// npm test: quick form
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch({ viewport: { width: 1280, height: 900 } });
});
after(async () => {
  await browser?.close();
});

/** What the variants page shows now, read without scrolling. */
function shown(page) {
  return page.evaluate(() => {
    const below = (el) => el.getBoundingClientRect().top > window.innerHeight + 200;
    const cards = [...document.querySelectorAll('.lesson-variants .preset-card')].map((card) => {
      const map = card.querySelector('figure.heatmap');
      return { preset: card.dataset.preset, hidden: map.hidden, refusal: card.querySelector('.card-refusal').textContent, columns: map.figureSource.plot().columns, below: below(card) };
    });
    const ratios = document.querySelectorAll('.lesson-variants figure.chart')[1];
    // a d3 line's path is "M x,y" then "L x,y" per further point
    const points = [...ratios.querySelectorAll('path.chart-line')].map((p) => (p.getAttribute('d').match(/[ML]/g) ?? []).length);
    return { d: window.sinpeSite.state.d, cards, points, chartBelow: below(ratios), scrollY: window.scrollY };
  });
}

test('variants: cards and charts out of view show the final d after quick keyboard steps', async () => {
  const page = await openPage(browser.context, '#lesson=variants&lang=en');
  await settle(page);
  await page.focus('.lesson-controls input.slider[data-key="d"]');
  const start = await shown(page);
  assert.equal(start.d, 64);
  // the case this test is for: figures below the fold (not drawn in the step's frame)
  assert.ok(start.chartBelow, 'the ratio chart is out of view');
  assert.ok(start.cards.some((c) => c.below), 'some cards are out of view');

  // 64 → 65 (odd: refused, 66) → 67 (refused, 68), one press right after the other
  // the second press once the first has taken effect (65 corrected to 66: pressed before that, on a loaded
  // machine, it moved the slider from 65 to 66 again), before the figures out of view have drawn
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.sinpeSite.state.d === 66, null, { polling: 'raf' });
  await page.keyboard.press('ArrowRight');
  await settle(page);
  const up = await shown(page);
  assert.equal(up.d, 68);
  assert.equal(up.scrollY, start.scrollY, 'nothing was scrolled into view');
  for (const c of up.cards) {
    assert.equal(c.hidden, false, `${c.preset} takes d = 68`);
    assert.equal(c.columns, 68, `${c.preset}: its table has d columns`);
  }
  assert.ok(up.points.length >= 1);
  for (const n of up.points) assert.equal(n, 34, 'one point per frequency, d/2 = 34');

  // 68 → 67 (refused, 66): MAE's 2-D grid needs d divisible by 4 and refuses 66
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  const down = await shown(page);
  assert.equal(down.d, 66);
  for (const c of down.cards) {
    if (c.preset === 'mae') {
      assert.equal(c.hidden, true, 'mae is hidden at d = 66');
      assert.match(c.refusal, /66/);
    } else assert.equal(c.columns, 66, `${c.preset}: its table has d columns`);
  }
  for (const n of down.points) assert.equal(n, 33, 'one point per frequency, d/2 = 33');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a key pressed before the render steps from the value the state corrected: quick presses lose no step', async () => {
  const page = await openPage(browser.context, '#lesson=variants&lang=en');
  await settle(page);
  await page.focus('.lesson-controls input.slider[data-key="d"]');
  // no frame between the presses: hold back requestAnimationFrame, as a loaded machine or a long render
  // does (lib/render-scheduler.js renders in the frame then, and the slider is synced by that render)
  await page.evaluate(() => {
    window.heldFrames = [];
    window.realRaf = window.requestAnimationFrame;
    window.requestAnimationFrame = (f) => window.heldFrames.push(f);
  });
  // 64 → 65 (odd: refused, 66) → 67 (refused, 68) → 69 (refused, 70)
  const seen = [];
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('ArrowRight');
    seen.push(await page.evaluate(() => [window.sinpeSite.state.d, Number(document.querySelector('.lesson-controls input.slider[data-key="d"]').value)]));
  }
  await page.evaluate(() => {
    window.requestAnimationFrame = window.realRaf;
    for (const f of window.heldFrames) requestAnimationFrame(f);
  });
  assert.deepEqual(seen, [[66, 66], [68, 68], [70, 70]], 'state and slider after each press');
  await settle(page);
  assert.equal(await page.evaluate(() => window.sinpeSite.state.d), 70);
  assert.deepEqual(page.problems, []);
  await page.close();
});
