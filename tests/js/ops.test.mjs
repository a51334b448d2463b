// The read and compute phases of the operation table (js/ops.js) through the
// package as users call it (issue 23, item 9): what an unknown option's error
// lists, which argument a refusal names when a width and a positions list are
// both out of bounds, the 2^29-element limit of one result for a positions
// list (per result array: a RoPE cache has rotaryDim/2 values per position in
// each of cos and sin, as ropeCacheRows counts them), and positions checked
// again after the getters of a cache's out { cos, sin } ran. Expected names
// and limits come from the vocabulary (cpp/include/sinpe/vocabulary.def, the
// package's `vocabulary` export) and README.md's method signatures, never from
// sinpe's output.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe, { vocabulary } from 'sinpe.wasm';
import { refused } from './refused.mjs';
import { referenceRow, TOLERANCE } from './reference.mjs';
import { ropeRotate, pairMagnitudes } from './rope-reference.mjs';
import { multiAxisCache, rotateHalf } from './mrope-reference.mjs';

const MAX_WIDTH = vocabulary.limits.maxDModel; // dModel and rotaryDim: [1 or 2, maxDModel]
const MAX_ELEMENTS = vocabulary.limits.maxElements; // one result: 2^29 values
const FLAVOURS = ['simd', 'baseline'];
const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});

// The names an "unknown option" error lists after "takes: ", as a sorted list.
function takes(error) {
  const m = /takes: (.*)$/.exec(error.message);
  assert.ok(m, error.message);
  return m[1].split(', ').sort();
}

test('an unknown option names what the formula and the method take', () => {
  const pe = flavours.simd;
  const reads = (family, name) => family.find((f) => f.name === name).reads;
  // encode(positions, dModel, options): preset, layout, out, dtype and what the preset reads.
  for (const preset of ['vaswani', 'tensor2tensor', 'diffusers']) {
    const e = refused(() => pe.encode([0, 1], 8, { preset, bogus: 1 }), TypeError, /unknown option "bogus"/, new RegExp(`preset '${preset}' takes: `));
    const want = ['preset', 'layout', 'out', 'dtype', ...reads(vocabulary.presets, preset)];
    assert.ok(reads(vocabulary.presets, preset).length > 0, `${preset} reads options`);
    assert.deepEqual(takes(e), want.sort(), e.message);
  }
  // grid2d takes clsToken instead of dtype; the default preset is the vocabulary's first.
  const g = refused(() => pe.grid2d(2, 2, 8, { bogus: 1 }), TypeError, new RegExp(`preset '${vocabulary.presets[0].name}' takes: `));
  assert.deepEqual(takes(g), ['preset', 'layout', 'out', 'clsToken', ...vocabulary.presets[0].reads].sort(), g.message);
  // ropeCache(positions, rotaryDim, options): ropeType, ropeAxes, out, dtype, recipe and what the type reads.
  for (const ropeType of ['default', 'yarn', 'longrope']) {
    const e = refused(() => pe.ropeCache([0], 8, { ropeType, bogus: 1 }), TypeError, new RegExp(`ropeType '${ropeType}' takes: `));
    const want = ['ropeType', 'ropeAxes', 'out', 'dtype', 'recipe', ...reads(vocabulary.ropeTypes, ropeType)];
    assert.deepEqual(takes(e), want.sort(), e.message);
  }
});

test('a width out of bounds is named before the size of a positions list', () => {
  for (const f of FLAVOURS) {
    const pe = flavours[f];
    // One position at a width past the limit: the width is refused (the
    // positions alone are within every limit).
    for (const d of [MAX_WIDTH + 1, 2 ** 30, 2 ** 40]) {
      refused(() => pe.encode([0], d), RangeError, /^sinpe: dModel must be an integer/, new RegExp(`got ${d}$`));
      refused(() => pe.encode(new Float64Array(1), d), RangeError, /^sinpe: dModel must be an integer/);
      refused(() => pe.ropeCache([0], 2 * d), RangeError, /^sinpe: rotaryDim must be an even integer/);
      refused(() => pe.prepare(d), RangeError, /^sinpe: dModel must be an integer/);
    }
  }
});

