// Positions read where they are, as users get them (the installed tarball),
// both flavours, one-axis RoPE and M-RoPE (Qwen2-VL's sectioned [16, 24, 24],
// Qwen3-VL's interleaved). A typed array of positions is not copied when the
// call starts (js/args.js positionsArg): the chunk loop (js/engine.js
// Engine.run) reads it into the module, checking a list of several chunks
// whole before it writes anything. So:
// - a bad position in the LAST chunk is refused by name with nothing written
//   (ropeCache, prepareRope().cache, applyRope, encode; Float64Array,
//   Float32Array, Int32Array positions);
// - a getter of `out` that runs after the positions were taken may change,
//   detach or shrink them: the call uses them as they are when it starts
//   computing, or refuses them by name (positionsChecked);
// - positions sharing memory with what the call writes (out.cos, out.sin, x)
//   or lying in the module's own memory (found through a chunks() view), or
//   in another module's memory during its chunks() callback, give the values
//   of the positions as they were when the call began (positionsToRead);
// - the multi-axis kernel's split of positions into blocks and rows
//   (cpp/src/axes_kernel.hpp: runs, tiles of 32 tokens, a token copying the
//   one before it) at the edges of its runs.
// Expected values come from the independent float64 references
// (mrope-reference.mjs, rope-reference.mjs, reference.mjs), never from sinpe.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadWithMemory } from './wasm-memory.mjs';
import sinpe from 'sinpe.wasm';
import { multiAxisCache } from './mrope-reference.mjs';
import { ropeCache as referenceCache, ropeRotate, pairMagnitudes } from './rope-reference.mjs';
import { referenceRow, TOLERANCE } from './reference.mjs';
import { refused } from './refused.mjs';

const POSITION_CHUNK = 4096; // cpp/bindings/glue.cpp kPositionChunk
const SCRATCH_FLOATS = 2 ** 18; // cpp/bindings/glue.cpp kScratchFloats
const CACHE_TOLERANCE = 2.5e-7; // × max(1, attention factor)
const ROTATION_TOLERANCE = 5e-7; // × (|x_a| + |x_b|)
const SENTINEL = 12345;
const R = 128;
const HALF = R / 2;

// The two plans: one axis, and Qwen2-VL's three (base 1e6).
const PLANS = {
  'one axis': { axes: 1, options: {}, perChunk: SCRATCH_FLOATS / R },
  'M-RoPE': { axes: 3, options: { base: 1e6, mropeSection: [16, 24, 24] }, perChunk: Math.floor(POSITION_CHUNK / 3) },
};

// The reference cache of token-major positions for a plan.
function reference(plan, positions, options = plan.options) {
  if (plan.axes === 1) return referenceCache(Array.from(positions), R, options);
  const { mropeSection, ropeAxes = 'sectioned', ...rest } = options;
  return multiAxisCache(Array.from(positions), R, ropeAxes, mropeSection, rest);
}

// Every value of got ({ cos, sin }) within the cache contract of want, for n tokens.
function assertCache(got, want, n, what, half = HALF) {
  assert.equal(got.cos.length, n * half, `${what}: cos length`);
  assert.equal(got.sin.length, n * half, `${what}: sin length`);
  let checked = 0;
  for (let i = 0; i < n * half; i++) {
    const e = Math.max(Math.abs(got.cos[i] - want.cos[i]), Math.abs(got.sin[i] - want.sin[i]));
    if (!(e <= CACHE_TOLERANCE)) assert.fail(`${what}: token ${Math.floor(i / half)} pair ${i % half}: cos ${got.cos[i]} sin ${got.sin[i]}, reference ${want.cos[i]} ${want.sin[i]}`);
    checked++;
  }
  assert.ok(n > 0 && checked === n * half, `${what}: every value compared`);
}

// Token-major positions of n tokens on `axes` axes: token i at i + a·(i mod 5) on axis a.
function positionsOf(Type, n, axes) {
  const p = new Type(n * axes);
  for (let i = 0; i < n; i++) for (let a = 0; a < axes; a++) p[i * axes + a] = i + a * (i % 5);
  return p;
}

const flavours = {};
before(async () => {
  for (const simd of [true, false]) flavours[simd ? 'simd' : 'baseline'] = await loadWithMemory(() => sinpe({ simd }));
});

