// The lesson site in a second engine: Debian's Firefox ESR, headless, driven by
// puppeteer-core over WebDriver BiDi. The first lesson loads under the site's
// CSP with no console error or warning, page error, failed request or CSP
// violation, and shows the values the formula gives (computed here, not read
// from the site's code).
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

test('lesson 1 in Firefox ESR: loads cleanly, table and heatmap show the formula', async () => {
  const page = await firefox.browser.newPage();
  const problems = [];
  page.on('console', (m) => ['error', 'warn'].includes(m.type()) && problems.push(`console ${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  await page.evaluateOnNewDocument(() => {
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
  assert.deepEqual(problems, [], 'no console errors or warnings, page errors, failed requests or CSP violations');
  const line = `site in Firefox ESR ${firefox.version.replace(/^firefox\//, '')}: lesson 1 clean, 4 table cells and 4 heatmap pixels as the formula gives`;
  console.log(line);
  if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `${line}\n`);
  await page.close();
});