test('a positions list is refused when one result would pass 2^29 values, counted per result array', () => {
  const pe = flavours.simd;
  // A small out makes an accepted size end at the out's length check (nothing is computed).
  const rows = MAX_ELEMENTS / MAX_WIDTH; // 8192 rows of maxDModel values fill one result
  const tableOut = { out: new Float32Array(1) };
  refused(() => pe.encode(new Float64Array(rows), MAX_WIDTH, tableOut), RangeError, /^sinpe: options\.out must have length/);
  refused(() => pe.encode(new Float64Array(rows + 1), MAX_WIDTH, tableOut), RangeError, new RegExp(`^sinpe: positions: ${rows + 1} × ${MAX_WIDTH} values exceed the 2\\^29-element`));
  // A RoPE cache of rotaryDim r has r/2 values per position in each of cos and
  // sin: with r = maxDModel, 16384 positions fill one array (ropeCacheRows
  // accepts the same count).
  const r = MAX_WIDTH;
  const tokens = MAX_ELEMENTS / (r / 2);
  const small = () => ({ cos: new Float32Array(1), sin: new Float32Array(1) });
  const prepared = pe.prepareRope(r);
  for (const n of [rows + 1, tokens]) {
    refused(() => pe.ropeCacheRows(0, n, r, { out: small() }), RangeError, /^sinpe: options\.out\.cos must have length/);
    refused(() => pe.ropeCache(new Float64Array(n), r, { out: small() }), RangeError, new RegExp(`^sinpe: options\\.out\\.cos must have length ${n * (r / 2)}, got 1`));
    refused(() => pe.ropeCache(Array.from({ length: n }, () => 0), r, { out: small() }), RangeError, /^sinpe: options\.out\.cos must have length/);
    refused(() => prepared.cache(new Float64Array(n), small()), RangeError, /^sinpe: out\.cos must have length/);
  }
  const over = new RegExp(`^sinpe: positions: ${tokens + 1} × ${r / 2} values exceed the 2\\^29-element`);
  refused(() => pe.ropeCache(new Float64Array(tokens + 1), r, { out: small() }), RangeError, over);
  refused(() => prepared.cache(new Float64Array(tokens + 1), small()), RangeError, over);
  refused(() => pe.ropeCacheRows(0, tokens + 1, r, { out: small() }), RangeError, new RegExp(`\\(${tokens + 1} × ${r / 2} values\\) would exceed the 2\\^29-element`));
});

test("positions detached by a getter of the cache's out are refused, naming positions", () => {
  for (const f of FLAVOURS) {
    const pe = flavours[f];
    const r = 8;
    const calls = {
      ropeCache: (p, out) => pe.ropeCache(p, r, { out }),
      'prepareRope().cache': (p, out) => pe.prepareRope(r).cache(p, out),
    };
    for (const [what, call] of Object.entries(calls)) {
      const positions = new Float64Array([0, 1, 2]);
      const sin = new Float32Array(3 * (r / 2)).fill(7);
      const cos = new Float32Array(3 * (r / 2)).fill(7);
      const out = {
        get cos() {
          structuredClone(positions.buffer, { transfer: [positions.buffer] });
          return cos;
        },
        sin,
      };
      refused(() => call(positions, out), TypeError, /^sinpe: positions is detached/);
      assert.ok(cos.every((v) => v === 7) && sin.every((v) => v === 7), `${f} ${what}: nothing written`);
      // The module stays usable.
      assert.equal(call([0], undefined).cos.length, r / 2);
    }
  }
});

// The compute phase of a range row (rows, table, prepared rows, chunks,
// ropeCacheRows): the range is the vocabulary's (bad_start, bad_count,
// position_out_of_range: every row's position |p| < maxAbsPosition), checked
// whole before anything is written or the out is looked at.
const MAX_POSITION = vocabulary.limits.maxAbsPosition; // 2^24
const SCRATCH_FLOATS = 2 ** 18; // cpp/bindings/glue.cpp kScratchFloats: rows of one chunk = 2^18 / width

test('a range of rows whose last chunk passes the position limit is refused before anything is written', () => {
  for (const f of FLAVOURS) {
    const pe = flavours[f];
    const d = 64;
    const count = 2 * (SCRATCH_FLOATS / d) + 1; // three chunks
    const start = MAX_POSITION - count + 1; // the last row is at 2^24
    const outOfRange = new RegExp(`^sinpe: rows \\[${start}, ${start + count}\\) from start and count must satisfy \\|position\\| < 2\\^24, got ${MAX_POSITION}$`);
    const out = new Float32Array(count * d).fill(7);
    const untouched = (what) => assert.ok(out.every((v) => v === 7), `${f} ${what}: nothing written`);
    refused(() => pe.rows(start, count, d, { out }), RangeError, outOfRange);
    untouched('rows');
    const enc = pe.prepare(d);
    refused(() => enc.rows(start, count, out), RangeError, outOfRange);
    untouched('prepare().rows');
    let calls = 0;
    refused(() => enc.chunks(start, count, () => calls++), RangeError, outOfRange);
    assert.equal(calls, 0, `${f} chunks: no view handed out`);
    // One row less is inside the limit: the same call is accepted.
    assert.equal(pe.rows(start - 1, count, d, { out }), out);
    assert.ok(out.every(Number.isFinite) && out.some((v) => v !== 7), `${f}: rows written`);
  }
});

