// Re-entrancy and inheritance, generated rather than case by case, through the
// packed tarball. Every public method (sinusoidal, RoPE, prepared, chunks) is
// called with arguments whose every caller-controlled part is instrumented:
// option getters or a Proxy options object, a nested `out` object the same
// way, Array positions and factor arrays with element getters or as Proxies,
// valueOf / toString / Symbol.toPrimitive on numbers and names, an own
// Symbol.iterator on arrays, and the chunks callback. A first run records the
// points where the package runs caller code (each must run at most once: the
// package reads every value once). Then, from each point, every method is
// called again with other widths and options (each inner result checked
// against the reference too): the outer result must still equal the
// independent float64 reference (reference.mjs, rope-reference.mjs), or the
// call must throw a TypeError/RangeError naming an argument.
// Inheritance: every option and nested key a method takes, and every option of
// the vocabulary, inherited through Object.create(proto) and from a polluted
// Object.prototype (removed again before any assertion): the result must be
// the one without it, and an error's message must show nothing inherited.
// Prints its case count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import sinpe, { vocabulary } from 'sinpe.wasm';
import { referenceRow, referenceGrid, TOLERANCE } from './reference.mjs';
import { ropeCache as refCache, ropeRotate, pairMagnitudes, ropeParameters } from './rope-reference.mjs';
import { multiAxisCache, gridPositions, rotateHalf, halfBits } from './mrope-reference.mjs';

const CACHE_TOLERANCE = 2.5e-7; // × max(1, att)
const ROTATION_TOLERANCE = 5e-7; // × max(1, att) × (|x_a| + |x_b|)
const FREQUENCY_TOLERANCE = 1e-12; // relative

const flavours = {};
const counts = { points: 0, reentry: 0, inherited: 0, polluted: 0, coercion: 0 };
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});
after(() => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const line = `re-entrancy/inheritance: ${total} cases — ${counts.points} caller-code points found, ${counts.reentry} re-entries, ${counts.inherited} inherited options, ${counts.polluted} polluted Object.prototype, ${counts.coercion} coercion hooks`;
  console.log(line);
  if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `${line}\n`);
});

// ---------------------------------------------------------------------------
// Instrumentation. `hook(label)` is called at every point caller code runs.

// An options-like object whose every own key is a getter (mode 'getter') or
// whose every access goes through Proxy traps (mode 'proxy'); 'plain' is the
// object itself.
let override = null; // (name, values, mode) => object: the inheritance tests' options objects
function instrumented(hook, name, values, mode) {
  if (override) return override(name, values, mode);
  if (mode === 'plain') return values;
  if (mode === 'getter') {
    const o = {};
    for (const key of Object.keys(values))
      Object.defineProperty(o, key, {
        enumerable: true,
        get() {
          hook(`${name}.${key} getter`);
          return values[key];
        },
      });
    return o;
  }
  return new Proxy(values, {
    ownKeys(t) {
      hook(`${name} ownKeys trap`);
      return Reflect.ownKeys(t);
    },
    getOwnPropertyDescriptor(t, k) {
      hook(`${name} getOwnPropertyDescriptor(${String(k)}) trap`);
      return Reflect.getOwnPropertyDescriptor(t, k);
    },
    get(t, k, r) {
      hook(`${name} get(${String(k)}) trap`);
      return Reflect.get(t, k, r);
    },
    has(t, k) {
      hook(`${name} has(${String(k)}) trap`);
      return Reflect.has(t, k);
    },
  });
}

// An Array of numbers with element getters ('getter') or as a Proxy ('proxy');
// both carry an own Symbol.iterator that reports being called.
function instrumentedArray(hook, name, values, mode) {
  if (mode === 'plain') return values.slice();
  const a = values.slice();
  Object.defineProperty(a, Symbol.iterator, {
    value() {
      hook(`${name}[Symbol.iterator]`);
      return Array.prototype[Symbol.iterator].call(values);
    },
  });
  if (mode === 'getter') {
    values.forEach((v, i) =>
      Object.defineProperty(a, i, {
        enumerable: true,
        get() {
          hook(`${name}[${i}] getter`);
          return v;
        },
      }),
    );
    return a;
  }
  return new Proxy(a, {
    get(t, k, r) {
      if (typeof k === 'string') hook(`${name} get(${k}) trap`);
      return Reflect.get(t, k, r);
    },
    has(t, k) {
      hook(`${name} has(${String(k)}) trap`);
      return Reflect.has(t, k);
    },
    ownKeys(t) {
      hook(`${name} ownKeys trap`);
      return Reflect.ownKeys(t);
    },
  });
}

