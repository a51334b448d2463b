// The multi-axis, grid, half-precision and prepared RoPE API (and dtype on the
// sinusoidal methods) as users get it (the installed tarball), both flavours,
// against the independent float64 references in mrope-reference.mjs,
// rope-reference.mjs and reference.mjs (written from transformers' and each
// library's source, not from sinpe's code). Prints the largest error per form.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import sinpe from 'sinpe.wasm';
import { multiAxisCache, gridPositions, rotateHalf, halfBits } from './mrope-reference.mjs';
import { ropeCache as referenceCache } from './rope-reference.mjs';
import { referenceRow } from './reference.mjs';
import { mulberry32 as rng } from './fixtures/random.mjs';

const CACHE_TOLERANCE = 2.5e-7; // × max(1, att)
const ROTATION_TOLERANCE = 5e-7; // × max(1, att) × (|x_a| + |x_b|)

const flavours = {};
const largest = new Map(); // form -> largest error
const lines = [];
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
  assert.equal(flavours.simd.simd, true);
  assert.equal(flavours.baseline.simd, false);
});
after(() => {
  for (const [form, e] of largest) lines.push(`rope api: ${form}: largest error ${e.toExponential(2)}`);
  for (const line of lines) console.log(line);
  if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `${lines.join('\n')}\n`);
});

function record(form, e) {
  largest.set(form, Math.max(largest.get(form) ?? 0, e));
}

// Token-major positions: n tokens × A axes, integers and fractions up to 2^22.
function randomPositions(n, A, seed) {
  const r = rng(seed);
  return Array.from({ length: n * A }, (_, k) => (k % 5 === 4 ? Math.floor(r() * 2 ** 22) + 0.25 : Math.floor(r() * 2 ** (4 + (k % 18)))));
}

// Largest |got - want| over max(1, att), asserting the contract; NaN fails.
function compare(form, got, want, att, tolerance = CACHE_TOLERANCE) {
  assert.equal(got.length, want.length, `${form}: length`);
  assert.ok(want.length > 0, `${form}: nothing compared`);
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(got[i] - want[i]) / Math.max(1, att);
    if (!(e <= tolerance)) assert.fail(`${form}: value ${i}: ${got[i]} vs ${want[i]} (error ${e})`);
    worst = Math.max(worst, e);
  }
  record(form, worst);
}

// The multi-axis plans under test, with the transformers function each follows.
const PLANS = [
  { name: 'sectioned [16,24,24] (Qwen2-VL)', r: 128, axes: 'sectioned', sections: [16, 24, 24], o: { mropeSection: [16, 24, 24], base: 1e6 } },
  { name: 'sectioned, yarn', r: 128, axes: 'sectioned', sections: [16, 24, 24], o: { ropeType: 'yarn', factor: 4, originalMaxPositions: 4096, mropeSection: [16, 24, 24], ropeAxes: 'sectioned' } },
  { name: 'interleaved [24,20,20] (Qwen3-VL)', r: 128, axes: 'interleaved', sections: [24, 20, 20], o: { mropeSection: [24, 20, 20], ropeAxes: 'interleaved', base: 5e6 } },
  { name: 'axial [16,16] (vision tower)', r: 64, axes: 'axial', sections: [16, 16], o: { mropeSection: [16, 16], ropeAxes: 'axial' } },
  { name: 'pixtral', r: 64, axes: 'pixtral', sections: null, o: { ropeAxes: 'pixtral' } },
];
const axesOf = (plan) => (plan.axes === 'pixtral' ? 2 : plan.sections.length);
// The rope-reference options: sinpe's options minus the axes ones.
function typeOptions(o) {
  const rest = { ...o };
  delete rest.mropeSection;
  delete rest.ropeAxes;
  return rest;
}

