// The rope lesson's half-precision error kernel (web/src/model/rope-multimodal.js):
// the bit-level float16 rounding and ulp it uses against the BigInt
// references written from the formats' definitions
// (tests/web/multimodal-reference.mjs), and its errors computed in parts
// (as the page computes them, a slice of positions at a time) against the
// whole range at once and against the reference's worst case. The caches are
// the package's (js/sinpe.js with the built dist/).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from '../../js/sinpe.js';
import { roundFloat16, ulpOf, halfErrors, halfErrorRows, halfErrorStore, halfWorst } from '../../web/src/model/rope-multimodal.js';
import { defaultInvFreq, hfInvFreqF32 } from '../../web/src/model/rope.js';
import { halfWorstReference, roundHalf, ulp } from './multimodal-reference.mjs';
import { mulberry32 } from '../js/fixtures/random.mjs';

let pe;
before(async () => {
  pe = await sinpe();
});

/** Values across the formats' ranges: powers of two and their neighbours, ties, random magnitudes, both signs. */
function values() {
  const rng = mulberry32(20261126);
  const out = [0, 1, 65504, 65519.99, 2 ** -14, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 1e-30];
  for (let e = -30; e <= 16; e++) out.push(2 ** e, 2 ** e * (1 - 2 ** -20), 2 ** e * (1 + 2 ** -20));
  for (let i = 0; i < 20000; i++) out.push(10 ** (rng() * 12 - 9) * (1 + rng()));
  return out.flatMap((x) => [x, -x]);
}

test('roundFloat16 and ulpOf read the exponent from the bits: equal to the references at every value', () => {
  const xs = values();
  assert.ok(xs.length > 40000);
  for (const x of xs) {
    assert.ok(Object.is(roundFloat16(x), roundHalf(x, 'float16')), `roundFloat16(${x}): ${roundFloat16(x)} vs ${roundHalf(x, 'float16')}`);
    for (const dtype of ['float16', 'bfloat16']) assert.equal(ulpOf(dtype, x), ulp(x, dtype), `ulpOf(${dtype}, ${x})`);
  }
  assert.equal(roundFloat16(65520), Infinity);
  assert.equal(ulpOf('float16', Infinity), Infinity);
  assert.ok(Number.isNaN(ulpOf('bfloat16', NaN)));
});

test('the errors computed a slice of positions at a time equal the whole range at once and the reference’s worst case', () => {
  const r = 128;
  const L = 700;
  for (const base of [10000, 500000]) {
    const inv = defaultInvFreq(r, base);
    const invF = hfInvFreqF32(r, base);
    for (const dtype of ['float16', 'bfloat16']) {
      const whole = halfErrors(dtype, L, inv, invF, pe.ropeCacheRows(0, L + 1, r, { base, dtype }));
      // in uneven parts, the store grown on the way as the page grows it
      let store = halfErrorStore(100);
      let done = 0;
      for (const size of [1, 63, 64, 200, 500]) {
        const to = Math.min(L + 1, done + size);
        if (store.usual.length < to) store = halfErrorStore(2 * to, store, done);
        halfErrorRows(dtype, done, to, inv, invF, pe.ropeCacheRows(done, to - done, r, { base, dtype }), store);
        done = to;
      }
      assert.equal(done, L + 1);
      assert.deepEqual([...store.usual.subarray(0, L + 1)], [...whole.usual]);
      assert.deepEqual([...store.rounded.subarray(0, L + 1)], [...whole.rounded]);
      const worst = halfWorst(dtype, L, inv, invF, store);
      for (const key of ['ulps', 'p', 'j', 'fn', 'exact']) assert.equal(worst.usual[key], whole.worst.usual[key], `${base} ${dtype} usual ${key}`);
      assert.equal(worst.rounded.ulps, whole.worst.rounded.ulps);
      // the reference: first (p, j, cos before sin) with the largest error of the usual path
      const { usual: ref, rounded } = halfWorstReference(dtype, r, base, L);
      assert.ok(ref.ulps > 1, `${dtype}: the reference's usual path is off by more than an ulp somewhere`);
      assert.equal(worst.usual.p, ref.p, `${base} ${dtype}: worst position`);
      assert.equal(worst.usual.j, ref.j, `${base} ${dtype}: worst pair`);
      assert.equal(worst.usual.fn, ref.fn);
      assert.ok(Math.abs(worst.usual.ulps - ref.ulps) <= 1e-9 * ref.ulps, `${base} ${dtype}: ${worst.usual.ulps} vs ${ref.ulps}`);
      assert.ok(Math.abs(worst.rounded.ulps - rounded) <= 1e-9, `${base} ${dtype}: rounded ${worst.rounded.ulps} vs ${rounded}`);
    }
  }
});