test('a range of no rows still has its start checked', () => {
  for (const f of FLAVOURS) {
    const pe = flavours[f];
    const enc = pe.prepare(8);
    for (const start of [1.5, NaN, Infinity]) {
      const bad = new RegExp(`^sinpe: start must be an integer, got ${start}$`);
      refused(() => pe.rows(start, 0, 8), RangeError, bad);
      refused(() => pe.rows(start, 0, 8, { out: new Float32Array(0) }), RangeError, bad);
      refused(() => enc.rows(start, 0, new Float32Array(0)), RangeError, bad);
    }
    for (const start of [MAX_POSITION, -MAX_POSITION]) {
      refused(() => pe.rows(start, 0, 8), RangeError, new RegExp(`^sinpe: rows \\[${start}, ${start}\\) from start and count must satisfy \\|position\\| < 2\\^24, got ${start}$`));
      refused(() => enc.rows(start, 0, new Float32Array(0)), RangeError, /^sinpe: rows .* must satisfy \|position\| < 2\^24/);
    }
    // Inside the limit, no rows is an empty result.
    assert.equal(pe.rows(MAX_POSITION - 1, 0, 8).length, 0);
    assert.equal(pe.table(0, 8).length, 0);
  }
});

test('a refused range is named before the out', () => {
  for (const f of FLAVOURS) {
    const pe = flavours[f];
    const outOfRange = /^sinpe: rows \[16777216, 16777217\) from start and count must satisfy \|position\| < 2\^24, got 16777216$/;
    const short = new Float32Array(3).fill(7);
    refused(() => pe.rows(MAX_POSITION, 1, 8, { out: short }), RangeError, outOfRange);
    refused(() => pe.prepare(8).rows(MAX_POSITION, 1, short), RangeError, outOfRange);
    refused(() => pe.rows(1.5, 1, 8, { out: short }), RangeError, /^sinpe: start must be an integer, got 1\.5$/);
    refused(() => pe.table(-1, 8, { out: short }), RangeError, /^sinpe: length must be an integer in \[0, \d+\], got -1$/);
    const cache = () => ({ cos: new Float32Array(3).fill(7), sin: new Float32Array(3).fill(7) });
    refused(() => pe.ropeCacheRows(MAX_POSITION, 1, 8, { out: cache() }), RangeError, outOfRange);
    refused(() => pe.prepareRope(8).cacheRows(MAX_POSITION, 1, cache()), RangeError, outOfRange);
    assert.ok(short.every((v) => v === 7), `${f}: nothing written`);
  }
});