for (const plan of PLANS)
  test(`ropeCache, multi-axis ${plan.name}: token-major positions against the float64 reference, both flavours`, () => {
    const A = axesOf(plan);
    const positions = randomPositions(300, A, plan.r + A);
    const want = multiAxisCache(positions, plan.r, plan.axes, plan.sections, typeOptions(plan.o));
    for (const [flavour, pe] of Object.entries(flavours)) {
      const got = pe.ropeCache(positions, plan.r, plan.o);
      assert.equal(got.cos.length, (positions.length / A) * (plan.r / 2));
      assert.ok(Math.abs(got.attentionFactor - want.attentionFactor) <= 1e-15 * want.attentionFactor, `${flavour}: attention factor`);
      compare(`ropeCache ${plan.name}`, got.cos, want.cos, want.attentionFactor);
      compare(`ropeCache ${plan.name}`, got.sin, want.sin, want.attentionFactor);
      // The same from Float64Array positions and from the prepared form.
      const typed = pe.ropeCache(Float64Array.from(positions), plan.r, plan.o);
      assert.deepEqual(typed.cos, got.cos);
      const prepared = pe.prepareRope(plan.r, plan.o).cache(positions);
      assert.deepEqual(prepared.cos, got.cos, `${flavour}: prepared cache`);
      assert.deepEqual(prepared.sin, got.sin, `${flavour}: prepared cache`);
    }
  });

test('multi-axis ropeCache and applyRope over several chunks of positions (3000 tokens × 3 axes)', () => {
  const o = { mropeSection: [2, 3, 3] };
  const positions = randomPositions(3000, 3, 5);
  const want = multiAxisCache(positions, 16, 'sectioned', [2, 3, 3]);
  const r = rng(4);
  const x = Float32Array.from({ length: 3000 * 16 }, () => r() * 2 - 1);
  const rotated = rotateHalf(x, want.cos, want.sin, 3000, 16, 16);
  for (const pe of Object.values(flavours)) {
    const got = pe.ropeCache(positions, 16, o);
    compare('ropeCache sectioned, 3000 tokens', got.cos, want.cos, 1);
    compare('ropeCache sectioned, 3000 tokens', got.sin, want.sin, 1);
    const half16 = pe.ropeCache(positions, 16, { ...o, dtype: 'float16' });
    assert.deepEqual(half16.cos, pe.prepareRope(16, { ...o, dtype: 'float16' }).cache(positions).cos);
    const y = pe.applyRope(Float32Array.from(x), positions, 16, o);
    compare('applyRope sectioned, 3000 tokens (absolute, |x| < 1)', y, rotated, 1, 2 * ROTATION_TOLERANCE);
  }
});

// Per-axis patterns the cache shares float64 anchors across (one per block
// of 64 rows, kept for a few blocks): runs at any offset, runs broken at every
// 64-row block boundary and one row either side, descending, repeated, step 2
// within groups (the benchmark's), negative and fractional runs crossing zero,
// integers and halves alternating, runs ending at 2^24 - 1.
const PATTERNS = [
  (i) => i,
  (i) => 37 + i,
  (i) => i + 1000 * Math.floor(i / 64),
  (i) => i + 1000 * Math.floor((i + 1) / 64),
  (i) => i + 1000 * Math.floor((i + 63) / 64),
  (i) => 300 - i,
  (i) => Math.floor(i / 5),
  (i) => i + (i % 7),
  (i) => i - 100,
  (i) => -0.75 - i,
  (i) => i / 2,
  (i) => 2 ** 24 - 1 - i,
];

// Text (12 tokens), an image grid (t, h, w) = (12, 12 + row, 12 + column) of 9 × 14 patches, text again from 26.
function textImageText(A) {
  const out = [];
  const token = (t, h, w) => out.push(...[t, h, w].slice(0, A), ...Array(Math.max(0, A - 3)).fill(w));
  for (let i = 0; i < 12; i++) token(i, i, i);
  for (let r = 0; r < 9; r++) for (let c = 0; c < 14; c++) token(12, 12 + r, 12 + c);
  for (let i = 0; i < 150; i++) token(26 + i, 26 + i, 26 + i);
  return out;
}

