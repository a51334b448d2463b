// The binding's engine (js/engine.js) through the package as users call it
// (issue 23, item 9): the per-call plan cache never stands in for a request
// the module would refuse (an array option longer than a kept plan's, with
// the same first values; options given where the kept plan had none) and
// releases every plan it drops (the module's memory stays as it is), and
// the refusals it words (the element of a bad array option, a bad position in
// a list, a range of rows, a grid) name what the vocabulary's messages name.
// Expected values come from the float64 references (tests/js/reference.mjs,
// tests/js/rope-reference.mjs) and the vocabulary's rules
// (cpp/include/sinpe/vocabulary.def), never from sinpe's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sinpe, { vocabulary } from 'sinpe.wasm';
import { refused } from './refused.mjs';
import { referenceRow, TOLERANCE } from './reference.mjs';
import { ropeCache as referenceCache, ropeAttention } from './rope-reference.mjs';
import { loadWithMemory } from './wasm-memory.mjs';

const FLAVOURS = [true, false];

function assertClose(got, want, what) {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i] - want[i]) <= TOLERANCE, `${what}[${i}] = ${got[i]}, want ${want[i]}`);
}

test('a kept plan never stands in for a longer array option with the same first values', async () => {
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    // mropeSection must add up to rotaryDim/2 (vocabulary.def, mrope_section_sum).
    const ok = pe.ropeCache([0, 0, 0, 0], 8, { mropeSection: [2, 2] });
    assert.equal(ok.cos.length, 8);
    refused(() => pe.ropeCache([0, 0, 0], 8, { mropeSection: [2, 2, 1] }), RangeError, /^sinpe: options\.mropeSection must have 1 to 4 entries adding up to rotaryDim\/2/);
    // longrope's factors: rotaryDim/2 of them (vocabulary.def, bad_short_factor).
    const longrope = { ropeType: 'longrope', longFactor: [2, 2, 2, 2], originalMaxPositions: 4096, maxPositions: 16384 };
    const cache = pe.ropeCache([5], 8, { ...longrope, shortFactor: [1, 1.5, 2, 3] });
    const want = referenceCache([5], 8, { ...longrope, shortFactor: [1, 1.5, 2, 3] });
    assertClose(cache.cos, want.cos, 'longrope cos');
    refused(() => pe.ropeCache([5], 8, { ...longrope, shortFactor: [1, 1.5, 2, 3, 4] }), RangeError, /^sinpe: options\.shortFactor must be an array of rotaryDim\/2 = 4 positive finite numbers, got 5 values$/);
    refused(() => pe.ropeCache([5], 8, { ...longrope, shortFactor: [1, 1.5, -2, 3] }), RangeError, /^sinpe: options\.shortFactor must be an array of rotaryDim\/2 = 4 positive finite numbers, got options\.shortFactor\[2\] = -2$/);
  }
});

test('a kept plan never stands in for another option of the same value', async () => {
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    const positions = [0, 3, 1000];
    // tensor2tensor reads minTimescale and maxTimescale: one entry each, the same value.
    for (const options of [{ minTimescale: 50 }, { maxTimescale: 50 }, { minTimescale: 50 }]) {
      const o = { preset: 'tensor2tensor', ...options };
      const got = pe.encode(positions, 8, o);
      positions.forEach((p, i) => assertClose(got.subarray(8 * i, 8 * i + 8), referenceRow(p, 8, o), `${JSON.stringify(o)} row ${i}`));
    }
  }
});

test('a kept plan of no options never stands in for one with options', async () => {
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    const positions = [0, 3, 1000];
    for (const options of [{}, { base: 500 }, {}, { base: 500, layout: 'concat' }]) {
      const got = pe.encode(positions, 8, options);
      positions.forEach((p, i) => assertClose(got.subarray(8 * i, 8 * i + 8), referenceRow(p, 8, options), `${JSON.stringify(options)} row ${i}`));
    }
  }
});