// addTo(x, dModel, { start, seqLen }): README's "x += PE" per sequence of
// seqLen rows (default: x is one sequence), rows start … start+seqLen−1.
test('addTo: without seqLen x is one sequence; a bad seqLen, x or range is named and x is left as it was', () => {
  for (const f of FLAVOURS) {
    const pe = flavours[f];
    const d = 8;
    const x0 = Float32Array.from({ length: 3 * d }, (_, i) => Math.cos(i) / 4);
    const x = x0.slice();
    assert.equal(pe.addTo(x, d, { start: 5 }), x);
    for (let r = 0; r < 3; r++) {
      const want = referenceRow(5 + r, d);
      for (let c = 0; c < d; c++) assert.ok(Math.abs(x[r * d + c] - (x0[r * d + c] + want[c])) <= 2 * TOLERANCE, `${f} x[${r * d + c}]`);
    }
    const y = x0.slice();
    const unchanged = (what) => assert.deepEqual(y, x0, `${f} ${what}: x unchanged`);
    for (const seqLen of [0, -1, 1.5, NaN, Infinity]) {
      refused(() => pe.addTo(y, d, { seqLen }), RangeError, new RegExp(`^sinpe: options\\.seqLen must be a positive integer, got ${seqLen}$`));
      unchanged(`seqLen ${seqLen}`);
    }
    refused(() => pe.addTo(y, d, { seqLen: '3' }), TypeError, /^sinpe: options\.seqLen must be a number/);
    refused(() => pe.addTo(y, d, { seqLen: 2 }), RangeError, /^sinpe: x\.length \(24\) must be a multiple of options\.seqLen × dModel \(16\)$/);
    refused(() => pe.addTo(y, 16), RangeError, /^sinpe: x\.length \(24\) must be a positive multiple of dModel \(16\)$/);
    refused(() => pe.addTo(new Float32Array(0), d), RangeError, /^sinpe: x\.length \(0\) must be a positive multiple of dModel \(8\)$/);
    refused(() => pe.addTo(y, d, { start: 1.5 }), RangeError, /^sinpe: options\.start must be an integer, got 1\.5$/);
    refused(() => pe.addTo(y, d, { start: MAX_POSITION - 2 }), RangeError, new RegExp(`^sinpe: rows \\[${MAX_POSITION - 2}, ${MAX_POSITION + 1}\\) from options\\.start and options\\.seqLen must satisfy`));
    refused(() => pe.addTo(y, d, { start: '0' }), TypeError, /^sinpe: options\.start must be a number/);
    unchanged('refused');
    // seqLen 1: every row of x is a sequence at position start.
    const z = x0.slice();
    pe.addTo(z, d, { seqLen: 1, start: MAX_POSITION - 1 });
    const want = referenceRow(MAX_POSITION - 1, d);
    for (let i = 0; i < z.length; i++) assert.ok(Math.abs(z[i] - (x0[i] + want[i % d])) <= 2 * TOLERANCE, `${f} seqLen 1: z[${i}]`);
  }
});

// heatmap(start, count, dModel, options): README's window columnStart /
// columns (default: the rest of the row from columnStart), range vmin … vmax
// (default −1 … 1), and docs/maths.md §4's entry: ⌊v·a + b⌋ clamped to
// [0, 255], a = 255/(vmax − vmin), b = 0.5 − vmin·a. Without a colormap the
// pixels are gray (R = G = B = the entry, A = 255).
test('heatmap: its defaults (gray, the rest of the row, −1 … 1) and an out', () => {
  const entryOf = (v, vmin, vmax) => {
    const a = 255 / (vmax - vmin);
    const t = v * a + (0.5 - vmin * a);
    return t <= 0 ? 0 : t >= 255 ? 255 : Math.floor(t);
  };
  for (const f of FLAVOURS) {
    const pe = flavours[f];
    const d = 16;
    const start = 30;
    const count = 5;
    const check = (px, col0, cols, vmin, vmax, what) => {
      assert.ok(px instanceof Uint8ClampedArray, what);
      assert.equal(px.length, count * cols * 4, `${what}: length`);
      for (let r = 0; r < count; r++) {
        const row = referenceRow(start + r, d);
        for (let c = 0; c < cols; c++) {
          const k = (r * cols + c) * 4;
          const want = entryOf(row[col0 + c], vmin, vmax);
          // float32 a, b and t: one entry either side of an exact bin edge.
          assert.ok(Math.abs(px[k] - want) <= 1, `${what}: row ${r} column ${c}: entry ${px[k]}, want ${want}`);
          assert.deepEqual([px[k + 1], px[k + 2], px[k + 3]], [px[k], px[k], 255], `${what}: gray, opaque`);
        }
      }
    };
    check(pe.heatmap(start, count, d), 0, d, -1, 1, `${f} no options`);
    check(pe.heatmap(start, count, d, { columnStart: 5 }), 5, d - 5, -1, 1, `${f} columnStart 5`);
    check(pe.heatmap(start, count, d, { columns: 3 }), 0, 3, -1, 1, `${f} columns 3`);
    check(pe.heatmap(start, count, d, { vmin: 0 }), 0, d, 0, 1, `${f} vmin 0`);
    check(pe.heatmap(start, count, d, { vmax: 3 }), 0, d, -1, 3, `${f} vmax 3`);
    // Each default is one value: vmin alone past the default vmax, vmax alone below the default vmin.
    refused(() => pe.heatmap(start, count, d, { vmin: 1 }), RangeError, /^sinpe: options\.vmin \(1\) must be less than options\.vmax \(1\)/);
    refused(() => pe.heatmap(start, count, d, { vmax: -1 }), RangeError, /^sinpe: options\.vmin \(-1\) must be less than options\.vmax \(-1\)/);
    // An out is filled and returned; with no rows or no columns it is returned as it is.
    const out = new Uint8ClampedArray(count * 4 * 4).fill(9);
    assert.equal(pe.heatmap(start, count, d, { columnStart: 2, columns: 4, out }), out);
    check(out, 2, 4, -1, 1, `${f} out`);
    const empty = new Uint8ClampedArray(0);
    assert.equal(pe.heatmap(start, 0, d, { out: empty }), empty);
    assert.equal(pe.heatmap(start, count, d, { columnStart: d, columns: 0, out: empty }), empty);
    refused(() => pe.heatmap(start, count, d, { out: new Uint8ClampedArray(4) }), RangeError, new RegExp(`^sinpe: options\\.out must have length ${count * d * 4}, got 4$`));
    refused(() => pe.heatmap(start, count, d, { colormap: new Uint8Array(1020) }), TypeError, /^sinpe: options\.colormap must be a Uint8Array of 256 RGBA entries \(length 1024\), got length 1020$/);
    for (const [key, v] of [['start', '0'], ['count', null]]) {
      const args = { start, count, [key]: v };
      refused(() => pe.heatmap(args.start, args.count, d), TypeError, new RegExp(`^sinpe: ${key} must be a number`));
    }
  }
});