for (const plan of PLANS)
  test(`ropeCache and applyRope, multi-axis ${plan.name}: runs, block boundaries, descending, repeated and mixed positions`, () => {
    const A = axesOf(plan);
    const n = 200;
    const lists = [textImageText(A)];
    PATTERNS.forEach((_, k) => {
      const same = [];
      const rotated = [];
      for (let i = 0; i < n; i++)
        for (let a = 0; a < A; a++) {
          same.push(PATTERNS[k](i));
          rotated.push(PATTERNS[(k + 3 * a + 1) % PATTERNS.length](i));
        }
      lists.push(same, rotated);
    });
    const r = rng(plan.r);
    for (const positions of lists) {
      const tokens = positions.length / A;
      const want = multiAxisCache(positions, plan.r, plan.axes, plan.sections, typeOptions(plan.o));
      const x = Float32Array.from({ length: tokens * plan.r }, () => r() * 2 - 1);
      const rotated = rotateHalf(x, want.cos, want.sin, tokens, plan.r, plan.r);
      for (const pe of Object.values(flavours)) {
        const got = pe.ropeCache(positions, plan.r, plan.o);
        compare(`ropeCache ${plan.name}, structured positions`, got.cos, want.cos, want.attentionFactor);
        compare(`ropeCache ${plan.name}, structured positions`, got.sin, want.sin, want.attentionFactor);
        const y = pe.applyRope(Float32Array.from(x), positions, plan.r, plan.o);
        compare(`applyRope ${plan.name}, structured positions (absolute, |x| < 1)`, y, rotated, want.attentionFactor, 2 * ROTATION_TOLERANCE);
      }
    }
  });

test('multi-axis positions: the axes really select different pairs (a plan given one axis per token differs)', () => {
  const pe = flavours.simd;
  const o = { mropeSection: [16, 24, 24] };
  const a = pe.ropeCache([5, 5, 5], 128, o).cos;
  const b = pe.ropeCache([5, 9, 5], 128, o).cos;
  // Pairs 0..15 (axis 0) and 40..63 (axis 2) agree; 16..39 (axis 1) differ.
  for (let j = 0; j < 64; j++) {
    if (j >= 16 && j < 40) assert.notEqual(a[j], b[j], `pair ${j} turns with axis 1`);
    else assert.equal(a[j], b[j], `pair ${j} does not turn with axis 1`);
  }
});

for (const plan of PLANS)
  test(`ropeCacheRows, multi-axis ${plan.name}: one position on every axis (text tokens)`, () => {
    const A = axesOf(plan);
    const start = 4090;
    const count = 70;
    const same = [];
    for (let i = 0; i < count; i++) for (let a = 0; a < A; a++) same.push(start + i);
    const want = multiAxisCache(same, plan.r, plan.axes, plan.sections, typeOptions(plan.o));
    for (const pe of Object.values(flavours)) {
      const got = pe.ropeCacheRows(start, count, plan.r, plan.o);
      compare(`ropeCacheRows ${plan.name}`, got.cos, want.cos, want.attentionFactor);
      compare(`ropeCacheRows ${plan.name}`, got.sin, want.sin, want.attentionFactor);
      const prepared = pe.prepareRope(plan.r, plan.o).cacheRows(start, count);
      assert.deepEqual(prepared.cos, got.cos);
    }
  });

for (const plan of PLANS.filter((p) => axesOf(p) === 2))
  test(`ropeCacheGrid ${plan.name}: patch m = i·width + j at (i, j), against the reference`, () => {
    for (const [height, width] of [
      [7, 5],
      [1, 9],
      [64, 80], // 5120 patches: more than one chunk of the scratch
    ]) {
      const want = multiAxisCache(gridPositions(height, width), plan.r, plan.axes, plan.sections, typeOptions(plan.o));
      for (const pe of Object.values(flavours)) {
        const got = pe.ropeCacheGrid(height, width, plan.r, plan.o);
        assert.equal(got.cos.length, height * width * (plan.r / 2));
        compare(`ropeCacheGrid ${plan.name}`, got.cos, want.cos, want.attentionFactor);
        compare(`ropeCacheGrid ${plan.name}`, got.sin, want.sin, want.attentionFactor);
        const prepared = pe.prepareRope(plan.r, plan.o).grid(height, width);
        assert.deepEqual(prepared.cos, got.cos);
        assert.deepEqual(prepared.sin, got.sin);
      }
    }
    const empty = flavours.simd.ropeCacheGrid(0, 5, plan.r, plan.o);
    assert.equal(empty.cos.length, 0);
  });