// Reference values, computed once per scenario (outside any pollution: the
// references read their option objects the ordinary way).
const memo = new Map();
const W = (key, f) => {
  if (!memo.has(key)) memo.set(key, f());
  return memo.get(key);
};

const near = (got, want, tol, what) => {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(got[i] - want[i]);
    if (!(e <= tol)) assert.fail(`${what}[${i}] = ${got[i]}, reference ${want[i]} (error ${e} > ${tol})`);
  }
};
const rowsOf = (ps, d, o) => {
  const out = new Float64Array(ps.length * d);
  ps.forEach((p, i) => out.set(referenceRow(p, d, o), i * d));
  return out;
};
const checkCache = (got, ps, r, o, what) => {
  const want = W(`cache ${what}`, () => refCache(ps, r, o));
  const tol = CACHE_TOLERANCE * Math.max(1, Math.abs(want.attentionFactor));
  near(got.cos, want.cos, tol, `${what} cos`);
  near(got.sin, want.sin, tol, `${what} sin`);
  assert.ok(Math.abs(got.attentionFactor - want.attentionFactor) <= 1e-12 * Math.max(1, want.attentionFactor), `${what} attentionFactor`);
};

// Half-precision bits against the float64 values rounded once (either
// neighbour where the reference lies within its own error of a boundary).
const nearHalf = (got, want, dtype, what) => {
  assert.ok(got instanceof Uint16Array, `${what}: a Uint16Array`);
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) {
    const { either } = halfBits(want[i], dtype, 1e-13);
    if (!either.includes(got[i])) assert.fail(`${what}[${i}] = ${got[i]}, reference ${want[i]} rounds to ${either}`);
  }
};
const checkAxes = (got, positions, r, axes, sections, what) => {
  const want = W(`axes ${what}`, () => multiAxisCache(positions, r, axes, sections));
  near(got.cos, want.cos, CACHE_TOLERANCE, `${what} cos`);
  near(got.sin, want.sin, CACHE_TOLERANCE, `${what} sin`);
};

// ---------------------------------------------------------------------------
// Scenarios: one per public method, each with its own width and options.
// call(pe, hook, mode) makes the call with instrumented arguments and checks
// its result against the reference (throwing an AssertionError if wrong).

const SHORT = [1, 1.5, 2, 3];
const LONG = [4, 6, 8, 16];
const ROTATE_X = Float32Array.from({ length: 3 * 2 * 10 }, (_, i) => Math.sin(i * 0.7) + 0.25);