// applyRope(x, positions, headDim, options) and prepareRope(r).apply(x,
// positions, headDim, { layout }): README's RoPE section; the layouts are
// the vocabulary's ropeLayouts (the first is the default), the rotation
// rope-reference.mjs's ropeRotate.
test('applyRope and apply: the layout option, empty positions and x lengths', () => {
  const ROTATION_TOLERANCE = 5e-7; // × (|x_a| + |x_b|), as chunk-loop
  const near = (got, x0, positions, headDim, o, what) => {
    const want = ropeRotate(x0, positions, headDim, o);
    const scale = pairMagnitudes(x0, headDim, o.rotaryDim ?? headDim, o.layout ?? 'half');
    for (let i = 0; i < want.length; i++)
      if (!(Math.abs(got[i] - want[i]) <= ROTATION_TOLERANCE * scale[i] + 1e-30)) assert.fail(`${what}: x[${i}] = ${got[i]}, reference ${want[i]}`);
  };
  const [first, second] = vocabulary.ropeLayouts;
  for (const f of FLAVOURS) {
    const pe = flavours[f];
    const hd = 8;
    const positions = [3, 1000, 7];
    const x0 = Float32Array.from({ length: positions.length * 2 * hd }, (_, i) => Math.sin(i + 1));
    const rope = pe.prepareRope(hd);
    const calls = {
      applyRope: (x, p, headDim, o) => pe.applyRope(x, p, headDim, o),
      apply: (x, p, headDim, o) => rope.apply(x, p, headDim, o),
    };
    for (const [what, call] of Object.entries(calls)) {
      for (const o of [undefined, { layout: first }, { layout: second }]) {
        const x = x0.slice();
        assert.equal(call(x, positions, hd, o), x);
        near(x, x0, positions, hd, { layout: o?.layout ?? first }, `${f} ${what} ${JSON.stringify(o)}`);
      }
      const y = x0.slice();
      refused(() => call(y, positions, hd, { layout: 'concat' }), RangeError, new RegExp(`^sinpe: options\\.layout must be one of .*${first}.*${second}.* for RoPE; got "concat"$`));
      refused(() => call(y, positions, hd, { layout: 1 }), TypeError, /^sinpe: options\.layout must be a string, got 1$/);
      refused(() => call(y, positions, '8'), TypeError, /^sinpe: headDim must be a number/);
      // No positions: only an empty x matches; an empty x with positions is refused.
      const empty = new Float32Array(0);
      assert.equal(call(empty, [], hd), empty);
      refused(() => call(y, [], hd), RangeError, new RegExp(`^sinpe: x\\.length \\(${y.length}\\) must be a positive multiple of positions × headDim \\(0\\)$`));
      refused(() => call(empty, positions, hd), RangeError, /^sinpe: x\.length \(0\) must be a positive multiple of positions × headDim \(24\)$/);
      refused(() => call(y.subarray(0, 36), positions, hd), RangeError, /^sinpe: x\.length \(36\) must be a positive multiple of positions × headDim \(24\)$/);
      refused(() => call(Array.from(y), positions, hd), TypeError, /^sinpe: x must be a Float32Array/);
      assert.deepEqual(y, x0, `${f} ${what}: x unchanged after the refusals`);
    }
    // A prepared RoPE's apply takes the layout only; the plan's options were given to prepareRope.
    refused(() => rope.apply(x0.slice(), positions, hd, { rotaryDim: 4 }), TypeError, /^sinpe: unknown option "rotaryDim"; apply takes: layout$/);
    // applyRope: rotaryDim below headDim leaves the rest of each head as it was.
    const x = x0.slice();
    pe.applyRope(x, positions, hd, { rotaryDim: 4 });
    near(x, x0, positions, hd, { rotaryDim: 4 }, `${f} rotaryDim 4`);
    for (let i = 0; i < x.length; i++) if (i % hd >= 4) assert.equal(x[i], x0[i], `${f} rotaryDim 4: x[${i}] passes through`);
  }
});

