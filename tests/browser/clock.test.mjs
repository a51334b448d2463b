// The clock picture (the waves lesson): every sin/cos pair of row p as a hand at
// angle p·ω_i beside the row as a coloured strip. The hands are read from the
// drawn SVG geometry and checked against angles computed here in float64
// (ω_i = base^(−2i/d) with the lesson's d and base from the URL); strip
// pixels against float64 sin/cos and the d3 colormap (helpers.mjs); both
// languages; no console error under the strict CSP.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle, hashSettled, expectedColor, canvasPixel, closeColor, screenshot, numbersIn, assertLanguage, drawnDials, angleOff } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const omega = (i, d, base = 10000) => base ** ((-2 * i) / d);

/** The dials as drawn, with the colours of their two cell swatches. */
async function dials(page) {
  const drawn = await drawnDials(page, '.clock-dials');
  const swatches = await page.$$eval('.clock-dials .dial', (list) => list.map((d) => [...d.querySelectorAll('.dial-swatch')].map((s) => getComputedStyle(s).backgroundColor)));
  return drawn.map((d, k) => ({ ...d, swatches: swatches[k] }));
}

/** Asserts that a drawn hand goes from the dial's centre to the unit circle at `angle` (counter-clockwise from 3 o'clock). */
function assertHand(hand, angle, what) {
  assert.ok(Math.hypot(...hand.from) < 1e-6, `${what}: the hand starts at the centre (${hand.from})`);
  assert.ok(Math.abs(Math.hypot(...hand.to) - 1) < 1e-5, `${what}: the hand reaches the rim (${Math.hypot(...hand.to)})`);
  const off = angleOff(hand.to, angle);
  assert.ok(Math.abs(off) < 1e-5, `${what}: drawn at ${Math.atan2(hand.to[1], hand.to[0])} rad, expected ${angle} (mod 2π), off by ${off}`);
}

const rgb = (css) => css.match(/\d+/g).slice(0, 3).map(Number);

describe('the clock picture (the waves lesson)', () => {
  test('hands at p·ω_i and the row strip, stepping the position', async () => {
    const page = await openPage(browser.context, '#lesson=waves&d=32&pos=5');
    assertLanguage(await page.textContent('.clock-section h2'), 'en', 'section title');
    let list = await dials(page);
    assert.deepEqual(
      list.map((d) => d.key),
      Array.from({ length: 16 }, (_, i) => i),
      'd = 32: all 16 pairs',
    );
    for (const { key: i, hand, trail, swatches } of list) {
      const angle = 5 * omega(i, 32);
      assertHand(hand, angle, `pair ${i}`);
      // the trail: the tip at positions 4, 3, 2, 1
      assert.equal(trail.length, 4, 'the hand at the four previous positions');
      trail.forEach((dot, k) => {
        assert.ok(Math.abs(Math.hypot(...dot) - 1) < 1e-5 && Math.abs(angleOff(dot, (4 - k) * omega(i, 32))) < 1e-5, `pair ${i}: trail dot ${k} at ${dot}`);
      });
      assert.ok(closeColor(rgb(swatches[0]), expectedColor('rdbu', Math.sin(angle))), `sin swatch of pair ${i}`);
      assert.ok(closeColor(rgb(swatches[1]), expectedColor('rdbu', Math.cos(angle))), `cos swatch of pair ${i}`);
    }
    // the strip: one pixel per column, row 5 of the interleaved table; its caption names the row and the last column as numbers
    assert.deepEqual(await page.$eval('.row-strip-canvas', (c) => [c.width, c.height]), [32, 1]);
    assert.match(await page.textContent('.clock-strip-caption'), /^Row 5, columns 0 to 31 \(/);
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
    for (const { key: i, hand, trail } of list) {
      assertHand(hand, 6 * omega(i, 32), `position 6, pair ${i}`);
      // the trail moved with it (its dots are kept from the step before and moved): positions 5, 4, 3, 2
      assert.equal(trail.length, 4, `position 6, pair ${i}: four trail dots`);
      trail.forEach((dot, k) => assert.ok(Math.abs(angleOff(dot, (5 - k) * omega(i, 32))) < 1e-5, `position 6, pair ${i}: trail dot ${k} at ${dot}`));
    }
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
    assert.equal(list.length, 16);
    for (const { key: i, hand, trail } of list) {
      assertHand(hand, 0, `position 0, pair ${i}`);
      assert.equal(trail.length, 0, `position 0, pair ${i}: no trail`);
    }
    assert.deepEqual(page.problems, []);
    await screenshot(page, 'waves-clock-en');
    await page.close();
  });

  test('wide rows: 16 dials spread from the fastest to the slowest pair; 简体中文; another base', async () => {
    const page = await openPage(browser.context, '#lesson=waves&d=128&pos=100&base=500&lang=zh');
    assertLanguage(await page.textContent('.clock-section h2'), 'zh', 'section title');
    assert.match(await page.textContent('.clock-strip-caption'), /^第 100 行，第 0 到 127 列/);
    const list = await dials(page);
    assert.equal(list.length, 16);
    assert.equal(list[0].key, 0);
    assert.equal(list.at(-1).key, 63);
    // the 16 pairs shown: spread from 0 to 63, each drawn at 100·500^(−2i/128)
    const keys = list.map((d) => d.key);
    assert.deepEqual(keys, [...keys].sort((x, y) => x - y), 'pairs in order');
    assert.equal(new Set(keys).size, 16);
    for (const { key: i, hand } of list) assertHand(hand, 100 * omega(i, 128, 500), `pair ${i}`);
    assert.match(await page.textContent('.clock-shown'), /16/);
    assert.match(await page.textContent('.clock-readout'), /位置 100/);
    assert.deepEqual(await page.$eval('.row-strip-canvas', (c) => [c.width, c.height]), [128, 1]);
    await screenshot(page, 'waves-clock-zh');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
