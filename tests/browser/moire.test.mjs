// Heatmaps with more cells than screen pixels (2048 columns × 4096 rows into
// a plot of ~900 × 480 px) must show what the data average to, not a moiré:
// the pixels on screen are compared with a float64 box filter of the exact
// table computed here from the formula (PE[p, 2i] = sin(p·base^(−2i/d)),
// PE[p, 2i+1] = cos(…), interleaved). Every other heatmap of the site (found
// in the DOM of every lesson of the registry, at the lesson's largest sizes)
// shows box-filtered means whenever its cells outnumber its pixels.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage, expectedColor, settle } from './helpers.mjs';

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
  // brought on screen, the figure may draw again (its axes' margin, its means): wait until it shows its state
  await page.$eval(selector, (plot) => plot.scrollIntoView({ block: 'start' }));
  await settle(page);
  // a plot of fewer pixels than cells paints its means once its sizes have stopped changing (120 ms after its last draw)
  await page.waitForFunction((sel) => document.querySelector(sel)?.closest('figure').querySelector('.heatmap-display')?.hidden === false, selector, { timeout: 30000 });
  const clip = await page.$eval(selector, (plot) => {
    const r = plot.getBoundingClientRect();
    return { x: r.left + plot.clientLeft, y: r.top + plot.clientTop, width: plot.clientWidth, height: plot.clientHeight };
  });
  // the page may place the plot at a fraction of a pixel; the browser draws a canvas snapped to the
  // nearest device pixel (at y = 0.66 it starts at row 1): the screenshot starts at that pixel
  clip.x = Math.round(clip.x);
  clip.y = Math.round(clip.y);
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

test('the heatmap lesson at d 2048 × 4096 rows shows the box-filtered table, not a moiré', async () => {
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

// Heatmaps that show sampled rows instead of means, and why: pitfalls' bug
// tables are computed (in JavaScript, float64) only at every step-th position
// when the table is longer than the plot; their columns and rows are not averaged.
const SAMPLED = new Map([
  ['pitfalls buggy', 'the buggy table is computed at every step-th position only'],
  ['pitfalls correct', 'drawn beside the buggy table at the same positions'],
  ['pitfalls difference', 'the difference of the two tables above, at the same positions'],
]);

/** In the page: each heatmap's cells and plot pixels, and what it shows (means or cells). */
function heatmapsShown() {
  const dpr = window.devicePixelRatio || 1;
  return [...document.querySelectorAll('.lesson figure.heatmap')]
    .filter((f) => !f.hidden && !f.closest('[hidden]'))
    .map((f) => {
      const plot = f.querySelector('.heatmap-plot');
      const source = f.figureSource.plot();
      const display = f.querySelector('.heatmap-display');
      const note = f.querySelector('.heatmap-note');
      return {
        key: f.figureSource.key,
        columns: source.columns,
        rows: source.rows,
        width: Math.round(plot.clientWidth * dpr),
        height: Math.round(plot.clientHeight * dpr),
        means: !display.hidden,
        meansSize: [display.width, display.height],
        cellsHidden: f.querySelector('.heatmap-canvas').style.visibility === 'hidden',
        note: Boolean(note && !note.hidden),
      };
    });
}

let crowded = 0;
for (const lesson of LESSON_IDS) {
  test(`lesson ${lesson}: every heatmap with more cells than pixels shows the box-filtered means`, async () => {
    // the lesson's largest table (values beyond a lesson's range are brought into it)
    const page = await openPage(browser.context, `#lesson=${lesson}&d=65536&len=65536&bits=8`);
    const needs = (m) => m.columns > m.width || m.rows > m.height;
    // means are painted once the sizes settle
    await page
      .waitForFunction(
        (sampled) => {
          const maps = [...document.querySelectorAll('.lesson figure.heatmap')].filter((f) => !f.hidden && !f.closest('[hidden]'));
          return maps.every((f) => {
            const plot = f.querySelector('.heatmap-plot');
            const { columns, rows } = f.figureSource.plot();
            const crowd = columns > plot.clientWidth * devicePixelRatio || rows > plot.clientHeight * devicePixelRatio;
            return !crowd || sampled.includes(`${document.querySelector('.lesson').dataset.lesson} ${f.figureSource.key}`) || !f.querySelector('.heatmap-display').hidden;
          });
        },
        [...SAMPLED.keys()],
        { timeout: 5000 },
      )
      .catch(() => {}); // the assertions below say which map does not
    const maps = await page.evaluate(heatmapsShown);
    for (const m of maps) {
      if (!needs(m) || SAMPLED.has(`${lesson} ${m.key}`)) continue;
      crowded++;
      const what = `${lesson} ${m.key}: ${m.columns} × ${m.rows} cells in ${m.width} × ${m.height} px`;
      assert.ok(m.means && m.cellsHidden, `${what}: the cells are drawn, not their means`);
      assert.ok(m.meansSize[0] <= m.width && m.meansSize[1] <= m.height, `${what}: means ${m.meansSize.join(' × ')} exceed the plot's pixels`);
      assert.ok(m.note, `${what}: the page does not say it shows means`);
    }
    await page.close();
  });
}

test('heatmaps with more cells than pixels were found in several lessons', () => {
  console.log(`${crowded} heatmaps with more cells than pixels checked`);
  assert.ok(crowded >= 8, `${crowded} crowded heatmaps checked`);
});

test('the variants lesson at d 512 × 512 rows: the vaswani card shows the box-filtered table', async () => {
  const [d, rows, base] = [512, 512, 10000];
  const page = await openPage(browser.context, `#lesson=variants&d=${d}&len=${rows}&preset=vaswani&cmap=rdbu`);
  await page.waitForSelector('.lesson-variants .map-vaswani .heatmap-display:not([hidden])', { timeout: 5000 });
  const shown = await shownPixels(page, '.lesson-variants .map-vaswani .heatmap-plot');
  assert.ok(shown.width < d && shown.height < rows, `the card (${shown.width} × ${shown.height}) has fewer pixels than cells`);
  const errors = [];
  for (let y = 2; y < shown.height - 2; y += 5) {
    for (let x = 2; x < shown.width - 2; x += 7) {
      const want = expectedColor('rdbu', boxMean(x, y, shown.width, shown.height, d, rows, d, base));
      const k = 4 * (y * shown.width + x);
      errors.push(Math.max(...[0, 1, 2].map((j) => Math.abs(shown.rgba[k + j] - want[j]))));
    }
  }
  errors.sort((a, b) => a - b);
  const [median, p95] = [errors[Math.floor(errors.length / 2)], errors[Math.floor(errors.length * 0.95)]];
  assert.ok(errors.length > 200, `${errors.length} pixels compared`);
  assert.ok(median <= 6 && p95 <= 30, `screen vs box-filtered float64: median ${median}, 95th percentile ${p95}`);
  assert.deepEqual(page.problems, []);
  await page.close();
});
