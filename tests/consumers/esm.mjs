// Consumer: a Node ESM project that installed the tarball imports it by name.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import sinpe, { presets, layouts } from 'sinpe.wasm';
import { referenceRow, TOLERANCE } from './reference.mjs';
import { ErrorTracker } from './errors-helper.mjs';

const where = fileURLToPath(import.meta.resolve('sinpe.wasm'));
assert.ok(where.startsWith(process.cwd() + '/node_modules/sinpe.wasm/'), `resolved from ${where}`);
assert.equal(presets.length, 8);
assert.deepEqual([...layouts], ['interleaved', 'concat', 'cos-first']);
const pe = await sinpe();
assert.equal(pe.simd, true);
const worst = new ErrorTracker();
for (const preset of presets) {
  const d = 64;
  const pos = [0, 1, 2, 513, 16777215, 2.5];
  const got = pe.encode(pos, d, { preset });
  pos.forEach((p, i) => {
    const want = referenceRow(p, d, { preset });
    for (let c = 0; c < d; c++) worst.addDifference(got[i * d + c], want[c], i * d + c);
  });
}
assert.ok(worst.within(TOLERANCE), `max error: ${worst.describe()}`);
console.log(`node ESM: import 'sinpe.wasm' from ${where.slice(process.cwd().length + 1)}; 8 presets within ${worst.worst.toExponential(2)}`);