for (const plan of PLANS)
  test(`applyRope, multi-axis ${plan.name}: rotate_half of the reference cache, partial rotary, several heads`, () => {
    const A = axesOf(plan);
    const n = 40;
    const heads = 3;
    const headDim = plan.r + 8;
    const positions = randomPositions(n, A, 7 * plan.r);
    const r = rng(99);
    const x = Float32Array.from({ length: n * heads * headDim }, () => r() * 4 - 2);
    const cache = multiAxisCache(positions, plan.r, plan.axes, plan.sections, typeOptions(plan.o));
    const want = rotateHalf(x, cache.cos, cache.sin, n, headDim, plan.r);
    for (const pe of Object.values(flavours)) {
      const got = pe.applyRope(Float32Array.from(x), positions, headDim, { ...plan.o, rotaryDim: plan.r });
      const prepared = pe.prepareRope(plan.r, plan.o).apply(Float32Array.from(x), positions, headDim);
      assert.deepEqual(prepared, got, 'prepared apply');
      let worst = 0;
      for (let t = 0; t < n * heads; t++)
        for (let c = 0; c < headDim; c++) {
          const i = t * headDim + c;
          const half = plan.r / 2;
          const scale = c < plan.r ? Math.abs(x[t * headDim + (c % half)]) + Math.abs(x[t * headDim + (c % half) + half]) : 0;
          const e = Math.abs(got[i] - want[i]);
          if (c >= plan.r) assert.equal(got[i], x[i], 'pass-through dimension');
          else if (!(e <= ROTATION_TOLERANCE * Math.max(1, cache.attentionFactor) * scale)) assert.fail(`value ${i}: ${got[i]} vs ${want[i]}`);
          if (scale > 0) worst = Math.max(worst, e / scale);
        }
      record(`applyRope ${plan.name} (per |x_a|+|x_b|)`, worst);
    }
  });

// ---- half precision ----------------------------------------------------------

// Bit-exact against the reference rounded once, except where the reference
// value lies within `slack` of a rounding boundary; counts subnormals.
function compareHalf(form, got, want, dtype, slack, tally) {
  assert.ok(got instanceof Uint16Array, `${form}: a Uint16Array`);
  assert.equal(got.length, want.length);
  assert.ok(want.length > 0);
  for (let i = 0; i < want.length; i++) {
    const { bits, near, either } = halfBits(want[i], dtype, slack(i));
    if (near) {
      tally.near++;
      if (!either.includes(got[i])) assert.fail(`${form} ${dtype}: value ${i} = ${want[i]}: bits ${got[i].toString(16)}, want one of ${either.map((b) => b.toString(16))}`);
    } else if (got[i] !== bits) assert.fail(`${form} ${dtype}: value ${i} = ${want[i]}: bits ${got[i].toString(16)}, want ${bits.toString(16)}`);
    const exponent = dtype === 'float16' ? (bits >> 10) & 0x1f : (bits >> 7) & 0xff;
    if (exponent === 0 && (bits & 0x7fff) !== 0) tally.subnormal++;
    tally.values++;
  }
}

function halfLine(form, dtype, tally) {
  lines.push(
    `rope api: ${form} ${dtype}: ${tally.values - tally.near} of ${tally.values} values bit-exact; ${tally.near} within the reference's own float64 error of a rounding boundary, either neighbour accepted; ${tally.subnormal} subnormal`,
  );
}

