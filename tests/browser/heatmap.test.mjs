// The heatmap figure itself: what a size drag costs the canvas, and axis
// ticks that stay distinguishable far from position 0.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle, canvasPixel, closeColor, expectedColor, hoverCell } from './helpers.mjs';

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
  await page.waitForTimeout(400);
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
