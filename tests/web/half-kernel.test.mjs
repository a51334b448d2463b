// The rope lesson's half-precision error kernel (web/src/model/rope-multimodal.js;
// its rounding and ulp are the package's halfCodec, tested in tests/js/half.test.mjs):
// its errors computed in parts
// (as the page computes them, a slice of positions at a time) against the
// whole range at once and against the reference's worst case. The caches are
// the package's (js/sinpe.js with the built dist/).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from '../../js/sinpe.js';
import { halfErrors, halfErrorRows, halfErrorStore, halfWorst } from '../../web/src/model/rope-multimodal.js';
import { defaultInvFreq, hfInvFreqF32 } from '../../web/src/model/rope.js';
import { halfWorstReference } from './multimodal-reference.mjs';

let pe;
before(async () => {
  pe = await sinpe();
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