for (const flavour of ['simd', 'baseline']) {
  for (const [planName, plan] of Object.entries(PLANS)) {
    test(`${flavour} ${planName}: a bad position in the last chunk of a typed array is refused by name, nothing written`, () => {
      const { module: pe } = flavours[flavour];
      const n = 3 * plan.perChunk + 7; // four chunks
      const rope = pe.prepareRope(R, plan.options);
      for (const [Type, bad] of [[Float64Array, NaN], [Float32Array, -Infinity], [Int32Array, 2 ** 24]]) {
        const positions = positionsOf(Type, n, plan.axes);
        const at = positions.length - 1; // the last token's last axis
        positions[at] = bad;
        const what = `${Type.name} positions[${at}] = ${bad}`;
        const naming = new RegExp(`positions\\[${at}\\]`);
        const cos = new Float32Array(n * HALF).fill(SENTINEL);
        const sin = new Float32Array(n * HALF).fill(SENTINEL);
        const untouched = (label) => assert.ok(cos.every((v) => v === SENTINEL) && sin.every((v) => v === SENTINEL), `${label} ${what}: nothing written`);
        refused(() => pe.ropeCache(positions, R, { ...plan.options, out: { cos, sin } }), RangeError, naming);
        untouched('ropeCache');
        refused(() => rope.cache(positions, { cos, sin }), RangeError, naming);
        untouched('prepareRope().cache');
        const x = new Float32Array(n * R).fill(SENTINEL);
        refused(() => pe.applyRope(x, positions, R, plan.options), RangeError, naming);
        assert.ok(x.every((v) => v === SENTINEL), `applyRope ${what}: x unchanged`);
        if (plan.axes === 1) {
          const out = new Float32Array(n * 8).fill(SENTINEL);
          refused(() => pe.encode(positions, 8, { out }), RangeError, naming); // 4096 positions a chunk
          assert.ok(out.every((v) => v === SENTINEL), `encode ${what}: nothing written`);
        }
        // The module stays usable: the list made good is computed whole.
        positions[at] = 3;
        const want = reference(plan, positions);
        assertCache(pe.ropeCache(positions, R, { ...plan.options, out: { cos, sin } }), want, n, `ropeCache ${Type.name} made good`);
        assertCache(rope.cache(positions), want, n, `prepareRope().cache ${Type.name} made good`);
      }
    });

    test(`${flavour} ${planName}: a getter of out that changes, detaches or shrinks the positions after they were taken`, () => {
      const { module: pe } = flavours[flavour];
      const n = 2 * plan.perChunk + 3;
      const cos = new Float32Array(n * HALF);
      const sin = new Float32Array(n * HALF);
      const out = (act) => ({
        get cos() {
          act();
          return cos;
        },
        sin,
      });
      const untouched = (what) => assert.ok(cos.every((v) => v === SENTINEL) && sin.every((v) => v === SENTINEL), `${what}: nothing written`);

      // Values changed: the call computes the positions as they are once its arguments are read.
      const positions = positionsOf(Float64Array, n, plan.axes);
      const shifted = positions.map((p) => p + 1000);
      const got = pe.ropeCache(positions, R, { ...plan.options, out: out(() => positions.set(shifted)) });
      assertCache(got, reference(plan, shifted), n, 'out getter shifting every position');
      // A bad value written into the last chunk: refused naming it, nothing written.
      cos.fill(SENTINEL);
      sin.fill(SENTINEL);
      const last = positions.length - 1;
      refused(() => pe.ropeCache(positions, R, { ...plan.options, out: out(() => (positions[last] = NaN)) }), RangeError, new RegExp(`positions\\[${last}\\]`));
      untouched('out getter writing NaN');
      // Detached: the same error as positions given detached.
      const doomed = positionsOf(Float64Array, n, plan.axes);
      refused(() => pe.ropeCache(doomed, R, { ...plan.options, out: out(() => structuredClone(doomed.buffer, { transfer: [doomed.buffer] })) }), TypeError, /positions is detached/);
      untouched('out getter detaching positions');
      const rope = pe.prepareRope(R, plan.options);
      const doomed2 = positionsOf(Float64Array, n, plan.axes);
      refused(() => rope.cache(doomed2, out(() => structuredClone(doomed2.buffer, { transfer: [doomed2.buffer] }))), TypeError, /positions is detached/);
      untouched('prepared cache, out getter detaching positions');
      // Shrunk below a fixed-length array: out of bounds.
      const buffer = new ArrayBuffer(n * plan.axes * 8, { maxByteLength: n * plan.axes * 8 });
      const fixed = new Float64Array(buffer, 0, n * plan.axes);
      fixed.set(positionsOf(Float64Array, n, plan.axes));
      refused(() => pe.ropeCache(fixed, R, { ...plan.options, out: out(() => buffer.resize(8 * plan.axes)) }), TypeError, /positions is out of bounds/);
      untouched('out getter shrinking positions');
      // And the module stays usable.
      const good = positionsOf(Float64Array, n, plan.axes);
      assertCache(pe.ropeCache(good, R, plan.options), reference(plan, good), n, 'after the refusals');
    });

    test(`${flavour} ${planName}: positions sharing memory with out.cos, out.sin or x give the values they had when the call began`, () => {
      const { module: pe } = flavours[flavour];
      const n = 2 * plan.perChunk + 11;
      const values = positionsOf(Float64Array, n, plan.axes);
      const want = reference(plan, values);
      const posBytes = values.length * 8;
      const cacheBytes = n * HALF * 4;
      // In cos's tail (written by the last chunk), in sin's head (written by the first), across both.
      for (const [label, cosAt, sinAt, posAt] of [
        ['the tail of out.cos', 0, cacheBytes, cacheBytes - posBytes + 8 * 3],
        ['the head of out.sin', 0, cacheBytes, cacheBytes],
        ['out.cos and out.sin', 0, cacheBytes, cacheBytes - 8 * Math.floor(posBytes / 16)],
      ]) {
        const buffer = new ArrayBuffer(Math.max(sinAt + cacheBytes, posAt + posBytes));
        const cos = new Float32Array(buffer, cosAt, n * HALF);
        const sin = new Float32Array(buffer, sinAt, n * HALF);
        const positions = new Float64Array(buffer, posAt, values.length);
        positions.set(values);
        assertCache(pe.ropeCache(positions, R, { ...plan.options, out: { cos, sin } }), want, n, `positions in ${label}`);
        positions.set(values);
        assertCache(pe.prepareRope(R, plan.options).cache(positions, { cos, sin }), want, n, `prepared, positions in ${label}`);
      }
      // applyRope: positions inside x (one head of R), where the first chunk's tokens are rotated.
      const x0 = Float32Array.from({ length: n * R }, (_, i) => Math.sin(i * 0.37));
      const x = new Float32Array(new ArrayBuffer(n * R * 4), 0, n * R);
      x.set(x0);
      const positions = new Float64Array(x.buffer, 64, values.length);
      positions.set(values);
      const before = x.slice(); // x as the call sees it: the positions written over part of it
      pe.applyRope(x, positions, R, plan.options);
      assertRotated(x, before, values, plan, n, 'positions inside x');
    });

    test(`${flavour} ${planName}: positions in the module's own memory, where its chunks write`, () => {
      const { module: pe, heap } = flavours[flavour];
      // The scratch the module writes every chunk into: where a chunks() view lies.
      let scratch = -1;
      pe.prepare(8).chunks(0, 1, (view) => {
        scratch = view.byteOffset;
      });
      assert.ok(scratch > 0 && scratch % 8 === 0, `the scratch is at byte ${scratch}`);
      const n = 3 * plan.perChunk + 5;
      const values = positionsOf(Float64Array, n, plan.axes);
      const want = reference(plan, values);
      const inMemory = () => {
        const p = new Float64Array(heap(), scratch, values.length);
        p.set(values);
        return p;
      };
      assertCache(pe.ropeCache(inMemory(), R, plan.options), want, n, 'ropeCache, positions in the scratch');
      assertCache(pe.prepareRope(R, plan.options).cache(inMemory()), want, n, 'prepareRope().cache, positions in the scratch');
      const x0 = Float32Array.from({ length: n * R }, (_, i) => Math.cos(i * 0.11));
      const x = x0.slice();
      pe.applyRope(x, inMemory(), R, plan.options);
      assertRotated(x, x0, values, plan, n, 'applyRope, positions in the scratch');
    });

    test(`${flavour} ${planName}: positions in another module's memory during its chunks() callback, detached after it`, () => {
      const { module: pe } = flavours[flavour];
      const other = flavours[flavour === 'simd' ? 'baseline' : 'simd'].module;
      const n = 2 * plan.perChunk + 9;
      const values = positionsOf(Float64Array, n, plan.axes);
      const want = reference(plan, values);
      let positions;
      let calls = 0;
      other.prepare(8).chunks(0, 1, (view) => {
        // The callback's view is the caller's to write: positions go into the other module's scratch.
        positions = new Float64Array(view.buffer, view.byteOffset, values.length);
        positions.set(values);
        assertCache(pe.ropeCache(positions, R, plan.options), want, n, 'inside the callback');
        // The other module refuses to be called from its own callback.
        refused(() => other.ropeCache(positions, R, plan.options), TypeError, /inside a chunks\(\) callback/);
        calls++;
      });
      assert.equal(calls, 1, 'the callback ran once');
      refused(() => pe.ropeCache(positions, R, plan.options), TypeError, /positions is detached/);
      assertCache(pe.ropeCache(values, R, plan.options), want, n, 'after the refusal');
    });
  }

  test(`${flavour}: encode with positions in the module's scratch, several chunks`, () => {
    const { module: pe, heap } = flavours[flavour];
    let scratch = -1;
    pe.prepare(8).chunks(0, 1, (view) => {
      scratch = view.byteOffset;
    });
    const n = 2 * POSITION_CHUNK + 17;
    const values = Float64Array.from({ length: n }, (_, i) => (i * 37) % 5000);
    const positions = new Float64Array(heap(), scratch, n);
    positions.set(values);
    const got = pe.encode(positions, 8);
    for (let i = 0; i < n; i++) {
      const want = referenceRow(values[i], 8);
      for (let c = 0; c < 8; c++) if (!(Math.abs(got[i * 8 + c] - want[c]) <= TOLERANCE)) assert.fail(`encode row ${i} column ${c}: ${got[i * 8 + c]} vs ${want[c]}`);
    }
  });
}

