// Consumer: a project that installed the tarball imports it by name, under
// whichever runtime runs this file (Node, Deno, Bun). Nothing here is specific
// to one runtime: only the package, the independent float64 references
// (reference.mjs, rope-reference.mjs, copied next to this file) and
// node:assert, which all three provide. Checks table, rows, encode and
// ropeCache/ropeCacheRows values against the references for both flavours
// (simd 'auto' and false), that the package resolved from node_modules, and
// that a bad argument is a RangeError naming it with the module still usable.
// Prints one line: the runtime, its version and the largest errors.
import assert from 'node:assert/strict';
import sinpe, { presets } from 'sinpe.wasm';
import { referenceRow, TOLERANCE } from './reference.mjs';
import { ropeCache } from './rope-reference.mjs';

const CACHE_TOLERANCE = 2.5e-7; // × max(1, att), the package's contract

/* global Deno, Bun */
const runtime =
  typeof Deno === 'object'
    ? `Deno ${Deno.version.deno}`
    : typeof Bun === 'object'
      ? `Bun ${Bun.version}`
      : `Node ${process.versions.node}`;

// The package must come from the project's node_modules, not from anywhere else.
const where = import.meta.resolve('sinpe.wasm');
assert.ok(/\/node_modules\/sinpe\.wasm\/js\/sinpe\.js$/.test(where), `sinpe.wasm resolved to ${where}`);

const ROPE_CASES = [
  [{ ropeType: 'default' }, 64],
  [{ ropeType: 'yarn', base: 1e6, factor: 4, originalMaxPositions: 32 }, 64],
  [{ ropeType: 'llama3', base: 500000 }, 32],
];

let values = 0;
const worst = { rows: 0, rope: 0 };
function compareRows(got, positions, d, o, what) {
  assert.ok(got instanceof Float32Array, `${what}: not a Float32Array`);
  assert.equal(got.length, positions.length * d, `${what}: length`);
  positions.forEach((p, r) => {
    const want = referenceRow(p, d, o);
    for (let c = 0; c < d; c++) {
      const e = Math.abs(got[r * d + c] - want[c]);
      // `!(e <= …)` so that a NaN fails.
      assert.ok(e <= TOLERANCE, `${what}: row ${r} (p ${p}) column ${c}: ${got[r * d + c]}, reference ${want[c]}`);
      worst.rows = Math.max(worst.rows, e);
      values++;
    }
  });
}

const flavours = [];
for (const simd of ['auto', false]) {
  const pe = await sinpe({ simd });
  if (simd === false) assert.equal(pe.simd, false, 'simd: false gave the SIMD flavour');
  flavours.push(pe.simd ? 'SIMD' : 'baseline');
  for (const preset of presets) {
    const d = 36;
    compareRows(pe.table(5, d, { preset }), [0, 1, 2, 3, 4], d, { preset }, `${preset} table`);
    compareRows(pe.rows(16777200, 3, d, { preset }), [16777200, 16777201, 16777202], d, { preset }, `${preset} rows`);
    const positions = [0, 2.5, 513, 16777215];
    compareRows(pe.encode(positions, d, { preset }), positions, d, { preset }, `${preset} encode`);
  }
  for (const [options, r] of ROPE_CASES) {
    const positions = [0, 1, 7, 4095, 65536];
    const want = ropeCache(positions, r, options);
    const rows = pe.ropeCacheRows(4090, 10, r, options);
    const wantRows = ropeCache(Array.from({ length: 10 }, (_, i) => 4090 + i), r, options);
    const scale = Math.max(1, want.attentionFactor);
    for (const [got, ref, what] of [
      [pe.ropeCache(positions, r, options), want, 'ropeCache'],
      [rows, wantRows, 'ropeCacheRows'],
    ]) {
      assert.ok(Math.abs(got.attentionFactor - ref.attentionFactor) <= 1e-12, `${options.ropeType} ${what}: attentionFactor ${got.attentionFactor}, reference ${ref.attentionFactor}`);
      assert.equal(got.cos.length, ref.cos.length);
      for (let i = 0; i < ref.cos.length; i++)
        for (const part of ['cos', 'sin']) {
          const e = Math.abs(got[part][i] - ref[part][i]);
          assert.ok(e <= CACHE_TOLERANCE * scale, `${options.ropeType} ${what} ${part}[${i}]: ${got[part][i]}, reference ${ref[part][i]}`);
          worst.rope = Math.max(worst.rope, e / scale);
          values++;
        }
    }
  }
  // Bad input: a RangeError naming the argument; the module stays usable.
  assert.throws(() => pe.rows(0, 4, 0), (e) => e instanceof RangeError && /dModel/.test(e.message));
  assert.throws(() => pe.ropeCacheRows(0, 4, 7), (e) => e instanceof RangeError && /rotaryDim/.test(e.message));
  compareRows(pe.rows(3, 1, 8), [3], 8, {}, 'rows after errors');
}
assert.deepEqual(flavours, ['SIMD', 'baseline'], `flavours: ${flavours}`);
console.log(
  `${runtime}: sinpe.wasm from ${where.slice(where.indexOf('node_modules/'))}; flavours ${flavours.join(' + ')}; ` +
    `${values} values (table/rows/encode, 8 presets; ropeCache/ropeCacheRows default, yarn, llama3); ` +
    `largest error ${worst.rows.toExponential(2)} (rows), ${worst.rope.toExponential(2)} (RoPE cache, × max(1, att)); bad dModel and rotaryDim rejected`,
);
