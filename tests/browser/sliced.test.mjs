// The rope lesson's figures computed across frames (web/src/lib/sliced.js): the
// half-precision section keeps its errors per base and computes only the
// positions a step adds, in slices; the precision chart an octave a slice.
// After a fast sequence of changes (one frame apart, each dropping the
// unfinished work of the one before), what the page shows must be what the
// final state gives: the half-precision worst cases recomputed here in
// float64 from transformers' rules (tests/web/multimodal-reference.mjs), the
// precision summary equal to the one a fresh page shows for the final base.
// npm test: quick form
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ulp, usualValue, roundHalf } from '../web/multimodal-reference.mjs';
import { launch, openPage, settle, numbersIn } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const R = 128;

/** The usual path's worst error (first in position, pair, cos-before-sin order) and the rounded path's, positions 0 … L. */
function worstErrors(L, base, dtype) {
  let usual = { ulps: -1 };
  let rounded = 0;
  for (let p = 0; p <= L; p++) {
    for (let j = 0; j < R / 2; j++) {
      const angle = p * base ** ((-2 * j) / R);
      for (const k of [0, 1]) {
        const exact = k === 0 ? Math.cos(angle) : Math.sin(angle);
        const u = ulp(exact, dtype);
        const e = Math.abs(usualValue(p, j, R, base, k, dtype) - exact) / u;
        if (e > usual.ulps) usual = { ulps: e, p, j };
        rounded = Math.max(rounded, Math.abs(roundHalf(exact, dtype) - exact) / u);
      }
    }
  }
  return { usual, rounded };
}

/**
 * Applies the changes one frame apart, without waiting for any figure: each
 * is a value typed into the first number box of its key (a 'change'), as fast
 * as the page draws. Records whether any part of the page was aria-busy meanwhile.
 */
async function fastChanges(page, changes) {
  return page.evaluate(async (list) => {
    let busy = false;
    const observer = new MutationObserver(() => {
      if (document.querySelector('[aria-busy="true"]')) busy = true;
    });
    observer.observe(document.body, { attributes: true, subtree: true, attributeFilter: ['aria-busy'] });
    for (const [key, value] of list) {
      const box = document.querySelector(`.lesson-rope input.number[data-key="${key}"]`);
      box.value = String(value);
      box.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(r));
      if (document.querySelector('[aria-busy="true"]')) busy = true;
    }
    observer.disconnect();
    return busy;
  }, changes);
}

describe('the rope lesson: figures computed across frames end on the final state', () => {
  test('half precision: after fast changes of L and base, the worst cases are those of the final L and base', async () => {
    const final = { upto: 1800, base: 20000 };
    const expected = Object.fromEntries(['float16', 'bfloat16'].map((dtype) => [dtype, worstErrors(final.upto, final.base, dtype)]));
    const page = await openPage(browser.context, '#lesson=rope&lang=en&upto=1500&base=10000');
    // a long job (20,000 positions of a new base) dropped by the next base, then an L below the work done
    const busy = await fastChanges(page, [
      ['upto', 20000],
      ['base', 500000],
      ['base', final.base],
      ['upto', 2500],
      ['upto', final.upto],
    ]);
    assert.ok(busy, 'the work for L = 20,000 ran across frames (aria-busy seen)');
    await settle(page);
    assert.equal(await page.$$eval('[aria-busy="true"]', (els) => els.length), 0);
    for (const dtype of ['float16', 'bfloat16']) {
      const el = `.half-summary[data-dtype="${dtype}"]`;
      const numbers = numbersIn((await page.textContent(el)).replace(dtype, ''));
      const w = expected[dtype];
      assert.ok(Math.abs(numbers[0] - w.usual.ulps) <= 0.05 + 1e-9, `${dtype}: usual ${numbers[0]} vs ${w.usual.ulps}`);
      assert.equal(numbers[1], w.usual.p, `${dtype}: worst position`);
      assert.equal(numbers[2], w.usual.j, `${dtype}: worst pair`);
      assert.ok(Math.abs(numbers[5] - w.rounded) <= 0.0005 + 1e-9, `${dtype}: rounded ${numbers[5]} vs ${w.rounded}`);
      // the exact numbers behind the text, to the last bit of the shown ulps
      const shown = Number(await page.getAttribute(el, 'data-usual'));
      assert.ok(Math.abs(shown - w.usual.ulps) <= 1e-9 * w.usual.ulps, `${dtype}: data-usual ${shown} vs ${w.usual.ulps}`);
    }
    // the chart's x axis ends at the final L
    const state = await page.evaluate(() => window.sinpeSite.state);
    assert.equal(state.upto, final.upto);
    assert.equal(state.base, final.base);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('precision chart: after fast base changes, the summary is the final base’s, as a fresh page shows it', async () => {
    const fresh = await openPage(browser.context, '#lesson=rope&lang=en&base=20000');
    const want = await fresh.textContent('.precision-summary');
    await fresh.close();
    const page = await openPage(browser.context, '#lesson=rope&lang=en');
    const before = await page.textContent('.precision-summary');
    assert.notEqual(before, want, 'base 10,000 and base 20,000 give different summaries');
    await fastChanges(page, [
      ['base', 500000],
      ['base', 3],
      ['base', 20000],
    ]);
    await settle(page);
    assert.equal(await page.textContent('.precision-summary'), want);
    assert.ok(numbersIn(want).length >= 4, want);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