// x (n tokens of one head of R) against the reference rotation of x0 at the plan's positions.
function assertRotated(x, x0, positions, plan, n, what) {
  let want;
  if (plan.axes === 1) want = ropeRotate(x0, Array.from(positions), R, plan.options);
  else {
    // q·cos + rotate_half(q)·sin with the multi-axis reference cache.
    const { cos, sin } = reference(plan, positions);
    want = new Float64Array(x0.length);
    for (let t = 0; t < n; t++)
      for (let j = 0; j < HALF; j++) {
        const a = x0[t * R + j];
        const b = x0[t * R + j + HALF];
        const c = cos[t * HALF + j];
        const s = sin[t * HALF + j];
        want[t * R + j] = a * c - b * s;
        want[t * R + j + HALF] = b * c + a * s;
      }
  }
  const scale = pairMagnitudes(x0, R, R, 'half');
  for (let i = 0; i < x.length; i++) {
    const e = Math.abs(x[i] - want[i]);
    if (!(e <= ROTATION_TOLERANCE * scale[i] + 1e-30)) assert.fail(`${what}: x[${i}] = ${x[i]}, reference ${want[i]} (error ${e})`);
  }
}

// ---------------------------------------------------------------------------
// The multi-axis kernel's runs (axes_kernel.hpp AxisBlocks::split: tiles of 32
// tokens, blocks of 64 rows, a token whose row and block on an axis are the
// previous token's copying its values), through both flavours, against the
// reference. Each pattern gives token i's position on one axis.

