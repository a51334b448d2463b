// What the lesson views show: readable tables in dark mode, smooth waves, charts
// whose lines can be told apart, code and formulas that fit, shapes that
// match what is drawn, colour bars, colour ranges that use the whole map.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage, canvasPixel, closeColor, expectedColor, hoverCell, numbersIn } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// every lesson of the registry
const LESSONS = LESSON_IDS;

/** WCAG contrast of every table cell's text against the background it sits on. */
function cellContrasts(page, selector) {
  return page.$$eval(selector, (cells) => {
    const parse = (c) => {
      const m = c.match(/[\d.]+/g).map(Number);
      return { rgb: m.slice(0, 3), a: m.length > 3 ? m[3] : 1 };
    };
    const lum = ([r, g, b]) => {
      const f = (v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg.a > 0.5) return bg.rgb;
      }
      return [255, 255, 255];
    };
    return cells
      .filter((c) => c.textContent.trim() !== '')
      .map((c) => {
        const fg = lum(parse(getComputedStyle(c).color).rgb);
        const bg = lum(background(c));
        return { text: c.textContent.trim(), ratio: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05) };
      });
  });
}

test('dark mode: every number in the formula lesson tables reads at 4.5:1 or better', async () => {
  const dark = await launch({ colorScheme: 'dark' });
  try {
    for (const hash of ['#lesson=formula', '#lesson=formula&d=16&len=8']) {
      const page = await openPage(dark.context, hash);
      const cells = await cellContrasts(page, '.lesson-formula table.data td, .lesson-formula table.data th, .lesson-formula table.data caption');
      assert.ok(cells.length > 20);
      const low = cells.filter((c) => c.ratio < 4.5);
      assert.deepEqual(low.slice(0, 5), [], `${hash}: ${low.length} of ${cells.length} cells below 4.5:1`);
      await page.close();
    }
  } finally {
    await dark.close();
  }
  // light mode too, for the coloured PE cells
  const page = await openPage(browser.context, '#lesson=formula&d=16&len=8');
  const light = await cellContrasts(page, '.pe-table td');
  assert.equal(light.length, 8 * 16, 'every cell of the 8 × 16 table');
  const low = light.filter((c) => c.ratio < 4.5);
  assert.deepEqual(low.slice(0, 5), []);
  await page.close();
});

/** The y pixel of the values −1, 0, 1 on a chart's y axis, and a value from a pixel. */
async function yAxis(page, chart) {
  const ticks = await page.locator(chart).evaluate((fig) => {
    const out = {};
    for (const tick of fig.querySelectorAll('g.axis.y .tick')) out[tick.textContent.replace('−', '-')] = Number(tick.getAttribute('transform').match(/,([-\d.]+)/)[1]);
    return out;
  });
  const keys = Object.keys(ticks).map(Number).filter(Number.isFinite).sort((a, b) => a - b);
  const [lo, hi] = [keys[0], keys.at(-1)];
  const [ylo, yhi] = [ticks[Object.keys(ticks).find((k) => Number(k) === lo)], ticks[Object.keys(ticks).find((k) => Number(k) === hi)]];
  return (y) => lo + ((y - ylo) / (yhi - ylo)) * (hi - lo);
}

/** The vertices [x, y] of a chart path. */
const vertices = (page, selector) =>
  page.$eval(selector, (p) => [...p.getAttribute('d').matchAll(/[ML]([-\d.e]+),([-\d.e]+)/g)].map((m) => [Number(m[1]), Number(m[2])]));