const SCENARIOS = [
  {
    name: 'table',
    call(pe, hook, mode) {
      const o = { preset: 'vaswani', base: 500, out: new Float32Array(3 * 8) };
      const got = pe.table(3, 8, instrumented(hook, 'options', o, mode));
      assert.equal(got, o.out);
      near(got, W('table', () => rowsOf([0, 1, 2], 8, { base: 500 })), TOLERANCE, 'table');
    },
  },
  {
    name: 'rows',
    call(pe, hook, mode) {
      const o = { preset: 'fairseq', paddingIdx: 6, out: new Float32Array(2 * 6) };
      const got = pe.rows(5, 2, 6, instrumented(hook, 'options', o, mode));
      near(got, W('rows', () => rowsOf([5, 6], 6, { preset: 'fairseq', paddingIdx: 6 })), TOLERANCE, 'rows');
    },
  },
  {
    name: 'encode',
    call(pe, hook, mode) {
      const ps = [1, 2.5, 7];
      const o = { preset: 'tensor2tensor', maxTimescale: 1000, out: new Float32Array(3 * 10) };
      const got = pe.encode(instrumentedArray(hook, 'positions', ps, mode), 10, instrumented(hook, 'options', o, mode));
      near(got, W('encode', () => rowsOf(ps, 10, { preset: 'tensor2tensor', maxTimescale: 1000 })), TOLERANCE, 'encode');
    },
  },
  {
    name: 'grid2d',
    call(pe, hook, mode) {
      const o = { preset: 'mae', clsToken: true, out: new Float32Array(5 * 12) };
      const got = pe.grid2d(2, 2, 12, instrumented(hook, 'options', o, mode));
      const want = W('grid2d', () => {
        const w = new Float64Array(5 * 12);
        referenceGrid(2, 2, 12, { preset: 'mae', clsToken: true }).forEach((row, i) => w.set(row, i * 12));
        return w;
      });
      near(got, want, TOLERANCE, 'grid2d');
    },
  },
  {
    name: 'addTo',
    call(pe, hook, mode) {
      const x = Float32Array.from({ length: 2 * 2 * 4 }, (_, i) => i / 8);
      const before = Float64Array.from(x);
      pe.addTo(x, 4, instrumented(hook, 'options', { preset: 'diffusers', start: 3, seqLen: 2, scale: 2 }, mode));
      const want = before.slice();
      for (let b = 0; b < 2; b++)
        for (let r = 0; r < 2; r++) {
          const row = W(`addTo ${r}`, () => referenceRow(3 + r, 4, { preset: 'diffusers', scale: 2 }));
          for (let c = 0; c < 4; c++) want[(b * 2 + r) * 4 + c] += row[c];
        }
      near(x, want, 2 * TOLERANCE, 'addTo');
    },
  },
  {
    name: 'frequencies',
    call(pe, hook, mode) {
      const got = pe.frequencies(12, instrumented(hook, 'options', { preset: 'keras', base: 100 }, mode));
      const want = W('frequencies', () => Array.from({ length: 6 }, (_, k) => 100 ** ((-2 * k) / 12)));
      near(got, want, FREQUENCY_TOLERANCE, 'frequencies');
    },
  },
  {
    name: 'heatmap',
    call(pe, hook, mode) {
      // Entry i of the colormap is (i, 255 - i, 7, 255); columns 2 … 5 of rows 1, 2.
      const colormap = new Uint8Array(1024);
      for (let i = 0; i < 256; i++) colormap.set([i, 255 - i, 7, 255], 4 * i);
      const o = { preset: 'vaswani', colormap, columnStart: 2, columns: 4, vmin: -1, vmax: 1, out: new Uint8ClampedArray(2 * 4 * 4) };
      const got = pe.heatmap(1, 2, 8, instrumented(hook, 'options', o, mode));
      for (let r = 0; r < 2; r++) {
        const row = W(`heatmap ${r}`, () => referenceRow(1 + r, 8));
        for (let c = 0; c < 4; c++) {
          const v = row[2 + c];
          const at = (r * 4 + c) * 4;
          // The colour index is (v − vmin) / (vmax − vmin) · 255 within one step.
          const index = got[at];
          assert.equal(got[at + 1], 255 - index, 'heatmap: a colormap entry');
          assert.ok(Math.abs(index - ((v + 1) / 2) * 255) <= 1, `heatmap (${r}, ${c}): index ${index} for value ${v}`);
        }
      }
    },
  },
  {
    name: 'prepare+rows',
    call(pe, hook, mode) {
      const enc = pe.prepare(6, instrumented(hook, 'options', { preset: 'vaswani', base: 50 }, mode));
      near(enc.rows(4, 3), W('prepared rows', () => rowsOf([4, 5, 6], 6, { base: 50 })), TOLERANCE, 'prepared rows');
    },
  },
  {
    name: 'prepared.encode',
    call(pe, hook, mode) {
      const enc = pe.prepare(14, { preset: 'whisper' });
      const ps = [3, 0, 9.5];
      near(enc.encode(instrumentedArray(hook, 'positions', ps, mode)), W('prepared encode', () => rowsOf(ps, 14, { preset: 'whisper' })), TOLERANCE, 'prepared encode');
    },
  },
  {
    name: 'prepared.chunks',
    call(pe, hook, mode) {
      const enc = pe.prepare(16, { preset: 'guided-diffusion' });
      const seen = [];
      enc.chunks(2, 3, (view, first) => {
        if (mode !== 'plain') hook('chunks callback');
        seen.push([first, Float64Array.from(view)]);
      });
      assert.equal(seen.length, 1);
      near(seen[0][1], W('chunks', () => rowsOf([2, 3, 4], 16, { preset: 'guided-diffusion' })), TOLERANCE, 'prepared chunks');
    },
  },
  {
    name: 'ropeFrequencies',
    call(pe, hook, mode) {
      const o = { ropeType: 'linear', factor: 3 };
      const got = pe.ropeFrequencies(10, instrumented(hook, 'options', o, mode));
      const want = W('ropeFrequencies', () => ropeParameters(10, { ropeType: 'linear', factor: 3 }).invFreq);
      for (let j = 0; j < want.length; j++) assert.ok(Math.abs(got[j] - want[j]) <= FREQUENCY_TOLERANCE * want[j], `ropeFrequencies[${j}]`);
    },
  },
  {
    name: 'ropeCache',
    call(pe, hook, mode) {
      const ps = [0, 3, 40];
      const out = { cos: new Float32Array(3 * 4), sin: new Float32Array(3 * 4) };
      const o = {
        ropeType: 'longrope',
        shortFactor: instrumentedArray(hook, 'options.shortFactor', SHORT, mode),
        longFactor: instrumentedArray(hook, 'options.longFactor', LONG, mode),
        originalMaxPositions: 32,
        maxPositions: 128,
        seqLen: 64,
        out: instrumented(hook, 'options.out', out, mode),
      };
      const got = pe.ropeCache(instrumentedArray(hook, 'positions', ps, mode), 8, instrumented(hook, 'options', o, mode));
      assert.equal(got.cos, out.cos);
      checkCache(got, ps, 8, { ropeType: 'longrope', shortFactor: SHORT, longFactor: LONG, originalMaxPositions: 32, maxPositions: 128, seqLen: 64 }, 'ropeCache');
    },
  },
  {
    name: 'ropeCacheRows',
    call(pe, hook, mode) {
      const out = { cos: new Float32Array(3 * 6), sin: new Float32Array(3 * 6) };
      const o = { ropeType: 'yarn', factor: 4, originalMaxPositions: 64, out: instrumented(hook, 'options.out', out, mode) };
      const got = pe.ropeCacheRows(2, 3, 12, instrumented(hook, 'options', o, mode));
      assert.equal(got.sin, out.sin);
      checkCache(got, [2, 3, 4], 12, { ropeType: 'yarn', factor: 4, originalMaxPositions: 64 }, 'ropeCacheRows');
    },
  },
  {
    name: 'applyRope',
    call(pe, hook, mode) {
      const ps = [1, 5, 12];
      const x = ROTATE_X.slice();
      const o = { ropeType: 'llama3', factor: 8, originalMaxPositions: 16, rotaryDim: 6, layout: 'interleaved' };
      pe.applyRope(x, instrumentedArray(hook, 'positions', ps, mode), 10, instrumented(hook, 'options', o, mode));
      const want = W('applyRope', () => ropeRotate(ROTATE_X, ps, 10, { ...o }));
      const mag = W('applyRope magnitudes', () => pairMagnitudes(ROTATE_X, 10, 6, 'interleaved'));
      for (let i = 0; i < want.length; i++) {
        const tol = ROTATION_TOLERANCE * Math.max(1, mag[i]);
        if (!(Math.abs(x[i] - want[i]) <= tol)) assert.fail(`applyRope x[${i}] = ${x[i]}, reference ${want[i]}`);
      }
    },
  },
];

