// Consumer: the baseline flavour forced on (simd: false) gives the same numbers
// as the SIMD flavour: each within the 2.5e-7 contract of the float64 reference.
import assert from 'node:assert/strict';
import sinpe, { presets } from 'sinpe.wasm';
import { referenceRow, TOLERANCE } from './reference.mjs';

const simd = await sinpe({ simd: true });
const base = await sinpe({ simd: false });
assert.equal(simd.simd, true);
assert.equal(base.simd, false);
let values = 0;
let worstPair = 0;
let worstRef = 0;
for (const preset of presets)
  for (const d of [4, 16, 36, 64, 130, 512]) {
    const o = { preset };
    for (const start of [0, 997, 16777215 - 100]) {
      const a = simd.rows(start, 100, d, o);
      const b = base.rows(start, 100, d, o);
      for (let r = 0; r < 100; r += 9) {
        const want = referenceRow(start + r, d, o);
        for (let c = 0; c < d; c++) {
          const i = r * d + c;
          worstPair = Math.max(worstPair, Math.abs(a[i] - b[i]));
          worstRef = Math.max(worstRef, Math.abs(a[i] - want[c]), Math.abs(b[i] - want[c]));
        }
      }
      values += a.length;
    }
  }
assert.ok(worstRef <= TOLERANCE, `worst error vs reference ${worstRef}`);
assert.ok(worstPair <= 2 * TOLERANCE, `SIMD and baseline differ by ${worstPair}`);
console.log(`baseline vs SIMD: ${values} values each; max |simd - baseline| ${worstPair.toExponential(2)}, both within ${worstRef.toExponential(2)} of float64`);