test('binary lesson: the encoding columns are smooth curves, and 8 bits do not fill the chart solid', async () => {
  const page = await openPage(browser.context, '#lesson=binary&bits=8');
  const chart = '.lesson-binary figure.chart';
  const xTicks = await page.$$eval(`${chart} g.axis.x .tick text`, (ts) => ts.map((t) => Number(t.textContent.replace(/,/g, ''))));
  assert.ok(Math.max(...xTicks) <= 32, `the chart shows a window of positions, not all 256 (ticks ${xTicks})`);
  const path = `${chart} path.chart-line[data-series="PE column 0"]`;
  const pts = await vertices(page, path);
  const xs = await page.$$eval(`${chart} g.axis.x .tick`, (ts) => ts.map((t) => [Number(t.textContent.replace(/,/g, '')), Number(t.getAttribute('transform').match(/\(([-\d.]+)/)[1])]));
  const [[x0, px0], [x1, px1]] = [xs[0], xs.at(-1)];
  const toX = (px) => x0 + ((px - px0) / (px1 - px0)) * (x1 - x0);
  const span = toX(pts.at(-1)[0]) - toX(pts[0][0]);
  assert.ok(pts.length >= 8 * span, `${pts.length} points over ${span} positions: smooth, not a polyline through integers`);
  // the curve between integers is sin itself: at position 0.5 it is sin(0.5), not the chord's sin(1)/2
  const toValue = await yAxis(page, chart);
  const half = pts.reduce((best, p) => (Math.abs(toX(p[0]) - 0.5) < Math.abs(toX(best[0]) - 0.5) ? p : best));
  assert.ok(Math.abs(toX(half[0]) - 0.5) < 0.07);
  assert.ok(Math.abs(toValue(half[1]) - Math.sin(toX(half[0]))) < 0.03, `value at ${toX(half[0])}: ${toValue(half[1])}`);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('variants: frequency lines that coincide are drawn once and named together; MAE per axis; differences visible', async () => {
  const page = await openPage(browser.context, '#lesson=variants');
  const charts = page.locator('.lesson-variants figure.chart');
  assert.ok((await charts.count()) >= 2, 'a second chart shows the differences');
  const first = charts.nth(0);
  const ds = await first.locator('path.chart-line').evaluateAll((ps) => ps.map((p) => p.getAttribute('d')));
  assert.equal(new Set(ds).size, ds.length, 'no line hides another');
  const legend = await first.locator('.chart-legend li').allTextContents();
  assert.ok(legend.some((l) => /vaswani/.test(l) && /keras/.test(l) && /guided-diffusion/.test(l)), `vaswani, keras and guided-diffusion share one line at d = 64: ${legend}`);
  assert.ok(legend.some((l) => /fairseq/.test(l) && /whisper/.test(l) && /tensor2tensor/.test(l)), `fairseq, whisper, tensor2tensor share one: ${legend}`);
  // MAE: d/4 = 16 frequencies per axis, drawn as such
  const mae = await first.locator('circle.chart-dot[data-series*="mae"]').count();
  assert.equal(mae, 16);
  // the second chart: each preset's ω_i over vaswani's; fairseq's last is 10000^(−2/64) = 0.7499 of vaswani's
  const second = '.lesson-variants figure.chart >> nth=1';
  const toValue = await yAxis(page, second);
  const fair = await page.locator(second).locator('path.chart-line[data-series*="fairseq"]').evaluate((p) => [...p.getAttribute('d').matchAll(/[ML]([-\d.e]+),([-\d.e]+)/g)].map((m) => Number(m[2])));
  assert.ok(Math.abs(toValue(fair.at(-1)) - 10000 ** (-2 / 64)) < 0.01, `last ratio ${toValue(fair.at(-1))}`);
  assert.ok(Math.abs(toValue(fair[0]) - 1) < 0.01);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('no code block is cut off at 1280 px', async () => {
  let blocks = 0;
  for (const lesson of LESSONS) {
    const page = await openPage(browser.context, `#lesson=${lesson}`);
    const cut = await page.$$eval('main pre', (ps) => ps.filter((p) => p.scrollWidth > p.clientWidth + 1).map((p) => p.textContent.slice(0, 60)));
    assert.deepEqual(cut, [], `${lesson}: code wider than its box`);
    blocks += await page.$$eval('main pre', (ps) => ps.filter((p) => p.checkVisibility()).length);
    await page.close();
  }
  assert.ok(blocks > 0, `${blocks} code blocks measured in ${LESSONS.length} lessons`);
});

test('phone: the formula lesson’s formula shows whole (sin and cos)', async () => {
  const phone = await launch({ viewport: { width: 360, height: 740 } });
  try {
    const page = await openPage(phone.context, '#lesson=formula');
    const main = await page.$eval('.lesson-formula .math-display', (m) => ({ scroll: m.scrollWidth, client: m.clientWidth, text: m.textContent }));
    assert.match(main.text, /sin/);
    assert.match(main.text, /cos/);
    assert.ok(main.scroll <= main.client + 1, `formula ${main.scroll}px wide in ${main.client}px`);
    await page.close();
  } finally {
    await phone.close();
  }
});

test('embeddings with max_len shorter than the tokens: the shapes and P show max_len rows, no sum is drawn', async () => {
  const page = await openPage(browser.context, '#lesson=embeddings&len=3');
  assert.deepEqual(await page.$eval('.map-p .heatmap-canvas', (c) => [c.width, c.height]), [16, 3]);
  const shapes = await page.$eval('.shapes annotation', (a) => a.textContent.replace(/\s+/g, ' '));
  assert.match(shapes, /P\\in\\mathbb\{R\}\^\{1\\times 3\\times 16\}/);
  assert.match(shapes, /P\[:, :6, :\]\\in\\mathbb\{R\}\^\{1\\times 3\\times 16\}/, shapes);
  assert.doesNotMatch(shapes, /1\\times 6\\times 16\}, ?\\quad X \+ P/);
  assert.equal(await page.isVisible('.map-sum .heatmap-canvas'), false);
  assert.match(await page.textContent('.lesson-embeddings .note.fail'), /max_len = 3/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the formula lesson has a colour bar; table captions stay on one line', async () => {
  const page = await openPage(browser.context, '#lesson=formula');
  const bar = '.lesson-formula .colorbar-canvas';
  assert.ok(closeColor(await canvasPixel(page, bar, 0, 0), expectedColor('rdbu', -1)));
  assert.ok(closeColor(await canvasPixel(page, bar, 255, 0), expectedColor('rdbu', 1)));
  const captions = await page.$$eval('.lesson-formula table caption', (cs) => cs.map((c) => ({ text: c.textContent, lines: Math.round(c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight)) })));
  assert.ok(captions.length >= 4);
  for (const c of captions) assert.equal(c.lines, 1, `caption "${c.text}" on ${c.lines} lines`);
  await page.close();
});

test('the relative lesson: the dot-product map uses its whole colour scale, from the smallest to the largest value', async () => {
  const page = await openPage(browser.context, '#lesson=relative&d=16&len=32');
  const d = 16;
  const len = 32;
  const dot = (k) => {
    let s = 0;
    for (let i = 0; i < d / 2; i++) s += Math.cos(k * 10000 ** ((-2 * i) / d));
    return s / (d / 2);
  };
  const values = Array.from({ length: len }, (_, k) => dot(k));
  const min = Math.min(...values);
  const kMin = values.indexOf(min);
  const cmap = (await page.evaluate(() => window.sinpeSite.state)).cmap;
  const canvas = '.lesson-relative .heatmap-canvas';
  assert.ok(closeColor(await canvasPixel(page, canvas, 4, 4), expectedColor(cmap, 1, min, 1)), 'the diagonal (1) is the top of the scale');
  assert.ok(closeColor(await canvasPixel(page, canvas, kMin, 0), expectedColor(cmap, min, min, 1)), `offset ${kMin} (${min.toFixed(3)}) is the bottom of the scale`);
  assert.ok(closeColor(await canvasPixel(page, canvas, 10, 0), expectedColor(cmap, values[10], min, 1)));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the pitfalls lesson: the column the text calls identical reads a difference of exactly 0', async () => {
  const page = await openPage(browser.context, '#lesson=pitfalls');
  await hoverCell(page, '.map-buggy .heatmap-canvas', 0, 5);
  const n = numbersIn(await page.textContent('.pitfalls-readout'));
  assert.equal(n[0], 5);
  assert.equal(n[1], 0);
  assert.equal(n.at(-1), 0, `difference in column 0: ${n}`);
  assert.doesNotMatch(await page.textContent('.pitfalls-readout'), /e−\d/);
  assert.ok(closeColor(await canvasPixel(page, '.map-difference .heatmap-canvas', 0, 7), expectedColor('rdbu', 0)));
  await page.close();
});

test('the variants lesson: the snippet defines every name it uses', async () => {
  const page = await openPage(browser.context, '#lesson=variants');
  const code = (await page.textContent('code.snippet')).replace(/\/\/.*$/gm, '');
  assert.doesNotMatch(code, /\bctx\b/);
  for (const name of ['colormap', 'canvas']) {
    const defined = code.search(new RegExp(`const ${name}\\b`));
    assert.ok(defined >= 0 && defined <= code.search(new RegExp(`\\b${name}\\b`)), `${name} defined before use`);
  }
  await page.close();
});