// The vocabulary's too_large message: "{countName} = {count}: the result
// ({rows} × {width} values) would exceed the 2^29-element (2 GiB) limit of
// one result", for what the core counts (cpp/src/checks.cpp check_elements).
const tooLarge = (countName, count, rows, width) =>
  new RegExp(`^sinpe: ${countName} = ${count}: the result \\(${rows} × ${width} values\\) would exceed the 2\\^29-element \\(2 GiB\\) limit of one result$`);

test('a grid too large for one result names its height and width and counts its rows', async () => {
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    const side = 2 ** 14; // 2^28 cells: of 8 values each, past 2^29
    // grid2d: height × width rows, and one more for the cls token, of dModel values.
    refused(() => pe.grid2d(side, side, 8), RangeError, tooLarge('height/width', `${side} × ${side}`, side * side, 8));
    refused(() => pe.grid2d(side, side, 8, { preset: 'mae', clsToken: true }), RangeError, tooLarge('height/width', `${side} × ${side}`, side * side + 1, 8));
    // ropeCacheGrid: height × width tokens of rotaryDim/2 values (cos and sin each).
    refused(() => pe.ropeCacheGrid(side, side, 16, { mropeSection: [4, 4] }), RangeError, tooLarge('height/width', `${side} × ${side}`, side * side, 8));
    refused(() => pe.ropeCacheGrid(-2, 3, 16, { mropeSection: [4, 4] }), RangeError, /^sinpe: height\/width must be an integer in \[0, \d+\], got -2 × 3$/);
  }
});

test("a heatmap too large for one result counts the plan's rows, as rows() does", async () => {
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    // The module checks start … start+count−1 as rows(start, count, dModel) does
    // (cpp/bindings/glue.cpp check_heatmap → check_rows): count × dModel values,
    // whatever the column window.
    const d = 65536;
    const count = 2 ** 29 / d + 1;
    const px = new Uint8ClampedArray(1);
    refused(() => pe.rows(0, count, d, { out: new Float32Array(1) }), RangeError, tooLarge('count', count, count, d));
    refused(() => pe.heatmap(0, count, d, { out: px }), RangeError, tooLarge('count', count, count, d));
    refused(() => pe.heatmap(0, count, d, { columnStart: 8, columns: 16, out: px }), RangeError, tooLarge('count', count, count, d));
    // One row fewer fits: the out's length is checked next (count × columns RGBA bytes).
    refused(() => pe.heatmap(0, count - 1, d, { columnStart: 8, columns: 16, out: px }), RangeError, new RegExp(`^sinpe: options\\.out must have length ${(count - 1) * 16 * 4}, got 1$`));
  }
});

test('plans dropped from the per-call cache are released: the memory does not grow', async () => {
  for (const simd of FLAVOURS) {
    const { module: pe, heapBytes } = await loadWithMemory(() => sinpe({ simd }));
    // Each distinct request makes a plan (a few hundred bytes of tables at
    // this width, and more); the cache keeps a few and releases the rest.
    const call = (i) => pe.encode([1], 512, { base: 100 + i });
    for (let i = 0; i < 20; i++) call(i);
    const before = heapBytes();
    for (let i = 20; i < 170; i++) call(i);
    const rope = (i) => pe.ropeCache([1], 512, { base: 100 + i });
    for (let i = 0; i < 150; i++) rope(i);
    assert.ok(heapBytes() - before <= 2 ** 20, `${simd ? 'simd' : 'baseline'}: the module's memory grew from ${before} to ${heapBytes()} bytes over 300 distinct requests`);
    // The last request's plan is still a good one.
    const got = pe.encode([3], 512, { base: 100 + 169 });
    assertClose(got, referenceRow(3, 512, { base: 269 }), 'after the cycle');
  }
});