SCENARIOS.push(
  {
    name: 'rows dtype',
    call(pe, hook, mode) {
      const o = { preset: 'keras', dtype: 'float16', out: new Uint16Array(2 * 6) };
      const got = pe.rows(3, 2, 6, instrumented(hook, 'options', o, mode));
      assert.equal(got, o.out);
      nearHalf(got, W('rows dtype', () => rowsOf([3, 4], 6, { preset: 'keras' })), 'float16', 'rows dtype');
    },
  },
  {
    name: 'ropeCache multi-axis',
    call(pe, hook, mode) {
      const ps = [0, 1, 2, 9, 4, 5];
      const out = { cos: new Float32Array(2 * 4), sin: new Float32Array(2 * 4) };
      const o = { mropeSection: instrumentedArray(hook, 'options.mropeSection', [2, 1, 1], mode), ropeAxes: 'interleaved', out: instrumented(hook, 'options.out', out, mode) };
      const got = pe.ropeCache(instrumentedArray(hook, 'positions', ps, mode), 8, instrumented(hook, 'options', o, mode));
      assert.equal(got.cos, out.cos);
      checkAxes(got, ps, 8, 'interleaved', [2, 1, 1], 'ropeCache multi-axis');
    },
  },
  {
    name: 'ropeCacheGrid',
    call(pe, hook, mode) {
      const out = { cos: new Uint16Array(6 * 4), sin: new Uint16Array(6 * 4) };
      const o = { ropeAxes: 'pixtral', dtype: 'bfloat16', out: instrumented(hook, 'options.out', out, mode) };
      const got = pe.ropeCacheGrid(2, 3, 8, instrumented(hook, 'options', o, mode));
      assert.equal(got.sin, out.sin);
      const want = W('grid', () => multiAxisCache(gridPositions(2, 3), 8, 'pixtral', null));
      nearHalf(got.cos, want.cos, 'bfloat16', 'ropeCacheGrid cos');
      nearHalf(got.sin, want.sin, 'bfloat16', 'ropeCacheGrid sin');
    },
  },
  {
    name: 'prepareRope+cache',
    call(pe, hook, mode) {
      const rope = pe.prepareRope(12, instrumented(hook, 'options', { mropeSection: [3, 3], ropeAxes: 'axial' }, mode));
      const ps = [7, 1, 0.5, 30];
      const out = { cos: new Float32Array(2 * 6), sin: new Float32Array(2 * 6) };
      const got = rope.cache(instrumentedArray(hook, 'positions', ps, mode), instrumented(hook, 'out', out, mode));
      assert.equal(got.sin, out.sin);
      checkAxes(got, ps, 12, 'axial', [3, 3], 'prepareRope cache');
    },
  },
  {
    name: 'prepareRope.apply',
    call(pe, hook, mode) {
      const rope = pe.prepareRope(8, { ropeAxes: 'pixtral' });
      const ps = [1, 2, 3, 0, 5, 5];
      const x = ROTATE_X.slice();
      rope.apply(x, instrumentedArray(hook, 'positions', ps, mode), 10, instrumented(hook, 'options', { layout: 'half' }, mode));
      const want = W('prepared apply', () => {
        const c = multiAxisCache(ps, 8, 'pixtral', null);
        return rotateHalf(ROTATE_X, c.cos, c.sin, 3, 10, 8);
      });
      const mag = W('prepared apply magnitudes', () => pairMagnitudes(ROTATE_X, 10, 8, 'half'));
      for (let i = 0; i < want.length; i++)
        if (!(Math.abs(x[i] - want[i]) <= ROTATION_TOLERANCE * Math.max(1, mag[i]))) assert.fail(`prepared apply x[${i}] = ${x[i]}, reference ${want[i]}`);
    },
  },
);

