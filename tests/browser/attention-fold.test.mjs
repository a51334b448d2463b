// The attention lesson's folded W_q, W_k, W_v: written while the fold is open
// only, so a step of d_model or the seed with the fold closed must still show
// the state's matrices when it is opened (a click on its summary). Cells are
// checked against the seeded matrices of tests/web/attention-reference.mjs
// (written from the documented seeds, not from the site's code).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { matrices } from '../web/attention-reference.mjs';
import { launch, openPage, settle } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The largest difference between a W table's cells (data-value) and the reference rows; its cell count must be d². */
async function wGap(page, key, want) {
  const flat = await page.$$eval(`table.matrix-${key} td.cell`, (tds) => tds.map((td) => [Number(td.dataset.row), Number(td.dataset.col), Number(td.dataset.value)]));
  assert.equal(flat.length, want.length * want.length, `${key}: ${want.length}² cells`);
  let gap = 0;
  for (const [r, c, v] of flat) gap = Math.max(gap, Math.abs(v - want[r][c]));
  assert.ok(Number.isFinite(gap), `${key}: finite values`);
  return gap;
}

async function step(page, key, arrow) {
  const before = await page.evaluate(() => window.sinpeSite.state);
  await page.focus(`.lesson-controls input.slider[data-key="${key}"]`);
  await page.keyboard.press(arrow);
  await page.waitForFunction(([k, v]) => window.sinpeSite.state[k] !== v, [key, before[key]]);
  await settle(page);
}

test('W_q, W_k, W_v opened after steps taken while folded show the state\'s seeded matrices', async () => {
  const page = await openPage(browser.context, '#lesson=attention&lang=en&d=10&seed=7');
  await settle(page);
  assert.equal(await page.$eval('details.attention-w', (d) => d.open), false, 'the fold starts closed');
  // steps with the fold closed
  await step(page, 'd', 'ArrowRight');
  await step(page, 'seed', 'ArrowRight');
  const s1 = await page.evaluate(() => window.sinpeSite.state);
  assert.ok(s1.d !== 10 && s1.seed !== 7, `the steps changed d and the seed: ${s1.d}, ${s1.seed}`);
  await page.click('details.attention-w > summary');
  await page.waitForFunction(() => document.querySelector('details.attention-w').open);
  const want1 = matrices(s1.d, s1.seed);
  for (const key of ['wq', 'wk', 'wv']) assert.ok((await wGap(page, key, want1[key])) < 1e-12, `${key} at d ${s1.d}, seed ${s1.seed}`);
  // open: a step rewrites them at once
  await step(page, 'seed', 'ArrowRight');
  const s2 = await page.evaluate(() => window.sinpeSite.state);
  const want2 = matrices(s2.d, s2.seed);
  for (const key of ['wq', 'wk', 'wv']) assert.ok((await wGap(page, key, want2[key])) < 1e-12, `${key} open, seed ${s2.seed}`);
  // folded again, a step, then opened by the keyboard (Enter on the summary)
  await page.click('details.attention-w > summary');
  await step(page, 'd', 'ArrowLeft');
  const s3 = await page.evaluate(() => window.sinpeSite.state);
  await page.focus('details.attention-w > summary');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('details.attention-w').open);
  const want3 = matrices(s3.d, s3.seed);
  for (const key of ['wq', 'wk', 'wv']) assert.ok((await wGap(page, key, want3[key])) < 1e-12, `${key} reopened, d ${s3.d}`);
  assert.deepEqual(page.problems, []);
  await page.close();
});