test("a plan made after others were released never gets a released plan's axes or attention factor", async () => {
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    // Distinct requests, more than the cache keeps: dropped plans are released
    // and the module hands their slots to new plans. Each result must carry
    // its own plan's facts: the attention factor (rope-reference.mjs) and the
    // position axes per token (mropeSection's entries: 6 positions are 6/axes
    // tokens of rotaryDim/2 values).
    for (let i = 0; i < 40; i++) {
      const yarn = { ropeType: 'yarn', factor: 2 + i / 8, originalMaxPositions: 4096 };
      const got = pe.ropeCache([0], 8, yarn);
      const want = ropeAttention(8, yarn);
      assert.ok(Math.abs(got.attentionFactor - want) <= 1e-15 * want, `request ${i}: attentionFactor ${got.attentionFactor}, want ${want}`);
      const section = i % 3 === 0 ? [4] : i % 3 === 1 ? [2, 2] : [2, 1, 1];
      const multi = pe.ropeCache([0, 1, 2, 3, 4, 5], 8, { mropeSection: section, base: 1000 + i });
      assert.equal(multi.cos.length, (6 / section.length) * 4, `request ${i}: ${section.length} axes`);
      assert.equal(multi.attentionFactor, 1, `request ${i}: default RoPE has attention factor 1`);
    }
  }
});

test('a range of rows past the position limit shows the row that is past it', async () => {
  const MAX = vocabulary.limits.maxAbsPosition; // |position| < 2^24 (vocabulary.def, position_out_of_range)
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    const message = (start, end, got, names = 'start and count') =>
      new RegExp(`^sinpe: rows \\[${start}, ${end}\\) from ${names} must satisfy \\|position\\| < 2\\^24, got ${got}$`);
    // Below: the first row is the one out of range (the last, −2^24 + 1, is inside).
    refused(() => pe.rows(-MAX, 2, 8), RangeError, message(-MAX, -MAX + 2, -MAX));
    refused(() => pe.ropeCacheRows(-MAX, 3, 8), RangeError, message(-MAX, -MAX + 3, -MAX));
    refused(() => pe.heatmap(-MAX, 2, 8), RangeError, message(-MAX, -MAX + 2, -MAX));
    refused(() => pe.addTo(new Float32Array(16), 8, { start: -MAX }), RangeError, message(-MAX, -MAX + 2, -MAX, 'options\\.start and options\\.seqLen'));
    refused(() => pe.prepare(8).rows(-MAX - 5, 3, new Float32Array(24)), RangeError, message(-MAX - 5, -MAX - 2, -MAX - 5));
    // Above: the last row.
    refused(() => pe.rows(MAX - 1, 2, 8), RangeError, message(MAX - 1, MAX + 1, MAX));
    refused(() => pe.ropeCacheRows(MAX - 2, 5, 8), RangeError, message(MAX - 2, MAX + 3, MAX + 2));
    // No rows: the start.
    refused(() => pe.rows(-MAX, 0, 8), RangeError, message(-MAX, -MAX, -MAX));
    // Both ends near the limit: the one past it (the last row, 2^24 − 1, is inside).
    refused(() => pe.rows(-MAX, 2 * MAX, 8), RangeError, message(-MAX, MAX, -MAX));
    // Inside on both ends: accepted.
    assert.equal(pe.rows(-MAX + 1, 2, 8).length, 16);
  }
});

test("a bad array option's first element is named by its index, 0", async () => {
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    // longrope's factors: rotaryDim/2 positive finite numbers (vocabulary.def, bad_short_factor, bad_long_factor).
    const longrope = { ropeType: 'longrope', originalMaxPositions: 4096, maxPositions: 16384 };
    refused(() => pe.ropeCache([5], 8, { ...longrope, shortFactor: [-1, 1, 1, 1], longFactor: [2, 2, 2, 2] }), RangeError, /^sinpe: options\.shortFactor must be an array of rotaryDim\/2 = 4 positive finite numbers, got options\.shortFactor\[0\] = -1$/);
    refused(() => pe.ropeCacheRows(0, 1, 16, { ...longrope, shortFactor: [1, 1, 1, 1, 1, 1, 1, 1], longFactor: [0, 2, 2, 2, 2, 2, 2, 2] }), RangeError, /^sinpe: options\.longFactor must be an array of rotaryDim\/2 = 8 positive finite numbers, got options\.longFactor\[0\] = 0$/);
    // mropeSection: integers in [1, 2^24) (bad_mrope_section).
    refused(() => pe.ropeCache([0, 0], 8, { mropeSection: [0, 4] }), RangeError, /^sinpe: options\.mropeSection must be an array of integers in \[1, 2\^24\), got options\.mropeSection\[0\] = 0$/);
  }
});