// The inner calls: every scenario, uninstrumented, checked as well.
const inner = (pe, s) => s.call(pe, () => {}, 'plain');

// An error a call may end in: a TypeError/RangeError naming an argument.
const ARGUMENT = /^sinpe: (options|positions|x|dModel|rotaryDim|headDim|start|count|length|height|width|out|callback|this call needs positions|the encoder cannot be called inside a chunks\(\) callback)/;
function acceptableError(e) {
  return (e instanceof TypeError || e instanceof RangeError) && ARGUMENT.test(e.message);
}

for (const flavour of ['simd', 'baseline'])
  for (const s of SCENARIOS)
    test(`${flavour} ${s.name}: from every point where it runs caller code, every method re-entered; the result is the reference's`, () => {
      const pe = flavours[flavour];
      for (const mode of ['getter', 'proxy']) {
        // Record the points, each at most once.
        const fired = [];
        s.call(pe, (label) => fired.push(label), mode);
        const seen = new Map();
        for (const l of fired) seen.set(l, (seen.get(l) ?? 0) + 1);
        for (const [l, n] of seen) assert.equal(n, 1, `${s.name} (${mode}): ${l} ran ${n} times; each value is read once`);
        assert.ok(!fired.some((l) => l.includes('Symbol.iterator')), `${s.name} (${mode}): an array iterator ran`);
        counts.points += fired.length;
        if (mode === 'getter') assert.ok(fired.length > 0, `${s.name}: no point found (the instrumentation is broken)`);
        for (const point of fired)
          for (const other of SCENARIOS) {
            counts.reentry++;
            let reentered = false;
            const hook = (label) => {
              if (label !== point || reentered) return;
              reentered = true;
              try {
                inner(pe, other);
              } catch (e) {
                // Inside a chunks() callback the encoder refuses calls by name.
                if (!(point === 'chunks callback' && e instanceof TypeError && /inside a chunks\(\) callback/.test(e.message))) throw e;
              }
            };
            try {
              s.call(pe, hook, mode);
            } catch (e) {
              if (!acceptableError(e)) throw new Error(`${s.name} (${mode}) re-entered with ${other.name} at ${point}: ${e.message}`, { cause: e });
            }
            assert.ok(reentered, `${s.name} (${mode}): ${point} did not run again`);
          }
      }
      // The module still gives correct values afterwards.
      for (const other of SCENARIOS) inner(pe, other);
    });