const TOKENS = 700;
const PATTERNS = {
  'a text run': (i) => i,
  'runs broken at every block edge': (i) => i + 1000 * Math.floor(i / 64),
  'runs broken one token before block edges': (i) => i + 1000 * Math.floor((i + 1) / 64),
  'one repeated position across tile edges': (i) => 3 * Math.floor((i + 20) / 25),
  'runs of length 1 (two blocks alternating)': (i) => (i % 2 ? 5000 + i : i),
  'more blocks in one tile than anchor slots': (i) => 64 * ((i * 7) % 45) + (i % 64),
  'an integral run broken by fractions': (i) => (i % 5 === 2 ? i + 0.5 : i),
  '+0, -0 and 1': (i) => [-0, 0, 1][i % 3],
  'a fraction above a block start between integers below it': (i) => (i % 4 === 0 ? -1 + 2 ** -52 : -(i % 64)),
  'descending across zero': (i) => 300 - i,
  'step 2 in groups of 7 (the benchmark)': (i) => i + (i % 7),
  'the largest positions': (i) => 16777215 - (i % 130),
  'negative blocks': (i) => -16777215 + i,
};

// Text, an image (t constant, h constant along a row, w consecutive), text: Qwen2-VL's positions.
function textImageText(axes) {
  const p = [];
  const token = (t, h, w) => p.push(...[t, h, w, w].slice(0, axes));
  for (let i = 0; i < 40; i++) token(i, i, i);
  for (let row = 0; row < 12; row++) for (let col = 0; col < 45; col++) token(40, 40 + row, 40 + col);
  for (let i = 0; i < 100; i++) token(85 + i, 85 + i, 85 + i);
  return p;
}

