// The lesson site in a second engine: Debian's Firefox ESR, headless, driven by
// puppeteer-core over WebDriver BiDi. The first lesson loads under the site's
// CSP with no console error or warning, page error, failed request or CSP
// violation, and shows the values the formula gives (computed here, not read
// from the site's code); its heatmap's PNG export (the page's SVG rasterised
// by Firefox through an Image and a canvas) holds those cells too.
// npm test: quick form
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { launchFirefox, expectedColor, canvasPixel, closeColor, siteUrl } from './helpers.mjs';

let firefox;
before(async () => {
  firefox = await launchFirefox();
});
after(async () => {
  await firefox?.close();
});

test('the formula lesson in Firefox ESR: loads cleanly, table and heatmap show the formula', async () => {
  const page = await firefox.browser.newPage();
  const problems = [];
  page.on('console', (m) => ['error', 'warn'].includes(m.type()) && problems.push(`console ${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  await page.evaluateOnNewDocument(() => {
    // keep each download's blob, to read the exported file back
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob) => {
      window.lastBlob = blob;
      return create(blob);
    };
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(`${siteUrl()}#lesson=formula`);
  await page.waitForSelector('html[data-ready="true"]');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  // The 3 × 4 example (d = 4, base 10000): row p is [sin p, cos p, sin(p/100), cos(p/100)].
  const cell = (v) => v.toFixed(4).replace('-', '−');
  const row2 = await page.$$eval('.pe-table tbody tr:nth-child(3) td', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(row2, [Math.sin(2), Math.cos(2), Math.sin(0.02), Math.cos(0.02)].map(cell));
  const canvas = '.lesson-formula .heatmap-canvas';
  for (const [x, y, value] of [
    [0, 0, 0],
    [1, 0, 1],
    [0, 1, Math.sin(1)],
    [2, 2, Math.sin(2 / 100)],
  ]) {
    const actual = await canvasPixel(page, canvas, x, y);
    assert.ok(closeColor(actual, expectedColor('rdbu', value)), `heatmap (${x}, ${y}) should show ${value} as ${expectedColor('rdbu', value)}, got ${actual}`);
  }
  // the PNG export: cells at the plot rectangle it states (sinpe:plot, image pixels), 3 rows × 4 columns
  await page.click('.lesson-formula figure.heatmap .export-figure-png');
  await page.waitForFunction(() => window.lastBlob?.type === 'image/png', { timeout: 20000 });
  const exported = await page.evaluate(async () => {
    const bytes = new Uint8Array(await window.lastBlob.arrayBuffer());
    const text = new TextDecoder('latin1').decode(bytes);
    const plot = text.match(/sinpe:plot\0\0\0\0\0([\d.,]+)/)?.[1].split(',').map(Number);
    const bitmap = await createImageBitmap(window.lastBlob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(bitmap, 0, 0);
    const at = ([c, r]) => Array.from(ctx.getImageData(Math.floor(plot[0] + ((c + 0.5) * plot[2]) / 4), Math.floor(plot[1] + ((r + 0.5) * plot[3]) / 3), 1, 1).data.slice(0, 3));
    return { plot, cells: [[0, 0], [1, 0], [0, 1], [2, 2]].map(at), paper: Array.from(ctx.getImageData(1, 1, 1, 1).data.slice(0, 3)) };
  });
  assert.equal(exported.plot?.length, 4, 'the PNG states its plot rectangle');
  assert.deepEqual(exported.paper, [255, 255, 255]);
  [0, 1, Math.sin(1), Math.sin(2 / 100)].forEach((value, k) => {
    const expected = expectedColor('rdbu', value);
    assert.ok(closeColor(exported.cells[k], expected), `exported cell ${k} should show ${value} as ${expected}, got ${exported.cells[k]}`);
  });
  assert.deepEqual(problems, [], 'no console errors or warnings, page errors, failed requests or CSP violations');
  const line = `site in Firefox ESR ${firefox.version.replace(/^firefox\//, '')}: the formula lesson clean, 4 table cells, 4 heatmap pixels and 4 cells of its PNG export as the formula gives`;
  console.log(line);
  if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `${line}\n`);
  await page.close();
});