// Numbers and names that are objects: the package never converts them (no
// valueOf / toString / Symbol.toPrimitive runs); the call is a TypeError naming the argument.
test('numbers and names given as objects with valueOf / toString / Symbol.toPrimitive: a TypeError naming them, no conversion runs', () => {
  const pe = flavours.simd;
  let ran = 0;
  const coercible = (v) => ({
    valueOf() {
      ran++;
      return v;
    },
    toString() {
      ran++;
      return String(v);
    },
    [Symbol.toPrimitive]() {
      ran++;
      return v;
    },
  });
  const cases = [
    ['dModel', () => pe.table(2, coercible(8))],
    ['length', () => pe.table(coercible(2), 8)],
    ['start', () => pe.rows(coercible(1), 2, 8)],
    ['count', () => pe.heatmap(0, coercible(2), 8)],
    ['options.base', () => pe.table(2, 8, { base: coercible(100) })],
    ['options.preset', () => pe.table(2, 8, { preset: coercible('keras') })],
    ['positions[0]', () => pe.encode([coercible(1)], 8)],
    ['rotaryDim', () => pe.ropeCache([1], coercible(8))],
    ['options.ropeType', () => pe.ropeCache([1], 8, { ropeType: coercible('linear'), factor: 2 })],
    ['options.shortFactor[0]', () => pe.ropeCache([1], 4, { ropeType: 'longrope', shortFactor: [coercible(1), 1], longFactor: [1, 1] })],
    ['headDim', () => pe.applyRope(new Float32Array(8), [1], coercible(8))],
    ['options.layout', () => pe.applyRope(new Float32Array(8), [1], 8, { layout: coercible('half') })],
    ['options.seqLen', () => pe.addTo(new Float32Array(8), 8, { seqLen: coercible(1) })],
    ['options.dtype', () => pe.rows(0, 1, 8, { dtype: coercible('float16') })],
    ['options.ropeAxes', () => pe.ropeCache([1, 1], 8, { ropeAxes: coercible('pixtral') })],
    ['height', () => pe.ropeCacheGrid(coercible(2), 2, 8, { ropeAxes: 'pixtral' })],
  ];
  for (const [name, call] of cases) {
    counts.coercion++;
    assert.throws(call, (e) => e instanceof TypeError && e.message.startsWith(`sinpe: ${name} must`), name);
  }
  assert.equal(ran, 0, 'a valueOf / toString / Symbol.toPrimitive ran');
});

