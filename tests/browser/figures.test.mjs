// Figures for teachers: every heatmap and chart of every lesson has SVG and
// PNG figure exports; the PNG is 2 image pixels per CSS pixel with axes,
// colour bar and a caption naming the parameters (also stored in its iTXt
// chunks); file names state the row range truly; the two ready-made views
// reproduce d2l's heatmap and the 20 × 512 concatenated viridis figure.
// Cell colours of the exported images are checked against float64 values
// computed here and the d3 colormaps (helpers.mjs), not the site's code.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage, settle, expectedColor, closeColor } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// every lesson of the registry, in its order
const LESSONS = LESSON_IDS;

/** Clicks a button that downloads; returns { name, bytes }. */
async function download(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
}

/** The chunks of a PNG file: IHDR size, text chunks (iTXt), pHYs. */
function pngChunks(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  const out = { text: {}, width: 0, height: 0, phys: null };
  let at = 8;
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      out.width = data.readUInt32BE(0);
      out.height = data.readUInt32BE(4);
    } else if (type === 'iTXt') {
      const nul = data.indexOf(0);
      const keyword = data.toString('latin1', 0, nul);
      const compressed = data[nul + 1] === 1;
      let rest = nul + 3;
      rest = data.indexOf(0, rest) + 1; // language tag
      rest = data.indexOf(0, rest) + 1; // translated keyword
      const body = data.subarray(rest);
      out.text[keyword] = (compressed ? inflateSync(body) : body).toString('utf8');
    } else if (type === 'pHYs') out.phys = { x: data.readUInt32BE(0), y: data.readUInt32BE(4), unit: data[8] };
    at += 12 + length;
  }
  return out;
}

