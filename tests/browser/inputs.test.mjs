// Typed values: a tolerance is read as typed, d_model takes every value the
// package accepts for the lesson (and says which rule refused the others),
// number boxes show their whole value, and a number outside an embedding
// cell's range never becomes some other edit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle, hashSettled, canvasPixel, closeColor, expectedColor, numbersIn } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const siteState = (page) => page.evaluate(() => window.sinpeSite.state);

async function typeInto(page, selector, text) {
  await page.fill(selector, text);
  await page.press(selector, 'Enter');
  await settle(page);
}

test('a tolerance typed as 0.001 is 0.001: box, summary, code and failing cells agree', async () => {
  const page = await openPage(browser.context, '#lesson=pitfalls&start=1048576');
  const box = '.lesson-pitfalls input.number[data-key="tol"]';
  await typeInto(page, box, '1');
  const loose = numbersIn(await page.textContent('.tolerance-summary'));
  await typeInto(page, box, '0.001');
  assert.equal(await page.inputValue(box), '0.001');
  assert.equal((await siteState(page)).tol, 0.001);
  assert.equal(await page.textContent('#messages'), '', 'no "changed to" message');
  const summary = await page.textContent('.tolerance-summary');
  assert.match(summary, /tolerance 0\.001:/);
  assert.match(await page.textContent('.lesson-pitfalls code.tolerance-code'), /tolerance = 0\.001\b/);
  const [, , , failed, total, worst] = numbersIn(summary);
  assert.equal(total, 128);
  assert.ok(worst > 0.001, `the largest difference ${worst} exceeds 0.001 here`);
  assert.ok(failed > 0, `cells fail a 0.001 tolerance at position 2^20 (got ${failed})`);
  assert.ok(failed > loose[3], 'a tighter tolerance fails more cells than tolerance 1');
  // the drawn verdicts agree with the count: False is the −1 end of the colormap
  const falseCells = await page.evaluate(() => {
    const canvas = document.querySelector('.map-tolerance .heatmap-canvas');
    const scratch = document.createElement('canvas');
    scratch.width = canvas.width;
    scratch.height = canvas.height;
    const ctx = scratch.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const out = [];
    for (let i = 0; i < data.length; i += 4) out.push([data[i], data[i + 1], data[i + 2]]);
    return out;
  });
  const falseColor = expectedColor('rdbu', -1);
  assert.equal(falseCells.filter((c) => closeColor(c, falseColor)).length, failed);
  // 0.001 is the lesson's default (not written to the URL); another tolerance is, as typed
  await typeInto(page, box, '0.0001');
  assert.equal(await page.inputValue(box), '0.0001');
  assert.match(await page.textContent('.lesson-pitfalls code.tolerance-code'), /tolerance = 0\.0001\b/);
  assert.match(await hashSettled(page), /tol=0\.0001(&|$)/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('d_model takes any even value in the vaswani lessons, and an odd one is refused with the package’s reason', async () => {
  const page = await openPage(browser.context, '#lesson=formula');
  const box = '.lesson-formula input.number[data-key="d"]';
  await typeInto(page, box, '6');
  assert.equal(await page.inputValue(box), '6');
  assert.equal(await page.textContent('#messages'), '');
  assert.equal(await page.$$eval('.pe-table tbody tr:first-child td', (tds) => tds.length), 6);
  assert.deepEqual(await page.$eval('.lesson-formula .heatmap-canvas', (c) => [c.width, c.height]), [6, 3]);
  // PE(1, 4) = sin(1 / 10000^(4/6)) at d = 6
  assert.equal(await page.textContent('.pe-table td[data-row="1"][data-col="4"]'), Math.sin(1 / 10000 ** (4 / 6)).toFixed(4));
  await typeInto(page, box, '7');
  const message = await page.textContent('#messages');
  assert.match(message, /d_model = 7/);
  assert.match(message, /even/, 'the message names the rule');
  assert.match(message, /vaswani/, 'and the preset it belongs to');
  const d = (await siteState(page)).d;
  assert.ok(d === 6 || d === 8, `an even neighbour is used (${d})`);
  assert.match(message, new RegExp(`changed to ${d}`, 'i'));
  assert.equal(await page.inputValue(box), String(d), 'the box shows the value the figures use');
  assert.equal(await page.$$eval('.pe-table tbody tr:first-child td', (tds) => tds.length), d);
  // the rule and its reason are taught
  const text = await page.textContent('.lesson-formula');
  assert.match(text, /d_model must be even/);
  assert.match(text, /d_model % 2/);
  // the heatmap lesson takes d = 6 too (no multiple-of-4 grid)
  const heat = await openPage(browser.context, '#lesson=heatmap&d=6');
  assert.equal((await siteState(heat)).d, 6);
  assert.deepEqual(await heat.$eval('.lesson-heatmap .heatmap-canvas', (c) => c.width), 6);
  assert.equal(await heat.textContent('#messages'), '');
  await heat.close();
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the variants lesson: an odd d_model for the presets that allow it, the others say why not', async () => {
  const page = await openPage(browser.context, '#lesson=variants&len=8');
  await page.click('.preset-keras button.preset-select');
  await settle(page);
  await typeInto(page, '.lesson-variants input.number[data-key="d"]', '7');
  assert.equal((await siteState(page)).d, 7);
  assert.equal(await page.inputValue('.lesson-variants input.number[data-key="d"]'), '7');
  assert.equal(await page.textContent('#messages'), '');
  const card = (preset) => `.preset-${preset} .heatmap-canvas`;
  // keras: per column j the rate (1/base)^(2⌊j/2⌋/d); with odd d the last column is a sine
  // (while sizes change the canvas keeps its larger backing store; it is trimmed to the frame after 250 ms)
  await page.waitForFunction(() => [...document.querySelectorAll('.preset-card .heatmap-canvas')].every((c) => c.closest('figure').hidden || c.width === 7));
  assert.equal(await page.$eval(card('keras'), (c) => c.width), 7);
  const keras6 = Math.sin(2 * 10000 ** (-6 / 7));
  const px = await canvasPixel(page, card('keras'), 6, 2);
  assert.ok(closeColor(px, expectedColor('rdbu', keras6)), `keras (2, 6) = sin(2·10000^(−6/7)): ${px}`);
  // tensor2tensor, fairseq, diffusers and guided-diffusion add a zero column
  for (const preset of ['tensor2tensor', 'fairseq', 'diffusers', 'guided-diffusion']) {
    assert.equal(await page.$eval(card(preset), (c) => c.width), 7, preset);
    for (const row of [1, 5]) {
      const z = await canvasPixel(page, card(preset), 6, row);
      assert.ok(closeColor(z, expectedColor('rdbu', 0)), `${preset}: column 6 is zero (row ${row}): ${z}`);
    }
  }
  // vaswani, whisper and mae refuse it, in the package's words
  for (const preset of ['vaswani', 'whisper', 'mae']) {
    const note = await page.textContent(`.preset-${preset} .card-refusal`);
    assert.match(note, /d_model = 7/, preset);
    assert.match(note, /even|multiple of 4/, `${preset}: ${note}`);
    assert.equal(await page.isVisible(card(preset)), false, `${preset}: no picture of a table it cannot make`);
  }
  // choosing vaswani now moves d to an even value, with the rule in the message
  await page.click('.preset-vaswani button.preset-select');
  await settle(page);
  const s = await siteState(page);
  assert.equal(s.d % 2, 0);
  assert.match(await page.textContent('#messages'), /even/);
  // mae needs a multiple of 4: d = 6 is moved, with its rule
  await page.click('.preset-mae button.preset-select');
  await settle(page);
  await typeInto(page, '.lesson-variants input.number[data-key="d"]', '6');
  assert.equal((await siteState(page)).d % 4, 0);
  assert.match(await page.textContent('#messages'), /multiple of 4/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('number boxes show their whole value (start position 10,000,000)', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap');
  await page.click('.lesson-heatmap .button-row button:has-text("10,000,000")');
  await settle(page);
  const box = '.lesson-heatmap input.number[data-key="start"]';
  assert.equal(await page.inputValue(box), '10000000');
  const fit = await page.$eval(box, (input) => {
    const style = getComputedStyle(input);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = ctx.measureText(input.value).width;
    const inner = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text, inner };
  });
  // room for the text and the spin buttons Chromium draws on hover (≈ 15 px)
  assert.ok(fit.text + 15 <= fit.inner, `text ${fit.text}px in a ${fit.inner}px box`);
  await page.close();
});

test('an embedding cell: "-1e9" is refused as a whole, not kept as the edit −1 typed on the way', async () => {
  const page = await openPage(browser.context, '#lesson=embeddings&dropout=0');
  const cell = '.edit-table input.cell-input[data-row="0"][data-col="0"]';
  const before = await page.inputValue(cell);
  await page.focus(cell);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('-1e9');
  await page.keyboard.press('Tab');
  await settle(page);
  assert.equal((await siteState(page)).edit, '', 'no edit kept');
  assert.equal(await page.inputValue(cell), before, 'the cell shows its value again');
  assert.match(await page.textContent('.edit-status'), /“-1e9” is not a number from −4 to 4/);
  // an edit made before stays when a later attempt is refused
  await page.focus(cell);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await page.keyboard.press('Tab');
  await settle(page);
  assert.equal((await siteState(page)).edit, '0.0_2');
  await page.focus(cell);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('-1e9');
  await page.keyboard.press('Tab');
  await settle(page);
  assert.equal((await siteState(page)).edit, '0.0_2');
  assert.equal(await page.inputValue(cell), '2');
  assert.deepEqual(page.problems, []);
  await page.close();
});