// ---------------------------------------------------------------------------
// Inheritance

// Plausible wrong values for a key, of every type an option may take.
function pollutants(rotaryHalf = 4) {
  return [
    10,
    '10',
    '500',
    true,
    Array(rotaryHalf).fill(2),
    new Float32Array(64),
    new Uint8Array(1024),
    { cos: new Float32Array(64), sin: new Float32Array(64) },
    'interleaved',
    'keras',
    'linear',
    'float16',
    'pixtral',
  ];
}

// Every key a method may read: the vocabulary's options, the method-specific
// ones, and the nested out keys.
const KEYS = [
  ...new Set([
    ...vocabulary.options.map((o) => o.name),
    'preset', 'ropeType', 'layout', 'out', 'clsToken', 'start', 'seqLen', 'colormap', 'columnStart', 'columns',
    'vmin', 'vmax', 'rotaryDim', 'cos', 'sin', 'dtype', 'ropeAxes',
  ]),
];

// A scenario with every options object (and nested out) inheriting from
// `proto`, its own properties those of the plain call.
function withProto(pe, s, proto) {
  override = (name, values) => Object.assign(Object.create(proto), values);
  try {
    return s.call(pe, () => {}, 'plain');
  } finally {
    override = null;
  }
}

for (const flavour of ['simd', 'baseline'])
  test(`${flavour}: every key inherited through Object.create(proto) is not an option; every result is the reference's`, () => {
    const pe = flavours[flavour];
    for (const key of KEYS)
      for (const value of pollutants()) {
        const proto = { [key]: value };
        for (const s of SCENARIOS) {
          counts.inherited++;
          try {
            withProto(pe, s, proto);
          } catch (e) {
            throw new Error(`${s.name} with inherited ${key} = ${String(value)}: ${e.message}`, { cause: e });
          }
        }
      }
  });

// Runs fn with Object.prototype[key] = value, removed again before returning.
function polluted(key, value, fn) {
  const had = Object.getOwnPropertyDescriptor(Object.prototype, key);
  Object.defineProperty(Object.prototype, key, { value, writable: true, configurable: true, enumerable: true });
  try {
    return fn();
  } finally {
    if (had) Object.defineProperty(Object.prototype, key, had);
    else delete Object.prototype[key];
  }
}

