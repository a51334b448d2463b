// The rope lesson (RoPE) review fixes (issue 25), in headless Chromium:
// - the precision table rounds the float32 pipeline's cos to float32, as a
//   float32 pipeline returns it (its error at p = 65,535, j = 0 is not 0);
// - every chart's legend swatch is the line as drawn (colour, dash pattern,
//   width), on the page and in the SVG and PNG exports; the two correctly
//   rounded half-precision lines, which lie on each other, are both visible.
// Expected values are computed here (float64 and Math.fround), not taken from
// the site's code.
// npm test: quick form
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, openPage, settle, numbersIn } from './helpers.mjs';
import { pairAxes } from '../web/multimodal-reference.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const f32 = Math.fround;

test('precision table: the float32 row at p = 65,535, j = 0 is cos rounded to float32, its error that rounding (not 0)', async () => {
  const page = await openPage(browser.context, '#lesson=rope&lang=en');
  await page.click('.precision-jump[data-position="65535"]');
  await settle(page);
  const p = 65535;
  // ω_0 = 1: the float32 angle is p itself, exact; cos p is not a float32 number
  const exact = Math.cos(p);
  const c32 = f32(Math.cos(f32(f32(p) * f32(1))));
  const rounding = Math.abs(c32 - exact);
  assert.ok(rounding > 6e-9, `|fround(cos 65535) − cos 65535| = ${rounding}`);
  const cells = await page.$$eval('.precision-table tr[data-pair="0"][data-pipeline="float32"] td', (tds) => tds.map((td) => td.textContent.trim()));
  const [angle, cos, error] = numbersIn(cells.join(' '));
  assert.equal(angle, p);
  assert.ok(Math.abs(cos - c32) <= 5e-7, `cos ${cos} vs ${c32}`);
  // shown to two significant digits: 6.2e-9
  assert.ok(Math.abs(error - rounding) <= 0.05 * rounding, `error ${cells[2]} vs ${rounding}`);
  assert.deepEqual(page.problems, []);
  await page.close();
});

/** Each chart's lines and legend swatches: colour, dash pattern, computed width. */
function chartsOf(page) {
  return page.$$eval('.lesson-rope figure.chart', (figures) =>
    figures
      .filter((f) => f.querySelector('svg.chart-svg path.chart-line'))
      .map((f) => {
        const look = (el) => ({ stroke: el.getAttribute('stroke'), dash: el.getAttribute('stroke-dasharray') ?? '', width: getComputedStyle(el).strokeWidth });
        return {
          label: f.figureSource?.label ?? f.querySelector('svg').getAttribute('aria-label'),
          lines: [...f.querySelectorAll(':scope > svg.chart-svg > path.chart-line')].map((p) => ({ name: p.dataset.series, ...look(p) })),
          swatches: [...f.querySelectorAll('.chart-legend li')].map((li) => ({ name: li.textContent.trim(), ...look(li.querySelector('line')) })),
        };
      }),
  );
}

test('every chart of the rope lesson: each legend swatch has its line’s colour, dash pattern and width', async () => {
  const page = await openPage(browser.context, '#lesson=rope&lang=en');
  // the config chart is drawn once a config is read
  await page.click('button.config-example[data-model="phi35"]');
  await settle(page);
  const charts = await chartsOf(page);
  assert.ok(charts.length >= 4, `${charts.length} charts`);
  for (const chart of charts) {
    assert.equal(chart.swatches.length, chart.lines.length, chart.label);
    chart.lines.forEach((line, i) => {
      const swatch = chart.swatches[i];
      assert.equal(swatch.name, line.name, chart.label);
      assert.deepEqual({ stroke: swatch.stroke, dash: swatch.dash, width: swatch.width }, { stroke: line.stroke, dash: line.dash, width: line.width }, `${chart.label}: ${line.name}`);
    });
  }
  assert.deepEqual(page.problems, []);
  await page.close();
});

/** Clicks a button that downloads; returns the file's bytes. */
async function download(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return readFileSync(await dl.path());
}