const LAYOUTS = [
  ['sectioned', { base: 1e6, mropeSection: [16, 24, 24] }],
  ['interleaved', { base: 5e6, mropeSection: [24, 20, 20], ropeAxes: 'interleaved' }],
  ['axial', { mropeSection: [32, 32], ropeAxes: 'axial' }],
];

for (const flavour of ['simd', 'baseline'])
  test(`${flavour}: multi-axis caches at the edges of the kernel's runs and tiles equal the reference, whole and in pieces`, () => {
    const { module: pe } = flavours[flavour];
    const names = Object.keys(PATTERNS);
    let lists = 0;
    for (const [axesName, options] of LAYOUTS) {
      const axes = options.mropeSection.length;
      const plan = { axes, options };
      const cases = [['text, image, text', textImageText(axes)]];
      names.forEach((name, k) => {
        // Every axis this pattern; then each axis another pattern.
        const same = [];
        const mixed = [];
        for (let i = 0; i < TOKENS; i++)
          for (let a = 0; a < axes; a++) {
            same.push(PATTERNS[name](i));
            mixed.push(PATTERNS[names[(k + 4 * a) % names.length]](i));
          }
        cases.push([name, same], [`${name}, other axes mixed`, mixed]);
      });
      for (const [name, list] of cases) {
        const positions = Float64Array.from(list);
        const n = positions.length / axes;
        const want = reference(plan, positions, { ...options, ropeAxes: options.ropeAxes ?? 'sectioned' });
        const whole = pe.ropeCache(positions, R, options);
        assertCache(whole, want, n, `${axesName}: ${name}`);
        // In calls of 1, 31, 32, 33, 64 and 2 tokens: every bit the same as the whole call.
        const rope = pe.prepareRope(R, options);
        for (let t0 = 0, k = 0; t0 < n; k++) {
          const m = Math.min(n - t0, [1, 31, 32, 33, 64, 2][k % 6]);
          const part = rope.cache(positions.subarray(t0 * axes, (t0 + m) * axes));
          const at = t0 * HALF;
          for (let i = 0; i < m * HALF; i++)
            if (!Object.is(part.cos[i], whole.cos[at + i]) || !Object.is(part.sin[i], whole.sin[at + i]))
              assert.fail(`${axesName}: ${name}: tokens ${t0}…${t0 + m - 1} alone differ from the whole call at value ${i}`);
          t0 += m;
        }
        lists++;
      }
    }
    assert.equal(lists, LAYOUTS.length * (1 + 2 * names.length), 'every list checked');
  });

for (const flavour of ['simd', 'baseline'])
  test(`${flavour}: ropeCacheGrid (rows of constant height, consecutive widths) equals the reference`, () => {
    const { module: pe } = flavours[flavour];
    for (const [height, width] of [[1, 1], [3, 70], [33, 31], [65, 2]]) {
      const options = { mropeSection: [32, 32], ropeAxes: 'axial' };
      const got = pe.ropeCacheGrid(height, width, R, options);
      const positions = [];
      for (let row = 0; row < height; row++) for (let col = 0; col < width; col++) positions.push(row, col);
      assertCache(got, multiAxisCache(positions, R, 'axial', [32, 32]), height * width, `grid ${height} × ${width}`);
    }
  });