for (const dtype of ['float16', 'bfloat16']) {
  test(`rows/table/encode dtype ${dtype}: the float64 value rounded once, both flavours`, () => {
    const tally = { values: 0, near: 0, subnormal: 0 };
    const d = 128;
    const o = { preset: 'vaswani', base: 1e6 }; // frequencies down to 1e-6: subnormal float16 sines near 0
    const positions = [0, 1, 2, 3, 17, 1000, 65535, 2 ** 20 + 3, 0.5, -7.25];
    const want = positions.flatMap((p) => Array.from(referenceRow(p, d, o)));
    // The reference's own float64 error: a few units in the last place of the angle p·ω_k (vaswani:
    // column 2k and 2k+1 at ω_k = base^(-2k/d)) and of the value.
    const rowSlack = (ps) => (i) => 4e-16 * (Math.abs(ps[Math.floor(i / d)]) * 1e6 ** (-(2 * Math.floor((i % d) / 2)) / d) + 1);
    const slack = rowSlack(positions);
    for (const pe of Object.values(flavours)) {
      compareHalf('encode', pe.encode(positions, d, { ...o, dtype }), want, dtype, slack, tally);
      const rows = pe.rows(65535, 3, d, { ...o, dtype });
      compareHalf('rows', rows, [65535, 65536, 65537].flatMap((p) => Array.from(referenceRow(p, d, o))), dtype, rowSlack([65535, 65536, 65537]), tally);
      const table = pe.table(5000, d, { ...o, dtype }); // more than one chunk of positions
      assert.deepEqual(table.subarray(1000 * d, 1001 * d), pe.encode([1000], d, { ...o, dtype }));
      compareHalf('table', table.subarray(0, 4 * d), [0, 1, 2, 3].flatMap((p) => Array.from(referenceRow(p, d, o))), dtype, () => 1e-15, tally);
      const prepared = pe.prepare(d, { ...o, dtype });
      assert.equal(prepared.dtype, dtype);
      assert.deepEqual(prepared.rows(65535, 3), rows);
      assert.deepEqual(prepared.encode(positions), pe.encode(positions, d, { ...o, dtype }));
      let seen = 0;
      prepared.chunks(0, 5000, (view, first) => {
        assert.ok(view instanceof Uint16Array);
        assert.deepEqual(Array.from(view.subarray(0, d)), Array.from(table.subarray(first * d, (first + 1) * d)));
        seen += view.length / d;
      });
      assert.equal(seen, 5000);
      // A given out is written and returned.
      const out = new Uint16Array(3 * d);
      assert.equal(pe.rows(65535, 3, d, { ...o, dtype, out }), out);
      assert.deepEqual(out, rows);
    }
    assert.ok(tally.subnormal > 0 || dtype === 'bfloat16', 'the cases reach float16 subnormals');
    halfLine('rows/table/encode', dtype, tally);
  });

  test(`ropeCache/ropeCacheRows/ropeCacheGrid dtype ${dtype}: the float64 value rounded once, multi-axis too`, () => {
    const tally = { values: 0, near: 0, subnormal: 0 };
    for (const plan of PLANS) {
      const A = axesOf(plan);
      const positions = randomPositions(64, A, 3 + plan.r);
      const want = multiAxisCache(positions, plan.r, plan.axes, plan.sections, typeOptions(plan.o));
      // The reference's own float64 error: a few units in the last place of the angle and of the value.
      const slackOf = (c) => (i) => 4e-16 * (Math.abs(c.angle[i]) + 1) * Math.max(1, c.attentionFactor);
      const slack = slackOf(want);
      for (const pe of Object.values(flavours)) {
        const got = pe.ropeCache(positions, plan.r, { ...plan.o, dtype });
        compareHalf(`ropeCache ${plan.name}`, got.cos, want.cos, dtype, slack, tally);
        compareHalf(`ropeCache ${plan.name}`, got.sin, want.sin, dtype, slack, tally);
        const prepared = pe.prepareRope(plan.r, { ...plan.o, dtype });
        assert.equal(prepared.dtype, dtype);
        assert.deepEqual(prepared.cache(positions).cos, got.cos);
        const rows = pe.ropeCacheRows(100, 50, plan.r, { ...plan.o, dtype });
        const same = [];
        for (let i = 0; i < 50; i++) for (let a = 0; a < A; a++) same.push(100 + i);
        const wantRows = multiAxisCache(same, plan.r, plan.axes, plan.sections, typeOptions(plan.o));
        compareHalf(`ropeCacheRows ${plan.name}`, rows.sin, wantRows.sin, dtype, slackOf(wantRows), tally);
        assert.deepEqual(prepared.cacheRows(100, 50).sin, rows.sin);
        if (A === 2) {
          const grid = pe.ropeCacheGrid(9, 11, plan.r, { ...plan.o, dtype });
          const wantGrid = multiAxisCache(gridPositions(9, 11), plan.r, plan.axes, plan.sections, typeOptions(plan.o));
          compareHalf(`ropeCacheGrid ${plan.name}`, grid.cos, wantGrid.cos, dtype, slackOf(wantGrid), tally);
          assert.deepEqual(prepared.grid(9, 11).cos, grid.cos);
        }
      }
    }
    // Text RoPE with a high base reaches float16 subnormals: sin(p · 1e6^(-126/128)) at small p.
    const text = referenceCache([1, 2, 3], 128, { base: 1e6 });
    for (const pe of Object.values(flavours)) compareHalf('ropeCache text', pe.ropeCache([1, 2, 3], 128, { base: 1e6, dtype }).sin, text.sin, dtype, () => 4e-16 * (3 + 1), tally); // angles at most 3
    assert.ok(tally.subnormal > 0 || dtype === 'bfloat16', 'the cases reach float16 subnormals');
    assert.ok(tally.near < tally.values / 1000, `only a few values near a boundary (${tally.near})`);
    halfLine('RoPE caches', dtype, tally);
  });
}