test('a range of rows refused past its first 4096 rows writes nothing, though its chunk is larger than the positions scratch', async () => {
  // rows(start, count, 8): 5001 rows of 8 values fit one chunk of the 2^18-float scratch, more rows than the
  // 4096 positions a positions list loads per chunk. Its last row, 2^24, is past the limit |position| < 2^24
  // (vocabulary.limits.maxAbsPosition), so the whole call is refused and options.out keeps every value.
  const MAX = vocabulary.limits.maxAbsPosition;
  const start = MAX - 5000;
  const count = 5001;
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    const out = new Float32Array(count * 8).fill(7);
    refused(() => pe.rows(start, count, 8, { out }), RangeError, new RegExp(`^sinpe: rows \\[${start}, ${start + count}\\) from start and count must satisfy \\|position\\| < 2\\^24, got ${MAX}$`));
    const written = out.findIndex((v) => v !== 7);
    assert.equal(written, -1, `options.out written at ${written}`);
    // One row fewer is accepted, and every row is computed (row 0 at position start: sin/cos of start × 1, …).
    const rows = pe.rows(start, count - 1, 8, { out: new Float32Array((count - 1) * 8) });
    assertClose(rows.subarray(0, 8), referenceRow(start, 8, {}), 'first row');
    assertClose(rows.subarray((count - 2) * 8), referenceRow(MAX - 1, 8, {}), 'last row');
  }
});

test('rows, addTo, heatmap and ropeCacheRows past one chunk: each chunk computes its own rows and lands at its own place', async () => {
  // Of width 1024 the 2^18-float scratch holds 256 rows of rows(), addTo() and heatmap() (1024 columns), and 512 of
  // ropeCacheRows(…, 1024) (512 cos and 512 sin values a row): 300 and 600 rows take two chunks. Row r is
  // position start + r, checked in the first chunk, at the boundary and in the last row.
  const d = 1024;
  const start = 1000;
  const lut = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) lut.set([i, 255 - i, 7, 255], 4 * i);
  for (const simd of FLAVOURS) {
    const pe = await sinpe({ simd });
    const rows = pe.rows(start, 300, d);
    for (const r of [0, 255, 256, 299]) assertClose(rows.subarray(r * d, (r + 1) * d), referenceRow(start + r, d), `rows: row ${r}`);
    // addTo: x (one sequence of 300 rows, each 0.5 everywhere) += row start + r.
    const x = new Float32Array(300 * d).fill(0.5);
    pe.addTo(x, d, { start });
    for (const r of [0, 255, 256, 299]) {
      assertClose(x.subarray(r * d, (r + 1) * d), Array.from(referenceRow(start + r, d), (v) => v + 0.5), `addTo: row ${r}`);
    }
    // heatmap: entry ⌊(v − vmin) · 255 / (vmax − vmin) + 0.5⌋ of the colormap (docs/maths.md §4), vmin −1, vmax 1.
    const px = pe.heatmap(start, 300, d, { colormap: lut });
    assert.equal(px.length, 300 * d * 4);
    for (let r = 0; r < 300; r++) {
      const row = referenceRow(start + r, d);
      for (let c = 0; c < d; c++) {
        const at = 4 * (r * d + c);
        const t = ((row[c] + 1) / 2) * 255;
        if (!(Math.abs(px[at] - t) <= 0.5 + 1e-4) || px[at + 1] !== 255 - px[at] || px[at + 2] !== 7 || px[at + 3] !== 255) {
          assert.fail(`heatmap: row ${r} column ${c}: ${px.slice(at, at + 4).join()}, want entry ${t}`);
        }
      }
    }
    const cache = pe.ropeCacheRows(start, 600, d);
    for (const r of [0, 511, 512, 599]) {
      const want = referenceCache([start + r], d);
      assertClose(cache.cos.subarray(r * 512, (r + 1) * 512), want.cos, `ropeCacheRows: cos row ${r}`);
      assertClose(cache.sin.subarray(r * 512, (r + 1) * 512), want.sin, `ropeCacheRows: sin row ${r}`);
    }
  }
});
