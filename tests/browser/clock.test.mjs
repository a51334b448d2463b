// The clock picture (lesson 3): every sin/cos pair of row p as a hand at
// angle p·ω_i beside the row as a coloured strip. Hands and strip pixels are
// checked against float64 sin/cos computed here and the d3 colormap
// (helpers.mjs); both languages; no console error under the strict CSP.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { launch, openPage, settle, hashSettled, expectedColor, canvasPixel, closeColor, screenshot, numbersIn } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const omega = (i, d, base = 10000) => base ** ((-2 * i) / d);

async function dials(page) {
  return page.$$eval('.clock-dials .dial', (list) =>
    list.map((d) => {
      const hand = d.querySelector('.dial-hand');
      const swatches = [...d.querySelectorAll('.dial-swatch')].map((s) => getComputedStyle(s).backgroundColor);
      return { key: Number(d.dataset.key), a: Number(hand.dataset.a), b: Number(hand.dataset.b), trail: d.querySelectorAll('.dial-trail circle').length, swatches };
    }),
  );
}

const rgb = (css) => css.match(/\d+/g).slice(0, 3).map(Number);

describe('the clock picture (lesson 3)', () => {
  test('hands at p·ω_i and the row strip, stepping the position', async () => {
    const page = await openPage(browser.context, '#lesson=waves&d=32&pos=5');
    assert.equal(await page.textContent('.clock-section h2'), en.clock.title);
    let list = await dials(page);
    assert.deepEqual(
      list.map((d) => d.key),
      Array.from({ length: 16 }, (_, i) => i),
      'd = 32: all 16 pairs',
    );
    for (const { key: i, a, b, trail, swatches } of list) {
      const angle = 5 * omega(i, 32);
      assert.ok(Math.abs(a - Math.cos(angle)) < 1e-6 && Math.abs(b - Math.sin(angle)) < 1e-6, `pair ${i}: (${a}, ${b})`);
      assert.equal(trail, 4, 'the hand at the four previous positions');
      assert.ok(closeColor(rgb(swatches[0]), expectedColor('rdbu', Math.sin(angle))), `sin swatch of pair ${i}`);
      assert.ok(closeColor(rgb(swatches[1]), expectedColor('rdbu', Math.cos(angle))), `cos swatch of pair ${i}`);
    }
    // the strip: one pixel per column, row 5 of the interleaved table
    assert.deepEqual(await page.$eval('.row-strip-canvas', (c) => [c.width, c.height]), [32, 1]);
    for (const c of [0, 1, 2, 3, 14, 15, 30, 31]) {
      const i = c >> 1;
      const v = c % 2 === 0 ? Math.sin(5 * omega(i, 32)) : Math.cos(5 * omega(i, 32));
      const actual = await canvasPixel(page, '.row-strip-canvas', c, 0);
      assert.ok(closeColor(actual, expectedColor('rdbu', v)), `strip column ${c}: ${actual}`);
    }
    // one step forward: pair 0 now at 6 rad, the readout says so in degrees
    await page.click('button.clock-forward');
    await settle(page);
    list = await dials(page);
    assert.ok(Math.abs(list[0].a - Math.cos(6)) < 1e-6 && Math.abs(list[0].b - Math.sin(6)) < 1e-6);
    // "Position 6: the hand of pair 0 points at 343.8°, …"
    const numbers = numbersIn(await page.textContent('.clock-readout'));
    assert.equal(numbers[0], 6);
    assert.ok(Math.abs(numbers[2] - (6 * 180) / Math.PI) < 0.06, `${numbers}`);
    assert.match(await hashSettled(page), /pos=6/);
    // at position 0 every hand points at 3 o'clock and there is no trail
    await page.fill('.clock-section input.number[data-key="pos"]', '0');
    await page.press('.clock-section input.number[data-key="pos"]', 'Enter');
    await settle(page);
    list = await dials(page);
    assert.ok(list.every((d) => d.a === 1 && d.b === 0 && d.trail === 0));
    assert.deepEqual(page.problems, []);
    await screenshot(page, 'waves-clock-en');
    await page.close();
  });

  test('wide rows: 16 dials spread from the fastest to the slowest pair; 简体中文', async () => {
    const page = await openPage(browser.context, '#lesson=waves&d=128&pos=100&lang=zh');
    assert.equal(await page.textContent('.clock-section h2'), zh.clock.title);
    const list = await dials(page);
    assert.equal(list.length, 16);
    assert.equal(list[0].key, 0);
    assert.equal(list.at(-1).key, 63);
    for (const { key: i, a, b } of list) {
      const angle = 100 * omega(i, 128);
      assert.ok(Math.abs(a - Math.cos(angle)) < 1e-6 && Math.abs(b - Math.sin(angle)) < 1e-6, `pair ${i}`);
    }
    assert.match(await page.textContent('.clock-shown'), /16/);
    assert.match(await page.textContent('.clock-readout'), /位置 100/);
    assert.deepEqual(await page.$eval('.row-strip-canvas', (c) => [c.width, c.height]), [128, 1]);
    await screenshot(page, 'waves-clock-zh');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