/** Reads pixels of a PNG (decoded by the browser) at [x, y] points. */
function pngPixels(page, bytes, points) {
  return page.evaluate(
    async ({ b64, points }) => {
      const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([raw], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(bitmap, 0, 0);
      return points.map(([x, y]) => Array.from(ctx.getImageData(Math.floor(x), Math.floor(y), 1, 1).data.slice(0, 3)));
    },
    { b64: bytes.toString('base64'), points },
  );
}

const rect = (text) => text.split(',').map(Number);

// float64 values of the vaswani encoding, computed here
const omega = (i, d, base = 10000) => base ** ((-2 * i) / d);
const concatValue = (p, c, d) => (c < d / 2 ? Math.sin(p * omega(c, d)) : Math.cos(p * omega(c - d / 2, d)));
const interleavedValue = (p, c, d) => (c % 2 === 0 ? Math.sin(p * omega(c >> 1, d)) : Math.cos(p * omega(c >> 1, d)));

// PE[p, 2i] = sin(p·base^(−2i/d)), PE[p, 2i+1] = cos(…) (interleaved), and its mean over the cells
// image pixel (x, y) of a width × height plot covers, fractional cells weighted
const peValue = (p, col, d, base) => (col % 2 === 0 ? Math.sin : Math.cos)(p * Math.pow(base, (-2 * Math.floor(col / 2)) / d));
function boxMean(x, y, width, height, columns, rows, d, base) {
  const [c0, c1] = [(x * columns) / width, ((x + 1) * columns) / width];
  const [r0, r1] = [(y * rows) / height, ((y + 1) * rows) / height];
  let [sum, area] = [0, 0];
  for (let r = Math.floor(r0); r < Math.ceil(r1); r++) {
    const wr = Math.min(r1, r + 1) - Math.max(r0, r);
    for (let c = Math.floor(c0); c < Math.ceil(c1); c++) {
      const w = wr * (Math.min(c1, c + 1) - Math.max(c0, c));
      sum += w * peValue(r, c, d, base);
      area += w;
    }
  }
  return sum / area;
}

describe('figure exports', () => {
  test('every heatmap and chart of every lesson has SVG and PNG figure buttons', async () => {
    const page = await openPage(browser.context, '#lesson=formula');
    for (const lesson of LESSONS) {
      await page.evaluate((id) => {
        location.hash = `#lesson=${id}&lang=en`;
      }, lesson);
      await page.waitForSelector(`article[data-lesson="${lesson}"]`);
      await settle(page);
      const counts = await page.$$eval(`article[data-lesson="${lesson}"] figure.heatmap, article[data-lesson="${lesson}"] figure.chart`, (figures) =>
        figures.filter((f) => !f.closest('[hidden]')).map((f) => [f.querySelectorAll('.export-figure-svg').length, f.querySelectorAll('.export-figure-png').length]),
      );
      assert.ok(counts.length > 0, `${lesson} has figures`);
      for (const [svg, png] of counts) assert.deepEqual([svg, png], [1, 1], `${lesson}: each figure has one SVG and one PNG button`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('ready-made view: 20 × 512, concatenated, viridis, as PNG at 2× with axes, colour bar and caption', async () => {
    const page = await openPage(browser.context, '#lesson=heatmap');
    await page.click('button.ready-seed004');
    await settle(page);
    const state = await page.evaluate(() => window.sinpeSite.state);
    assert.deepEqual([state.d, state.len, state.start, state.layout, state.cmap, state.base], [512, 20, 0, 'concat', 'viridis', 10000]);
    const png = await download(page, '.lesson-heatmap figure.heatmap .export-figure-png');
    // the row range stated truly: rows 0–19 (not "pos0-20")
    assert.match(png.name, /rows0-19/);
    assert.doesNotMatch(png.name, /0-20/);
    assert.match(png.name, /\.png$/);
    const info = pngChunks(png.bytes);
    const caption = info.text.Description;
    for (const part of [/0–19/, /d_model = 512/, /viridis/, /concatenated/, /base = 10000/]) assert.match(caption, part);
    // 2 image pixels per CSS pixel: the plot rectangle is stored in image pixels
    const [px, py, pw, ph] = rect(info.text['sinpe:plot']);
    assert.ok(pw >= 2 * 512 && ph >= 2 * 200, `plot ${pw} × ${ph} image pixels`);
    assert.equal(info.phys.unit, 1);
    assert.equal(info.phys.x, Math.round(192 / 0.0254)); // 2 × 96 dpi
    // cells at known values
    const cells = [
      [0, 0],
      [255, 0],
      [256, 0],
      [511, 0],
      [0, 5],
      [256, 5],
      [40, 12],
      [300, 19],
      [500, 19],
    ];
    const centres = cells.map(([c, r]) => [px + ((c + 0.5) * pw) / 512, py + ((r + 0.5) * ph) / 20]);
    const pixels = await pngPixels(page, png.bytes, centres);
    cells.forEach(([c, r], k) => {
      const expected = expectedColor('viridis', concatValue(r, c, 512));
      assert.ok(closeColor(pixels[k], expected), `cell (${c}, ${r}) = ${concatValue(r, c, 512)} → ${expected}, got ${pixels[k]}`);
    });
    // the page's colour bar component, horizontal: left = −1, right = +1 (viridis purple / yellow)
    const [bx, by, bw, bh] = rect(info.text['sinpe:colorbar']);
    const bar = await pngPixels(page, png.bytes, [
      [bx + 3, by + bh / 2],
      [bx + bw - 3, by + bh / 2],
    ]);
    assert.ok(closeColor(bar[0], expectedColor('viridis', -1), 6), `colour bar left ${bar[0]}`);
    assert.ok(closeColor(bar[1], expectedColor('viridis', 1), 6), `colour bar right ${bar[1]}`);
    // white paper, whatever the page's theme
    const paper = await pngPixels(page, png.bytes, [[2, 2]]);
    assert.deepEqual(paper[0], [255, 255, 255]);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a PNG of fewer pixels than cells (2048 × 4096) shows the box-filtered means, not a moiré', async () => {
    const [d, rows, base] = [2048, 4096, 10000];
    const page = await openPage(browser.context, `#lesson=heatmap&d=${d}&len=${rows}&layout=interleaved&base=${base}&cmap=rdbu`);
    const png = await download(page, '.lesson-heatmap figure.heatmap .export-figure-png');
    const [px, py, pw, ph] = rect(pngChunks(png.bytes).text['sinpe:plot']);
    const [width, height] = [Math.round(pw), Math.round(ph)];
    assert.ok(width < d && height < rows, `the plot (${width} × ${height} image pixels) has fewer pixels than cells`);
    const points = [];
    for (let y = 4; y < height - 4; y += 41) for (let x = 4; x < width - 4; x += 67) points.push([x, y]);
    const got = await pngPixels(page, png.bytes, points.map(([x, y]) => [px + x + 0.5, py + y + 0.5]));
    const errors = points.map(([x, y], k) => {
      const want = expectedColor('rdbu', boxMean(x, y, width, height, d, rows, d, base));
      return Math.max(...got[k].map((c, j) => Math.abs(c - want[j])));
    });
    errors.sort((a, b) => a - b);
    const [median, p95] = [errors[Math.floor(errors.length / 2)], errors[Math.floor(errors.length * 0.95)]];
    assert.ok(errors.length > 300, `${errors.length} pixels compared`);
    assert.ok(median <= 6 && p95 <= 30, `PNG vs box-filtered float64: median ${median}, 95th percentile ${p95} (per-channel error of 0–255)`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the same figure as SVG: axes, tick labels, colour bar, caption, cells', async () => {
    const page = await openPage(browser.context, '#lesson=heatmap&d=512&len=20&layout=concat&cmap=viridis');
    const svg = await download(page, '.lesson-heatmap figure.heatmap .export-figure-svg');
    assert.match(svg.name, /rows0-19-en\.svg$/);
    const screenTicks = await page.$$eval('.lesson-heatmap figure.heatmap .heatmap-axes .tick text', (ts) => ts.map((t) => t.textContent));
    const text = svg.bytes.toString('utf8');
    const parsed = await page.evaluate(async (source) => {
      const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
      const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
      const images = [...doc.querySelectorAll('image')].map((img) => ({ role: img.getAttribute('data-role'), href: img.getAttribute('href') }));
      // decode the embedded cell image
      const cells = images.find((i) => !i.role);
      // a data: URL (fetch would be a connection, which the CSP limits to 'self')
      const raw = Uint8Array.from(atob(cells.href.split(',')[1]), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([raw], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(bitmap, 0, 0);
      const pick = (x, y) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3));
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        texts,
        roles: images.map((i) => i.role),
        size: [bitmap.width, bitmap.height],
        cells: [pick(0, 0), pick(256, 0), pick(3, 7), pick(400, 19)],
        desc: doc.querySelector('desc')?.textContent,
      };
    }, text);
    assert.equal(parsed.error, null);
    assert.deepEqual(parsed.size, [512, 20]); // one image pixel per cell
    assert.ok(parsed.texts.includes('column (encoding dimension)'));
    assert.ok(parsed.texts.includes('position'));
    assert.ok(screenTicks.length > 10, `the page's axes have ticks: ${screenTicks}`);
    for (const tick of [...screenTicks, '0', '500', '1.0', '−1.0']) assert.ok(parsed.texts.includes(tick), `tick ${tick} in ${parsed.texts.join('|')}`);
    assert.ok(parsed.roles.includes('colorbar'));
    assert.match(parsed.desc, /0–19/);
    [
      [0, 0],
      [256, 0],
      [3, 7],
      [400, 19],
    ].forEach(([c, r], k) => assert.ok(closeColor(parsed.cells[k], expectedColor('viridis', concatValue(r, c, 512))), `svg cell (${c}, ${r})`));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test("ready-made view: d2l's heatmap (60 × 32, interleaved, Blues) exports with its cells", async () => {
    const page = await openPage(browser.context, '#lesson=heatmap&lang=zh');
    await page.click('button.ready-d2l');
    await settle(page);
    const state = await page.evaluate(() => window.sinpeSite.state);
    assert.deepEqual([state.d, state.len, state.start, state.layout, state.cmap], [32, 60, 0, 'interleaved', 'blues']);
    const png = await download(page, '.lesson-heatmap figure.heatmap .export-figure-png');
    assert.match(png.name, /rows0-59/);
    const info = pngChunks(png.bytes);
    assert.match(info.text.Description, /0–59/);
    assert.match(info.text.Description, /[\u4e00-\u9fff]/, 'caption in 简体中文');
    const [px, py, pw, ph] = rect(info.text['sinpe:plot']);
    // the plot as the page shows it, at 2 image pixels per CSS pixel
    const shown = await page.$eval('.lesson-heatmap figure.heatmap .heatmap-plot', (p) => [p.clientWidth, p.clientHeight]);
    assert.deepEqual([pw, ph], [2 * shown[0], 2 * shown[1]], 'the plot is the page’s plot at 2×');
    const cells = [
      [0, 0],
      [1, 0],
      [6, 10],
      [7, 10],
      [2, 59],
      [31, 59],
    ];
    const pixels = await pngPixels(page, png.bytes, cells.map(([c, r]) => [px + ((c + 0.5) * pw) / 32, py + ((r + 0.5) * ph) / 60]));
    cells.forEach(([c, r], k) => {
      const expected = expectedColor('blues', interleavedValue(r, c, 32));
      assert.ok(closeColor(pixels[k], expected), `cell (${c}, ${r}) → ${expected}, got ${pixels[k]}`);
    });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a line chart exports with its series, legend and caption; CSV/npy names state rows truly', async () => {
    const page = await openPage(browser.context, '#lesson=waves&d=32&len=60');
    const svg = await download(page, '.lesson-waves figure.chart .export-figure-svg');
    assert.match(svg.name, /\.svg$/);
    const text = svg.bytes.toString('utf8');
    const parsed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
      return { paths: doc.querySelectorAll('path.chart-line').length, texts: [...doc.querySelectorAll('text')].map((t) => t.textContent), desc: doc.querySelector('desc').textContent };
    }, text);
    assert.equal(parsed.paths, 4); // columns 6–9
    for (const c of [6, 7, 8, 9]) assert.ok(parsed.texts.some((t) => t.startsWith(`col ${c}`)), `legend for column ${c}`);
    assert.match(parsed.desc, /d_model = 32/);
    // the heatmap lesson's data exports: rows 5–14 for start 5, 10 rows
    await page.evaluate(() => {
      location.hash = '#lesson=heatmap&d=8&len=10&start=5&lang=en';
    });
    await page.waitForSelector('article[data-lesson="heatmap"]');
    await settle(page);
    const csv = await download(page, '.lesson-heatmap .export-csv');
    assert.match(csv.name, /rows5-14\.csv$/);
    const lines = csv.bytes.toString('utf8').trim().split('\n');
    assert.equal(lines.length, 11);
    assert.equal(lines[1].split(',')[0], '5');
    assert.equal(lines[10].split(',')[0], '14');
    const npy = await download(page, '.lesson-heatmap .export-npy');
    assert.match(npy.name, /rows5-14\.npy$/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
