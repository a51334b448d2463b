// Consumer: the baseline flavour forced on (simd: false) gives the same numbers
// as the SIMD flavour: each within the 2.5e-7 contract of the float64 reference.
import assert from 'node:assert/strict';
import sinpe, { presets } from 'sinpe.wasm';
import { referenceRow, TOLERANCE } from './reference.mjs';
import { ErrorTracker } from './errors-helper.mjs';

const simd = await sinpe({ simd: true });
const base = await sinpe({ simd: false });
assert.equal(simd.simd, true);
assert.equal(base.simd, false);
let values = 0;
const worstPair = new ErrorTracker();
const worstRef = new ErrorTracker();
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
          worstPair.addDifference(a[i], b[i], i);
          worstRef.addDifference(a[i], want[c], i);
          worstRef.addDifference(b[i], want[c], i);
        }
      }
      values += a.length;
    }
  }
assert.ok(worstRef.within(TOLERANCE), `error vs reference: ${worstRef.describe()}`);
assert.ok(worstPair.within(2 * TOLERANCE), `SIMD and baseline differ: ${worstPair.describe()}`);
console.log(`baseline vs SIMD: ${values} values each; max |simd - baseline| ${worstPair.worst.toExponential(2)}, both within ${worstRef.worst.toExponential(2)} of float64`);