test('half precision: both correctly rounded lines visible; SVG and PNG legends draw the lines’ dash and width', async () => {
  const page = await openPage(browser.context, '#lesson=rope&lang=en&upto=1500');
  const lines = await page.$$eval('.half-chart svg.chart-svg > path.chart-line', (ps) =>
    ps.map((p) => ({ name: p.dataset.series, dash: p.getAttribute('stroke-dasharray') ?? '', width: parseFloat(getComputedStyle(p).strokeWidth), d: p.getAttribute('d') })),
  );
  assert.equal(lines.length, 4);
  const f16 = lines.find((l) => /^float16, sinpe/.test(l.name));
  const bf16 = lines.find((l) => /^bfloat16, sinpe/.test(l.name));
  assert.ok(f16 && bf16, lines.map((l) => l.name).join(' | '));
  // bfloat16's is drawn later, on top: float16's shows only if it is wider, or the top one has gaps
  assert.ok(lines.indexOf(bf16) > lines.indexOf(f16));
  assert.ok(f16.width >= bf16.width + 2, `float16 ${f16.width} px under bfloat16 ${bf16.width} px`);
  assert.ok(bf16.dash !== '', 'the top line is dashed');
  // the PNG and SVG exports
  const svgText = (await download(page, '.half-chart .export-figure-svg')).toString('utf8');
  const png = await download(page, '.half-chart .export-figure-png');
  const exported = await page.evaluate(
    async ({ svgText, b64 }) => {
      const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
      const root = doc.documentElement;
      // a style's stroke-width outranks the attribute (the parsed document computes no style)
      const width = (el) => parseFloat(/stroke-width:\s*([\d.]+)/.exec(el.getAttribute('style') ?? '')?.[1] ?? el.getAttribute('stroke-width') ?? '1');
      const paths = [...root.querySelectorAll('svg > svg path.chart-line')].map((p) => ({ name: p.getAttribute('data-series'), stroke: p.getAttribute('stroke'), dash: p.getAttribute('stroke-dasharray') ?? '', width: width(p) }));
      // the legend: a swatch line, then its name
      const swatches = [...root.children]
        .filter((el) => el.localName === 'line' && el.nextElementSibling?.getAttribute('class') === 'legend-name')
        .map((l) => ({
          name: l.nextElementSibling.textContent,
          stroke: l.getAttribute('stroke'),
          dash: l.getAttribute('stroke-dasharray') ?? '',
          width: width(l),
          x1: Number(l.getAttribute('x1')),
          x2: Number(l.getAttribute('x2')),
          y: Number(l.getAttribute('y1')),
        }));
      const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([raw], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(bitmap, 0, 0);
      const scale = bitmap.width / Number(root.getAttribute('width'));
      // each swatch's pixels along its middle, in the PNG
      for (const s of swatches) {
        const row = ctx.getImageData(Math.round(s.x1 * scale), Math.floor(s.y * scale), Math.round((s.x2 - s.x1) * scale), 1).data;
        s.pixels = [];
        for (let k = 0; k < row.length; k += 4) s.pixels.push([row[k], row[k + 1], row[k + 2]]);
        // how many image pixels tall the swatch is at its middle column
        const column = ctx.getImageData(Math.round(((s.x1 + s.x2) / 2) * scale), Math.floor((s.y - 6) * scale), 1, Math.round(12 * scale)).data;
        s.tall = 0;
        for (let k = 0; k < column.length; k += 4) if (column[k] + column[k + 1] + column[k + 2] < 3 * 235) s.tall++;
      }
      return { paths, swatches, scale };
    },
    { svgText, b64: png.toString('base64') },
  );
  assert.equal(exported.paths.length, 4);
  assert.equal(exported.swatches.length, 4, JSON.stringify(exported.swatches.map((s) => s.name)));
  const hex = (c) => [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16));
  for (const path of exported.paths) {
    const s = exported.swatches.find((w) => w.name === path.name);
    assert.ok(s, path.name);
    assert.deepEqual({ stroke: s.stroke, dash: s.dash, width: s.width }, { stroke: path.stroke, dash: path.dash, width: path.width }, `SVG legend: ${path.name}`);
    // in the PNG: a dashed swatch has paper between its dashes, a solid one none; its height is its width
    const ink = hex(path.stroke);
    const isInk = (px) => px.every((v, k) => Math.abs(v - ink[k]) <= 40);
    const isPaper = (px) => px.every((v) => v >= 235);
    const inner = s.pixels.slice(2, -2);
    const paper = inner.filter(isPaper).length;
    assert.ok(inner.filter(isInk).length > inner.length / 3, `PNG legend ${path.name}: its colour`);
    if (path.dash) assert.ok(paper >= inner.length / 6, `PNG legend ${path.name}: dashed (${paper} of ${inner.length} pixels paper)`);
    else {
      assert.equal(paper, 0, `PNG legend ${path.name}: solid`);
      assert.ok(Math.abs(s.tall - path.width * exported.scale) <= 2, `PNG legend ${path.name}: ${s.tall} image pixels tall for a ${path.width} px line`);
    }
  }
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the base slider’s End key reaches the lesson’s largest base, 10,000,000', async () => {
  const page = await openPage(browser.context, '#lesson=rope&lang=en');
  const slider = page.locator('.lesson-rope input.slider[data-key="base"]').first();
  await slider.focus();
  await page.keyboard.press('End');
  await settle(page);
  assert.equal((await page.evaluate(() => window.sinpeSite.state)).base, 1e7);
  await page.keyboard.press('Home');
  await settle(page);
  assert.equal((await page.evaluate(() => window.sinpeSite.state)).base, 2);
  assert.deepEqual(page.problems, []);
  await page.close();
});

// the mrope_section of each model a strip may name (transformers' configs)
const MODEL_SECTIONS = { 'Qwen3-VL': [24, 20, 20], 'Qwen2-VL, Qwen2.5-VL': [16, 24, 24] };

test('an M-RoPE strip that names a model is drawn with that model’s mrope_section', async () => {
  const page = await openPage(browser.context, '#lesson=rope&lang=en');
  const options = await page.$$eval('select[data-key="msec"] option', (os) => os.map((o) => o.value));
  let named = 0;
  for (const value of [null, ...options]) {
    if (value) {
      await page.selectOption('select[data-key="msec"]', value);
      await settle(page);
    }
    for (const axes of ['sectioned', 'interleaved']) {
      const title = (await page.textContent(`.mrope-strip-${axes} figcaption strong`)).trim();
      // "interleaved (Qwen3-VL)": the strip is that model's
      const model = /\(([^)]*)\)$/.exec(title)?.[1];
      if (!model || !MODEL_SECTIONS[model]) continue;
      named++;
      const shown = await page.$$eval(`.mrope-strip-${axes} li.mrope-pair`, (lis) => lis.map((li) => li.textContent.trim()));
      const want = pairAxes(MODEL_SECTIONS[model], 64, axes).map((a) => 'thw'[a]);
      assert.deepEqual(shown, want, `"${title}" drawn with ${value ?? 'the default section'}`);
    }
  }
  assert.ok(named >= 2, `${named} strips named a model`);
  assert.deepEqual(page.problems, []);
  await page.close();
});