test('half-precision out arrays: a Uint16Array (or, for float16, a Float16Array where the engine has one); a Float32Array is refused', (t) => {
  const pe = flavours.simd;
  const cos = new Uint16Array(8);
  const sin = new Uint16Array(8);
  const got = pe.ropeCacheRows(0, 2, 8, { dtype: 'bfloat16', out: { cos, sin } });
  assert.equal(got.cos, cos);
  assert.equal(got.sin, sin);
  assert.deepEqual(cos, pe.ropeCacheRows(0, 2, 8, { dtype: 'bfloat16' }).cos);
  const f32 = new Float32Array(8);
  assert.throws(() => pe.ropeCacheRows(0, 2, 8, { dtype: 'float16', out: { cos: f32, sin: new Uint16Array(8) } }), { name: 'TypeError', message: /options\.out\.cos must be a Uint16Array/ });
  assert.ok(f32.every((v) => v === 0), 'nothing written');
  assert.throws(() => pe.rows(0, 2, 4, { dtype: 'float16', out: new Uint16Array(7) }), { name: 'RangeError', message: /options\.out must have length 8/ });
  assert.throws(() => pe.rows(0, 2, 4, { dtype: 'float32', out: new Uint16Array(8) }), { name: 'TypeError', message: /options\.out must be a Float32Array/ });
  const shared = new Uint16Array(16);
  assert.throws(() => pe.ropeCacheRows(0, 2, 8, { dtype: 'float16', out: { cos: shared.subarray(0, 8), sin: shared.subarray(4, 12) } }), { name: 'RangeError', message: /must not share memory/ });
  if (typeof globalThis.Float16Array !== 'function') {
    t.diagnostic('this engine has no Float16Array: the Float16Array out is not exercised here');
    return;
  }
  const F16 = globalThis.Float16Array;
  const f16 = new F16(8);
  assert.equal(pe.rows(0, 2, 4, { dtype: 'float16', out: f16 }), f16);
  assert.deepEqual(new Uint16Array(f16.buffer), pe.rows(0, 2, 4, { dtype: 'float16' }));
  assert.throws(() => pe.rows(0, 2, 4, { dtype: 'bfloat16', out: new F16(8) }), { name: 'TypeError', message: /options\.out must be a Uint16Array/ });
});

test('prepareRope: its facts are the pe.* methods\' (frequencies, axes, attention factor)', () => {
  for (const pe of Object.values(flavours))
    for (const plan of PLANS) {
      const p = pe.prepareRope(plan.r, plan.o);
      assert.equal(p.rotaryDim, plan.r);
      assert.equal(p.axes, axesOf(plan));
      assert.deepEqual(p.frequencies, pe.ropeFrequencies(plan.r, plan.o));
      assert.equal(p.attentionFactor, pe.ropeCacheRows(0, 1, plan.r, plan.o).attentionFactor);
      assert.equal(p.dtype, 'float32');
      assert.ok(Object.isFrozen(p));
    }
  const text = flavours.simd.prepareRope(64);
  assert.equal(text.axes, 1);
  assert.deepEqual(text.cache([0, 5, 9]).cos, flavours.simd.ropeCache([0, 5, 9], 64).cos);
  const { apply } = text; // bound
  assert.equal(apply(new Float32Array(64), [3], 64, { layout: 'interleaved' }).length, 64);
});

