// Heatmaps with more cells than screen pixels (2048 columns × 4096 rows into
// a plot of ~900 × 480 px) must show what the data average to, not a moiré:
// the pixels on screen are compared with a float64 box filter of the exact
// table computed here from the formula (PE[p, 2i] = sin(p·base^(−2i/d)),
// PE[p, 2i+1] = cos(…), interleaved).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, expectedColor } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch({ viewport: { width: 1280, height: 900 } });
});
after(async () => {
  await browser?.close();
});

const pe = (p, col, d, base) => {
  const i = Math.floor(col / 2);
  const angle = p * Math.pow(base, (-2 * i) / d);
  return col % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
};

/** Mean of PE over the cells screen pixel (x, y) of a width × height plot covers (fractional cells weighted). */
function boxMean(x, y, width, height, columns, rows, d, base) {
  const [c0, c1] = [(x * columns) / width, ((x + 1) * columns) / width];
  const [r0, r1] = [(y * rows) / height, ((y + 1) * rows) / height];
  let sum = 0;
  let area = 0;
  for (let r = Math.floor(r0); r < Math.ceil(r1); r++) {
    const wr = Math.min(r1, r + 1) - Math.max(r0, r);
    for (let c = Math.floor(c0); c < Math.ceil(c1); c++) {
      const w = wr * (Math.min(c1, c + 1) - Math.max(c0, c));
      sum += w * pe(r, c, d, base);
      area += w;
    }
  }
  return sum / area;
}

/** The plot's padding box as shown on screen: { width, height, rgba } (device scale 1). */
async function shownPixels(page, selector) {
  const clip = await page.$eval(selector, (plot) => {
    plot.scrollIntoView({ block: 'start' });
    const r = plot.getBoundingClientRect();
    return { x: r.left + plot.clientLeft, y: r.top + plot.clientTop, width: plot.clientWidth, height: plot.clientHeight };
  });
  // the page may place the plot at a fraction of a pixel: the screenshot starts at the pixel it begins in
  clip.x = Math.floor(clip.x);
  clip.y = Math.floor(clip.y);
  const png = await page.screenshot({ clip });
  const blank = await browser.context.newPage();
  const rgba = await blank.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(img, 0, 0);
    return [img.width, img.height, Array.from(ctx.getImageData(0, 0, img.width, img.height).data)];
  }, png.toString('base64'));
  await blank.close();
  return { width: rgba[0], height: rgba[1], rgba: rgba[2] };
}

test('lesson 2 at d 2048 × 4096 rows shows the box-filtered table, not a moiré', async () => {
  const [d, rows, base] = [2048, 4096, 10000];
  const page = await openPage(browser.context, `#lesson=heatmap&d=${d}&len=${rows}&layout=interleaved&base=${base}&cmap=rdbu`);
  const shown = await shownPixels(page, '.lesson-heatmap .heatmap-plot');
  assert.ok(shown.width < d && shown.height < rows, `the plot (${shown.width} × ${shown.height}) has fewer pixels than cells`);
  const errors = [];
  const mids = [];
  // a deterministic grid of interior pixels (edges are left out: the canvas' sub-pixel edge)
  for (let y = 4; y < shown.height - 4; y += 23) {
    for (let x = 4; x < shown.width - 4; x += 37) {
      const mean = boxMean(x, y, shown.width, shown.height, d, rows, d, base);
      const want = expectedColor('rdbu', mean);
      const k = 4 * (y * shown.width + x);
      const got = [shown.rgba[k], shown.rgba[k + 1], shown.rgba[k + 2]];
      errors.push(Math.max(...got.map((c, j) => Math.abs(c - want[j]))));
      // where the true mean is ≈ 0 (columns of fast sines), the screen shows the map's middle
      if (x < shown.width / 8 && Math.abs(mean) < 0.05) mids.push(Math.max(...got.map((c, j) => Math.abs(c - expectedColor('rdbu', 0)[j]))));
    }
  }
  errors.sort((a, b) => a - b);
  const p95 = errors[Math.floor(errors.length * 0.95)];
  const median = errors[Math.floor(errors.length / 2)];
  assert.ok(errors.length > 300, `${errors.length} pixels compared`);
  assert.ok(mids.length > 20, `${mids.length} pixels with a mean ≈ 0`);
  mids.sort((a, b) => a - b);
  assert.ok(median <= 6 && p95 <= 30, `screen vs box-filtered float64: median ${median}, 95th percentile ${p95} (per-channel error of 0–255)`);
  assert.ok(mids[Math.floor(mids.length / 2)] <= 12, `pixels whose mean is ≈ 0 are the map's middle: median error ${mids[Math.floor(mids.length / 2)]}`);
  assert.match(await page.textContent('.lesson-heatmap .heatmap-note:not([hidden])'), /mean value of the cells/);
  assert.deepEqual(page.problems, []);
  await page.close();
});
