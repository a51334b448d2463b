// The heatmap figure itself: what a size drag costs the canvas, and axis
// ticks that stay distinguishable far from position 0.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, canvasPixel, closeColor, expectedColor, hoverCell } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Moves a slider through `values`, one input event per animation frame. */
function dragSlider(page, key, values) {
  return page.evaluate(
    async ({ key, values }) => {
      const slider = document.querySelector(`input.slider[data-key="${key}"]`);
      for (const v of values) {
        slider.value = String(v);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => requestAnimationFrame(r));
      }
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    },
    { key, values },
  );
}

test('a d_model drag never resizes the canvas while it shrinks, shows the right columns, then trims the canvas', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap&d=2048&len=512&layout=concat');
  const canvas = '.lesson-heatmap .heatmap-canvas';
  assert.deepEqual(await page.$eval(canvas, (c) => [c.width, c.height]), [2048, 512]);
  // count writes of the canvas' width/height (each one reallocates and clears its backing store)
  await page.$eval(canvas, (c) => {
    window.canvasResizes = 0;
    new MutationObserver((records) => (window.canvasResizes += records.length)).observe(c, { attributeFilter: ['width', 'height'] });
  });
  const down = Array.from({ length: 64 }, (_, i) => 2048 - 8 * (i + 1)); // 2040 … 1536
  await dragSlider(page, 'd', down);
  assert.equal(await page.evaluate(() => window.canvasResizes), 0, 'no backing-store resize during a shrinking drag');
  assert.equal(await page.evaluate(() => window.sinpeSite.state.d), 1536);
  // the visible window shows exactly the 1536 columns: concat puts cos(0) = 1 at column 768 of row 0
  await hoverCell(page, canvas, 768, 0); // uses the canvas' CSS size ÷ backing size = one cell
  assert.match(await page.textContent('.heatmap-readout'), /position 0, column 768 = cos/);
  const pixel = await canvasPixel(page, canvas, 768, 0);
  assert.ok(closeColor(pixel, expectedColor('rdbu', 1)), `cos(0) at column 768, got ${pixel}`);
  const plot = await page.$eval('.lesson-heatmap .heatmap-plot', (p) => {
    const c = p.querySelector('canvas').getBoundingClientRect();
    return { cssCell: c.width / p.querySelector('canvas').width, plotCell: p.clientWidth / 1536, clipped: getComputedStyle(p).overflow };
  });
  assert.equal(plot.clipped, 'hidden');
  assert.ok(Math.abs(plot.cssCell - plot.plotCell) < 1e-3, `one cell is the same width in canvas and plot: ${JSON.stringify(plot)}`);
  // once the drag is over, the backing store is trimmed to the frame
  await page.waitForFunction((selector) => {
    const c = document.querySelector(selector);
    return c.width === 1536 && c.height === 512;
  }, canvas);
  assert.deepEqual(await page.$eval(canvas, (c) => [c.width, c.height]), [1536, 512]);
  const after = await canvasPixel(page, canvas, 768, 0);
  assert.ok(closeColor(after, expectedColor('rdbu', 1)), `after trimming, got ${after}`);
  // growing again resizes only when the size exceeds the largest seen
  await page.evaluate(() => (window.canvasResizes = 0));
  await dragSlider(page, 'len', [500, 480, 400, 300]);
  assert.equal(await page.evaluate(() => window.canvasResizes), 0);
  assert.deepEqual(page.problems, []);
  await page.close();
});

/** The tick labels of an axis as shown. */
const tickTexts = (page, selector) => page.$$eval(`${selector} .tick text`, (ts) => ts.map((t) => t.textContent));
const asInt = (s) => Number(s.replace(/[,\s]/g, ''));

test('position ticks far from 0 stay distinguishable and readable in full', async () => {
  for (const [hash, axis, start, len] of [
    ['#lesson=heatmap&start=1000000&len=20&d=64', '.lesson-heatmap .heatmap-axes .axis.y', 1000000, 20],
    ['#lesson=heatmap&start=16777000&len=200&d=64', '.lesson-heatmap .heatmap-axes .axis.y', 16777000, 200],
    ['#lesson=pitfalls&start=1048576&len=64', '.map-tolerance .heatmap-axes .axis.y', 1048576, 64],
  ]) {
    const page = await openPage(browser.context, hash);
    const labels = await tickTexts(page, axis);
    assert.ok(labels.length >= 2, `${hash}: ${labels}`);
    assert.equal(new Set(labels).size, labels.length, `${hash}: ticks must differ: ${labels}`);
    for (const label of labels) {
      const v = asInt(label);
      assert.ok(Number.isInteger(v) && v >= start && v < start + len, `${hash}: tick "${label}" is a position shown`);
    }
    // no label is cut off at the left edge of the figure
    const clipped = await page.$$eval(`${axis} .tick text`, (ts) => {
      const fig = ts[0].closest('figure').getBoundingClientRect();
      return ts.filter((t) => t.getBoundingClientRect().left < fig.left - 0.5).map((t) => t.textContent);
    });
    assert.deepEqual(clipped, [], `${hash}: labels outside the figure`);
    // the axis title (rotated) does not overlap the tick labels
    const overlap = await page.$eval(axis, (g) => {
      const title = g.querySelector('.axis-label').getBoundingClientRect();
      const left = Math.min(...[...g.querySelectorAll('.tick text')].map((t) => t.getBoundingClientRect().left));
      return title.right - left;
    });
    assert.ok(overlap <= 1, `${hash}: axis title overlaps tick labels by ${overlap}px`);
    assert.deepEqual(page.problems, []);
    await page.close();
  }
  // the log axis of the float32 error chart: every tick label different
  const page = await openPage(browser.context, '#lesson=pitfalls');
  const labels = (await tickTexts(page, '.lesson-pitfalls .chart-svg .axis.x')).filter(Boolean);
  assert.ok(labels.length >= 3, `pitfalls x axis has labelled ticks: ${labels}`);
  assert.equal(new Set(labels).size, labels.length, `pitfalls x axis: ${labels}`);
  await page.close();
});