test('bad input: the error names the argument, nothing is written, the module stays usable', () => {
  const pe = flavours.baseline;
  const x = new Float32Array(2 * 128).fill(1);
  const o = { mropeSection: [16, 24, 24] };
  assert.throws(() => pe.applyRope(x, [1, 2, 3, 4], 128, o), { name: 'RangeError', message: /^sinpe: positions\.length \(4\) must be a multiple of 3/ });
  assert.ok(x.every((v) => v === 1), 'x untouched');
  const cos = new Float32Array(64);
  const sin = new Float32Array(64);
  assert.throws(() => pe.ropeCache([1, 2], 128, { ...o, out: { cos, sin } }), { name: 'RangeError', message: /positions\.length \(2\)/ });
  assert.ok(cos.every((v) => v === 0) && sin.every((v) => v === 0), 'out untouched');
  assert.throws(() => pe.ropeCache([0, 0, 0, NaN, 0, 0], 128, { ...o, out: { cos: new Float32Array(128), sin: new Float32Array(128) } }), { name: 'RangeError', message: /positions\[3\] must be finite/ });
  assert.throws(() => pe.ropeCacheGrid(2, 2, 128, o), { name: 'RangeError', message: /^sinpe: a grid needs a plan with 2 position axes \(options\.mropeSection .*make has 3$/ });
  assert.throws(() => pe.ropeCacheGrid(-1, 2, 64, { ropeAxes: 'pixtral' }), { name: 'RangeError', message: /height\/width/ });
  assert.throws(() => pe.ropeCacheGrid('2', 2, 64, { ropeAxes: 'pixtral' }), { name: 'TypeError', message: /height must be a number/ });
  assert.throws(() => pe.ropeCache([0, 0], 64, { ropeAxes: 'pixtral', mropeSection: [16, 16] }), { name: 'TypeError', message: /options\.mropeSection does not apply/ });
  assert.throws(() => pe.ropeCache([0], 64, { ropeAxes: 7 }), { name: 'TypeError', message: /options\.ropeAxes must be a string/ });
  assert.throws(() => pe.table(2, 8, { dtype: 16 }), { name: 'TypeError', message: /options\.dtype must be a string/ });
  assert.throws(() => pe.grid2d(2, 2, 8, { dtype: 'float16' }), { name: 'TypeError', message: /unknown option "dtype"/ });
  assert.throws(() => pe.applyRope(x, [1], 128, { dtype: 'float16' }), { name: 'TypeError', message: /unknown option "dtype"/ });
  assert.throws(() => pe.table(2, 8, { ropeAxes: 'pixtral' }), { name: 'TypeError', message: /unknown option "ropeAxes"/ });
  const prepared = pe.prepareRope(64, { ropeAxes: 'pixtral' });
  assert.throws(() => prepared.apply(new Float32Array(64), [0], 64), { name: 'RangeError', message: /positions\.length \(1\) must be a multiple of 2/ });
  assert.throws(() => prepared.apply(new Float32Array(64), [0, 0], 64, { rotaryDim: 32 }), { name: 'TypeError', message: /unknown option "rotaryDim"; apply takes: layout/ });
  assert.throws(() => prepared.apply(new Float32Array(64), [0, 0], 32), { name: 'RangeError', message: /rotaryDim \(64\) must not exceed headDim \(32\)/ });
  assert.throws(() => prepared.cacheRows(0.5, 2), { name: 'RangeError', message: /start must be an integer/ });
  assert.throws(() => prepared.grid(2, 2, { cos: new Uint16Array(64), sin: new Uint16Array(64) }), { name: 'TypeError', message: /out\.cos must be a Float32Array/ });
  // Still usable, and the same values as before the errors.
  assert.deepEqual(prepared.grid(2, 2).cos, pe.ropeCacheGrid(2, 2, 64, { ropeAxes: 'pixtral' }).cos);
  assert.equal(pe.ropeCache([1, 2, 3], 128, o).cos.length, 64);
});