for (const flavour of ['simd', 'baseline'])
  test(`${flavour}: every key on a polluted Object.prototype is not an option; results are the reference's, messages show nothing inherited`, () => {
    const pe = flavours[flavour];
    for (const s of SCENARIOS) inner(pe, s); // the references, computed unpolluted
    for (const key of KEYS)
      for (const value of pollutants()) {
        for (const s of SCENARIOS) {
          counts.polluted++;
          // The call runs polluted; its checks run after the pollution is gone.
          let result;
          polluted(key, value, () => {
            try {
              s.call(pe, () => {}, 'plain');
              result = null;
            } catch (e) {
              result = e;
            }
          });
          if (result !== null) throw new Error(`${s.name} with Object.prototype.${key} = ${String(value)}: ${result.message}`, { cause: result });
        }
      }
    // Error messages: every placeholder name polluted with a marker, errors of every kind raised.
    const marker = 'POLLUTED-MARKER';
    const names = new Set();
    for (const st of vocabulary.statuses) for (const m of `${st.message} ${st.argument}`.matchAll(/\{(\w+)\}/g)) names.add(m[1]);
    const raise = [
      () => pe.table(3, 0),
      () => pe.table(-1, 8),
      () => pe.rows(0.5, 2, 8),
      () => pe.encode([Infinity], 8),
      () => pe.table(2, 8, { preset: 'nope' }),
      () => pe.table(2, 8, { factor: 2 }),
      () => pe.ropeCache([1], 8, { ropeType: 'linear' }),
      () => pe.ropeCache([1], 8, { base: 1 }),
      () => pe.ropeCache([1], 8, { ropeType: 'llama3', lowFreqFactor: 5 }),
      () => pe.ropeCache([1], 8, { ropeType: 'longrope', shortFactor: [1, -1, 1, 1], longFactor: [1, 1, 1, 1] }),
      () => pe.heatmap(0, 2, 8, { vmin: 2, vmax: 1 }),
      () => pe.ropeCacheRows(0, 2 ** 24, 128),
      () => pe.applyRope(new Float32Array(3), [1], 8),
      () => pe.rows(0, 1, 8, { dtype: 'float64' }),
      () => pe.ropeCache([1], 8, { ropeAxes: 'diagonal', mropeSection: [4] }),
      () => pe.ropeCacheGrid(2, 2, 8),
      () => pe.ropeCacheGrid(2, 2, 6, { ropeAxes: 'pixtral' }),
      () => pe.ropeCache([1, 2], 8, { mropeSection: [2, 1, 1] }),
    ];
    for (const call of raise) {
      counts.polluted++;
      let error;
      const saved = [...names].map((n) => [n, Object.getOwnPropertyDescriptor(Object.prototype, n)]);
      for (const n of names) Object.defineProperty(Object.prototype, n, { value: marker, writable: true, configurable: true });
      try {
        call();
      } catch (e) {
        error = e;
      } finally {
        for (const [n, had] of saved) {
          if (had) Object.defineProperty(Object.prototype, n, had);
          else delete Object.prototype[n];
        }
      }
      assert.ok(error instanceof RangeError || error instanceof TypeError, `${call}: ${error}`);
      assert.ok(!error.message.includes(marker), `${call}: the message shows an inherited value: ${error.message}`);
    }
    for (const n of names) assert.equal(Object.prototype[n], undefined, `Object.prototype.${n} left behind`);
  });

test('regression: an out.cos getter calling ropeCache, ropeFrequencies, applyRope or table replaced the outer call\'s plan', () => {
  for (const flavour of ['simd', 'baseline']) {
    const pe = flavours[flavour];
    for (const innerCall of [
      () => pe.ropeCache([7], 4, { ropeType: 'linear', factor: 5 }),
      () => pe.ropeFrequencies(6, { base: 3 }),
      () => pe.applyRope(new Float32Array(4), [2], 4),
      () => pe.table(3, 4),
    ]) {
      const cos = new Float32Array(2 * 8);
      const sin = new Float32Array(2 * 8);
      const out = {
        get cos() {
          innerCall();
          return cos;
        },
        sin,
      };
      const got = pe.ropeCacheRows(10, 2, 16, { out });
      checkCache(got, [10, 11], 16, {}, `${flavour} ropeCacheRows under ${innerCall}`);
    }
  }
});

test('regression: Object.prototype.base = "10" made table and ropeCache compute with base 10; an inherited shortFactor reused the previous call\'s factors', () => {
  const pe = flavours.simd;
  const table = polluted('base', '10', () => pe.table(3, 4, {}));
  near(table, rowsOf([0, 1, 2], 4, {}), TOLERANCE, 'table');
  const cache = polluted('base', '500', () => pe.ropeCache([3], 8, {}));
  checkCache(cache, [3], 8, {}, 'ropeCache under a polluted base');
  pe.ropeCache([1], 8, { ropeType: 'longrope', originalMaxPositions: 32, maxPositions: 128, shortFactor: [9, 9, 9, 9], longFactor: [9, 9, 9, 9] });
  const proto = { shortFactor: [1, 1, 1, 1] };
  const o = Object.assign(Object.create(proto), { ropeType: 'longrope', originalMaxPositions: 32, maxPositions: 128, longFactor: [2, 2, 2, 2] });
  assert.throws(() => pe.ropeCache([1], 8, o), (e) => e instanceof TypeError && /options\.shortFactor is required/.test(e.message));
  assert.doesNotThrow(() => polluted('mscale', 2, () => pe.table(2, 4, {})), 'a polluted key the preset does not read');
});