test("a grid's height and width are named when they are not numbers", () => {
  const pe = flavours.simd;
  const rope = pe.prepareRope(8, { ropeAxes: 'pixtral' });
  const calls = {
    grid2d: (h, w) => pe.grid2d(h, w, 8),
    ropeCacheGrid: (h, w) => pe.ropeCacheGrid(h, w, 8, { ropeAxes: 'pixtral' }),
    'prepareRope().grid': (h, w) => rope.grid(h, w),
  };
  for (const [what, call] of Object.entries(calls)) {
    refused(() => call('2', 2), TypeError, /^sinpe: height must be a number, got "2"$/);
    refused(() => call(2, '2'), TypeError, /^sinpe: width must be a number, got "2"$/);
    refused(() => call(2, 2n), TypeError, /^sinpe: width must be a number, got 2n$/);
    assert.ok(call(2, 3) !== undefined, `${what}: accepted with numbers`);
  }
  refused(() => pe.grid2d(2, 2, 8, { clsToken: 1 }), TypeError, /^sinpe: options\.clsToken must be a boolean, got 1$/);
  assert.equal(pe.grid2d(2, 3, 8, { clsToken: true }).length, (2 * 3 + 1) * 8);
  assert.equal(pe.grid2d(2, 3, 8, { clsToken: false }).length, 2 * 3 * 8);
});

test("applyRope names its options and options.rotaryDim when they are not what they must be", () => {
  const pe = flavours.simd;
  const x = new Float32Array(8).fill(3);
  for (const options of ['half', 5, null]) {
    refused(() => pe.applyRope(x, [1], 8, options), TypeError, /^sinpe: options must be/);
    refused(() => pe.prepareRope(8).apply(x, [1], 8, options), TypeError, /^sinpe: options must be/);
  }
  refused(() => pe.applyRope(x, [1], 8, { rotaryDim: '4' }), TypeError, /^sinpe: options\.rotaryDim must be a number, got "4"$/);
  assert.ok(x.every((v) => v === 3), 'x unchanged');
});

test('tokens wider than the scratch with several position axes: each token rotated at its own positions', () => {
  // Qwen2-VL's sectioned RoPE (mrope-reference.mjs): mropeSection [2, 2] of
  // rotaryDim 8, two positions per token. One token of 2^15 + 1 heads of 8 is
  // wider than the module's scratch (2^18 floats), so each token's heads are
  // rotated group by group at that token's positions.
  const hd = 8;
  const section = [2, 2];
  const numHeads = SCRATCH_FLOATS / hd + 1;
  const positions = [3, 70, 1000, 5, 12, 40000];
  const n = positions.length / section.length;
  const x0 = Float32Array.from({ length: n * numHeads * hd }, (_, i) => Math.sin(i * 0.37));
  const { cos, sin } = multiAxisCache(positions, hd, 'sectioned', section);
  const want = rotateHalf(x0, cos, sin, n, hd, hd);
  for (const f of FLAVOURS) {
    const pe = flavours[f];
    const calls = {
      applyRope: (x) => pe.applyRope(x, positions, hd, { mropeSection: section }),
      apply: (x) => pe.prepareRope(hd, { mropeSection: section }).apply(x, positions, hd),
    };
    for (const [what, call] of Object.entries(calls)) {
      const x = x0.slice();
      assert.equal(call(x), x);
      for (let i = 0; i < x.length; i++) {
        const j = i % hd;
        const mate = i - j + (j < hd / 2 ? j + hd / 2 : j - hd / 2);
        const bound = 5e-7 * (Math.abs(x0[i]) + Math.abs(x0[mate])) + 1e-30; // as chunk-loop
        if (!(Math.abs(x[i] - want[i]) <= bound)) assert.fail(`${f} ${what}: x[${i}] (token ${Math.floor(i / (numHeads * hd))}) = ${x[i]}, reference ${want[i]}`);
      }
    }
  }
});
