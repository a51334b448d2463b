// Hostile callers: the package API as an adversary would call it, through the
// packed tarball (`sinpe.wasm` by name). fast-check generates the cases, by
// category:
//   overlap       out (or x) sharing memory with the inputs, > 4096 positions
//   look-alike    Proxies and objects that only look like typed arrays, as every array argument
//   shadowed      real typed arrays with own length / set / subarray / buffer … properties
//   detaching     arguments detached directly, by another option's getter or by a positions element getter
//   shrinking     arguments over resizable buffers shrunk by a getter during the call
//   NaN options   option values for which the formula itself overflows or gives NaN
//   oversize      sparse or Proxy arrays longer than one result may be
//   unbound       methods taken off the encoder or called on another object
//   callbacks     chunks callbacks that scribble on their view, throw, or call the encoder again
//   loading       hostile wasmBinary bytes and locateFile results
// Every refusal must be a TypeError or RangeError (an Error when loading)
// whose message starts with "sinpe: " and names the argument, never the
// engine's or Emscripten's own text; nothing may be written (out / x keep
// their contents), and the module must still give correct values afterwards
// (a probe against the independent float64 reference). Every accepted call is
// checked against that reference too. The defects the first hostile run found
// each have a named regression test at the end.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import fc from 'fast-check';
import * as pkg from 'sinpe.wasm';
import { referenceRow, referenceGrid, TOLERANCE } from './reference.mjs';
import { ErrorTracker } from './errors-helper.mjs';
import { ropeCache as referenceRopeCache, ropeRotate, pairMagnitudes, ropeParameters } from './rope-reference.mjs';

const sinpe = pkg.default;
// The true length and kind of a typed array, whatever own properties it carries and whichever realm made it.
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const lengthOf = (a) => Reflect.getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get.call(a);
const kindOf = (a) => Reflect.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get.call(a);
const require = createRequire(import.meta.url);
const wasmPath = (flavour) => require.resolve(`sinpe.wasm/sinpe-${flavour}.wasm`);

const RUNS = Number(process.env.SINPE_HOSTILE_RUNS ?? 24);
const D = 8; // sinusoidal width of the slot calls
const R = 8; // rotary dimension of the slot calls
const HD = 8; // head dimension of applyRope
const HEADS = 2;
const POS3 = [0, 1, 2.5];

const CATEGORIES = {
  overlap: 'overlap',
  lookAlike: 'look-alike',
  shadowed: 'shadowed properties',
  detaching: 'detaching getters',
  shrinking: 'shrinking getters',
  nanOptions: 'NaN-producing options',
  oversize: 'oversize arrays',
  unbound: 'unbound methods',
  callbacks: 'chunks callbacks',
  loading: 'hostile wasmBinary/locateFile',
};
const counts = Object.fromEntries(Object.keys(CATEGORIES).map((k) => [k, 0]));

const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});

after(() => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const parts = Object.entries(CATEGORIES).map(([k, label]) => `${label} ${counts[k]}`);
  const line = `hostile callers: ${total} cases — ${parts.join(', ')}`;
  console.log(line);
  if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `${line}\n`);
});

const flavourArb = fc.constantFrom('simd', 'baseline');

// ---------------------------------------------------------------------------
// Checks shared by every case

// Engine and Emscripten texts that must never reach a caller.
const FOREIGN = /Aborted\(|ASSERTIONS|Cannot read properties|incompatible receiver|Cannot perform|out of bounds access|offset is out of bounds|Array buffer allocation failed|Invalid typed array length|BindingError|is not a function/;

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// `name` as a whole argument name: "x" is not in "max", "options.out" is not "options.outer" or
// "options.out.cos"; "x.length" names x.
const nameRe = (name) => new RegExp(`(?<![\\w.])${escapeRe(name)}(?!\\w|\\.(?!length\\b)\\w)`);

/** Asserts `fn` throws one of `Types` whose message starts with "sinpe: " and matches `re`. */
function refused(fn, Types, re, what) {
  const types = [Types].flat();
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error !== undefined, `${what}: expected a ${types.map((T) => T.name).join('/')}, but the call returned`);
  assert.ok(
    types.some((T) => error instanceof T),
    `${what}: expected ${types.map((T) => T.name).join('/')}, got ${error?.constructor?.name}: ${error?.message}`,
  );
  assert.ok(error.message.startsWith('sinpe: '), `${what}: message does not start with "sinpe: ": ${error.message}`);
  assert.match(error.message, re, `${what}: message does not name the argument`);
  assert.doesNotMatch(error.message, FOREIGN, `${what}: engine text in the message`);
  return error;
}

// Copies of arrays a refused call must leave alone (skipped for detached ones,
// which cannot be written).
function keep(arrays) {
  return arrays.map((a) => ({ a, copy: a.slice() }));
}
function unchanged(kept, what) {
  for (const { a, copy } of kept) {
    if (a.length === 0 && copy.length !== 0) continue; // detached or shrunk by the case itself
    const n = Math.min(a.length, copy.length);
    for (let i = 0; i < n; i++)
      if (!Object.is(a[i], copy[i])) assert.fail(`${what}: an array was written at [${i}]: ${copy[i]} → ${a[i]}`);
  }
}

// The module still gives correct values.
const PROBE_POSITIONS = [0, 1, 7.5, 4095, -3, 16777215];
function probe(pe, what) {
  const got = pe.encode(PROBE_POSITIONS, 16);
  assert.ok(got instanceof Float32Array && got.length === PROBE_POSITIONS.length * 16, `${what}: probe shape`);
  assert.ok(maxRowError(got, PROBE_POSITIONS, 16) <= TOLERANCE, `${what}: probe values wrong after the case`);
  const t = pe.table(3, 4);
  assert.ok(maxRowError(t, [0, 1, 2], 4) <= TOLERANCE, `${what}: probe table wrong after the case`);
}

// NaN or Infinity when any value is, or when there is nothing to compare (errors-helper.mjs).
function maxRowError(got, positions, d, o = {}) {
  const t = new ErrorTracker();
  positions.forEach((p, i) => {
    const want = referenceRow(p, d, o);
    for (let c = 0; c < d; c++) t.addDifference(got[i * d + c], want[c], i * d + c);
  });
  return t.worst;
}

function assertRows(got, positions, d, what, o = {}) {
  assert.equal(kindOf(got), 'Float32Array', `${what}: result is not a Float32Array`);
  assert.equal(lengthOf(got), positions.length * d, `${what}: result length`);
  if (positions.length === 0) return; // an empty result, its length checked just above: no values to compare
  const err = maxRowError(got, positions, d, o);
  assert.ok(err <= TOLERANCE, `${what}: max error ${err} against the float64 reference`);
}

function assertGrid(got, h, w, d, what) {
  const rows = referenceGrid(h, w, d);
  assert.equal(lengthOf(got), rows.length * d, `${what}: grid length`);
  rows.forEach((row, m) => {
    for (let c = 0; c < d; c++)
      assert.ok(Math.abs(got[m * d + c] - row[c]) <= TOLERANCE, `${what}: grid[${m}][${c}] = ${got[m * d + c]}, want ${row[c]}`);
  });
}

// x0 + rows start … of the reference, float32 sums (one rounding more).
function assertAdded(x, x0, start, d, what) {
  const bound = TOLERANCE + 2 ** -22;
  for (let i = 0; i < x0.length; i++) {
    const want = x0[i] + referenceRow(start + Math.floor(i / d), d)[i % d];
    assert.ok(Math.abs(x[i] - want) <= bound, `${what}: x[${i}] = ${x[i]}, want ${want}`);
  }
}

// A colormap whose entries tell their index back: entry i = (i, 255 - i, 37i mod 256, 255).
function indexColormap(Type = Uint8Array, into) {
  const lut = into ?? new Type(1024);
  for (let i = 0; i < 256; i++) {
    lut[4 * i] = i;
    lut[4 * i + 1] = 255 - i;
    lut[4 * i + 2] = (37 * i) & 255;
    lut[4 * i + 3] = 255;
  }
  return lut;
}
const GREY = (() => {
  const lut = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) lut.set([i, i, i, 255], 4 * i);
  return lut;
})();

// Every pixel is an entry of `lut` (as it was before the call) within one index
// of the reference value's place in [vmin, vmax].
function assertHeatmap(px, lut, start, count, d, what, { vmin = -1, vmax = 1, columnStart = 0, columns = d - columnStart } = {}) {
  assert.equal(kindOf(px), 'Uint8ClampedArray', `${what}: pixels are not a Uint8ClampedArray`);
  assert.equal(lengthOf(px), count * columns * 4, `${what}: pixel count`);
  const index = new Map();
  for (let i = 255; i >= 0; i--) index.set(lut.slice(4 * i, 4 * i + 4).join(), i);
  for (let r = 0; r < count; r++) {
    const row = referenceRow(start + r, d);
    for (let c = 0; c < columns; c++) {
      const at = 4 * (r * columns + c);
      const key = `${px[at]},${px[at + 1]},${px[at + 2]},${px[at + 3]}`;
      assert.ok(index.has(key), `${what}: pixel (${r}, ${c}) = ${key} is no colormap entry`);
      const t = Math.min(255, Math.max(0, ((row[columnStart + c] - vmin) / (vmax - vmin)) * 255));
      assert.ok(Math.abs(index.get(key) - t) <= 1, `${what}: pixel (${r}, ${c}) is entry ${index.get(key)}, want ~${t}`);
    }
  }
}

function assertRopeCache(got, positions, r, o, what) {
  const want = referenceRopeCache(positions, r, o);
  const bound = 2.5e-7 * Math.max(1, Math.abs(want.attentionFactor));
  for (const k of ['cos', 'sin']) {
    assert.equal(kindOf(got[k]), 'Float32Array', `${what}: ${k} is not a Float32Array`);
    assert.equal(lengthOf(got[k]), want[k].length, `${what}: ${k} length`);
    for (let i = 0; i < want[k].length; i++)
      if (!(Math.abs(got[k][i] - want[k][i]) <= bound)) assert.fail(`${what}: ${k}[${i}] = ${got[k][i]}, want ${want[k][i]}`);
  }
}

function assertRotated(x, x0, positions, headDim, o, what) {
  const r = o.rotaryDim ?? headDim;
  const want = ropeRotate(x0, positions, headDim, o);
  const mag = pairMagnitudes(x0, headDim, r, o.layout ?? 'half');
  const att = Math.max(1, Math.abs(ropeParameters(r, o).attentionFactor));
  for (let i = 0; i < want.length; i++)
    if (!(Math.abs(x[i] - want[i]) <= 5e-7 * att * mag[i])) assert.fail(`${what}: x[${i}] = ${x[i]}, want ${want[i]}`);
}

const detach = (buffer) => structuredClone(buffer, { transfer: [buffer] });
const sentinel = (Type, n) => new Type(n).fill(Type === Uint8ClampedArray || Type === Uint8Array ? 77 : -7.25);
const xPattern = (n) => Float32Array.from({ length: n }, (_, i) => ((i % 7) - 3) * 0.375);

// An options object with `key` as an enumerable getter returning `value` after running `effect`.
function withGetter(key, value, effect) {
  const o = {};
  Object.defineProperty(o, key, {
    enumerable: true,
    configurable: true,
    get() {
      effect();
      return value;
    },
  });
  return o;
}

// An Array of positions whose element `at` is a getter that runs `effect`.
function positionsWithGetter(values, at, effect) {
  const a = [...values];
  Object.defineProperty(a, at, {
    enumerable: true,
    configurable: true,
    get() {
      effect();
      return values[at];
    },
  });
  return a;
}

// ---------------------------------------------------------------------------
// Every array argument of the API. setup(value, options, ctx) returns
// { run(pe), others, verify(result) }: `others` are the arrays the call would
// also write (they must stay unchanged when it is refused), `verify` checks an
// accepted call against the reference. `fill(array)` gives a real array of the
// slot its valid contents. `keys` are options the call reads, each with a
// valid value, for getters. `arrayPositions`: the call takes positions (given
// as ctx.positions when set).
const SIN_KEYS = [['preset', 'vaswani'], ['layout', 'interleaved'], ['base', 10000]];
const ROPE_KEYS = [['ropeType', 'default'], ['base', 10000]];

const SLOTS = [
  {
    id: 'encode options.out',
    name: 'options.out',
    Type: Float32Array,
    length: POS3.length * D,
    keys: SIN_KEYS,
    arrayPositions: true,
    setup(v, o, ctx = {}) {
      o.out = v;
      return { run: (pe) => pe.encode(ctx.positions ?? POS3, D, o), others: [], verify: (r) => {
        assert.equal(r, v, this.id);
        assertRows(r, POS3, D, this.id);
      } };
    },
  },
  {
    id: 'rows options.out',
    name: 'options.out',
    Type: Float32Array,
    length: 3 * D,
    keys: SIN_KEYS,
    setup(v, o) {
      o.out = v;
      return { run: (pe) => pe.rows(5, 3, D, o), others: [], verify: (r) => {
        assert.equal(r, v, this.id);
        assertRows(r, [5, 6, 7], D, this.id);
      } };
    },
  },
  {
    id: 'table options.out',
    name: 'options.out',
    Type: Float32Array,
    length: 2 * D,
    keys: SIN_KEYS,
    setup(v, o) {
      o.out = v;
      return { run: (pe) => pe.table(2, D, o), others: [], verify: (r) => {
        assert.equal(r, v, this.id);
        assertRows(r, [0, 1], D, this.id);
      } };
    },
  },
  {
    id: 'grid2d options.out',
    name: 'options.out',
    Type: Float32Array,
    length: 4 * D,
    keys: SIN_KEYS,
    setup(v, o) {
      o.out = v;
      return { run: (pe) => pe.grid2d(2, 2, D, o), others: [], verify: (r) => {
        assert.equal(r, v, this.id);
        assertGrid(r, 2, 2, D, this.id);
      } };
    },
  },
  {
    id: 'addTo x',
    name: 'x',
    Type: Float32Array,
    length: 2 * D,
    keys: [...SIN_KEYS, ['start', 0]],
    fill: (a) => a.set(xPattern(lengthOf(a))),
    setup(v, o) {
      const x0 = xPattern(2 * D);
      return { run: (pe) => pe.addTo(v, D, o), others: [], verify: (r) => {
        assert.equal(r, v, this.id);
        assertAdded(r, x0, 0, D, this.id);
      } };
    },
  },
  {
    id: 'heatmap options.colormap',
    name: 'options.colormap',
    Type: Uint8Array,
    length: 1024,
    // A colormap of the wrong size is a TypeError (not 256 RGBA entries), as it always was.
    lengthError: TypeError,
    keys: [...SIN_KEYS, ['vmin', -1]],
    fill: (a) => indexColormap(Uint8Array, a),
    setup(v, o) {
      const out = sentinel(Uint8ClampedArray, 2 * D * 4);
      o.colormap = v;
      o.out = out;
      const lut = indexColormap();
      return { run: (pe) => pe.heatmap(0, 2, D, o), others: [out], verify: (r) => {
        assert.equal(r, out, this.id);
        assertHeatmap(r, lut, 0, 2, D, this.id);
      } };
    },
  },
  {
    id: 'heatmap options.out',
    name: 'options.out',
    Type: Uint8ClampedArray,
    length: 2 * D * 4,
    keys: [...SIN_KEYS, ['vmax', 1]],
    setup(v, o) {
      o.out = v;
      return { run: (pe) => pe.heatmap(3, 2, D, o), others: [], verify: (r) => {
        assert.equal(r, v, this.id);
        assertHeatmap(r, GREY, 3, 2, D, this.id);
      } };
    },
  },
  {
    id: 'encode positions',
    name: 'positions',
    Type: Float64Array,
    length: POS3.length,
    keys: SIN_KEYS,
    isPositions: true,
    fill: (a) => a.set(POS3.slice(0, lengthOf(a))),
    setup(v, o) {
      const out = sentinel(Float32Array, POS3.length * D);
      o.out = out;
      return { run: (pe) => pe.encode(v, D, o), others: [out], verify: (r) => {
        assert.equal(r, out, this.id);
        assertRows(r, POS3, D, this.id);
      } };
    },
  },
  {
    id: 'prepared rows out',
    name: 'out',
    Type: Float32Array,
    length: 3 * D,
    keys: SIN_KEYS,
    setup(v, o) {
      return { run: (pe) => pe.prepare(D, o).rows(5, 3, v), others: [], verify: (r) => {
        assert.equal(r, v, this.id);
        assertRows(r, [5, 6, 7], D, this.id);
      } };
    },
  },
  {
    id: 'prepared encode out',
    name: 'out',
    Type: Float32Array,
    length: POS3.length * D,
    keys: SIN_KEYS,
    arrayPositions: true,
    setup(v, o, ctx = {}) {
      return {
        run: (pe) => {
          const enc = pe.prepare(D, o);
          return enc.encode(ctx.positions ?? POS3, v);
        },
        others: [],
        verify: (r) => {
        assert.equal(r, v, this.id);
        assertRows(r, POS3, D, this.id);
      },
      };
    },
  },
  {
    id: 'prepared encode positions',
    name: 'positions',
    Type: Float64Array,
    length: POS3.length,
    keys: SIN_KEYS,
    isPositions: true,
    fill: (a) => a.set(POS3.slice(0, lengthOf(a))),
    setup(v, o) {
      const out = sentinel(Float32Array, POS3.length * D);
      return { run: (pe) => pe.prepare(D, o).encode(v, out), others: [out], verify: (r) => {
        assert.equal(r, out, this.id);
        assertRows(r, POS3, D, this.id);
      } };
    },
  },
  {
    id: 'ropeCache positions',
    name: 'positions',
    Type: Float64Array,
    length: POS3.length,
    keys: ROPE_KEYS,
    isPositions: true,
    fill: (a) => a.set(POS3.slice(0, lengthOf(a))),
    setup(v, o) {
      const cos = sentinel(Float32Array, (POS3.length * R) / 2);
      const sin = sentinel(Float32Array, (POS3.length * R) / 2);
      o.out = { cos, sin };
      return { run: (pe) => pe.ropeCache(v, R, o), others: [cos, sin], verify: (r) => {
        assert.equal(r.cos, cos, this.id);
        assertRopeCache(r, POS3, R, {}, this.id);
      } };
    },
  },
  {
    id: 'ropeCache options.out.cos',
    name: 'options.out.cos',
    Type: Float32Array,
    length: (POS3.length * R) / 2,
    keys: ROPE_KEYS,
    arrayPositions: true,
    setup(v, o, ctx = {}) {
      const sin = sentinel(Float32Array, (POS3.length * R) / 2);
      o.out = { cos: v, sin };
      return {
        run: (pe) => pe.ropeCache(ctx.positions ?? POS3, R, o),
        others: [sin],
        verify: (r) => {
        assert.equal(r.cos, v, this.id);
        assertRopeCache(r, POS3, R, {}, this.id);
      },
      };
    },
  },
  {
    id: 'ropeCache options.out.sin',
    name: 'options.out.sin',
    Type: Float32Array,
    length: (POS3.length * R) / 2,
    keys: ROPE_KEYS,
    arrayPositions: true,
    setup(v, o, ctx = {}) {
      const cos = sentinel(Float32Array, (POS3.length * R) / 2);
      o.out = { cos, sin: v };
      return {
        run: (pe) => pe.ropeCache(ctx.positions ?? POS3, R, o),
        others: [cos],
        verify: (r) => {
        assert.equal(r.sin, v, this.id);
        assertRopeCache(r, POS3, R, {}, this.id);
      },
      };
    },
  },
  {
    id: 'ropeCacheRows options.out.cos',
    name: 'options.out.cos',
    Type: Float32Array,
    length: (3 * R) / 2,
    keys: ROPE_KEYS,
    setup(v, o) {
      const sin = sentinel(Float32Array, (3 * R) / 2);
      o.out = { cos: v, sin };
      return { run: (pe) => pe.ropeCacheRows(5, 3, R, o), others: [sin], verify: (r) => {
        assert.equal(r.cos, v, this.id);
        assertRopeCache(r, [5, 6, 7], R, {}, this.id);
      } };
    },
  },
  {
    id: 'applyRope x',
    name: 'x',
    Type: Float32Array,
    length: POS3.length * HEADS * HD,
    keys: ROPE_KEYS,
    arrayPositions: true,
    fill: (a) => a.set(xPattern(lengthOf(a))),
    setup(v, o, ctx = {}) {
      const x0 = xPattern(POS3.length * HEADS * HD);
      return {
        run: (pe) => pe.applyRope(v, ctx.positions ?? POS3, HD, o),
        others: [],
        verify: (r) => {
          assert.equal(r, v, `${this.id}: applyRope returns x`);
          assertRotated(r, x0, POS3, HD, {}, this.id);
        },
      };
    },
  },
  {
    id: 'applyRope positions',
    name: 'positions',
    Type: Float64Array,
    length: POS3.length,
    keys: ROPE_KEYS,
    isPositions: true,
    fill: (a) => a.set(POS3.slice(0, lengthOf(a))),
    setup(v, o) {
      const x = xPattern(POS3.length * HEADS * HD);
      const x0 = x.slice();
      return { run: (pe) => pe.applyRope(x, v, HD, o), others: [x], verify: () => assertRotated(x, x0, POS3, HD, {}, this.id) };
    },
  },
];

// A real array of the slot's type and length with valid contents.
function realFor(slot, length = slot.length, buffer, byteOffset = 0) {
  const a = buffer === undefined ? new slot.Type(length) : new slot.Type(buffer, byteOffset, length);
  if (slot.fill) slot.fill(a);
  return a;
}

const keyArb = (slot) => fc.constantFrom(...slot.keys);

// ---------------------------------------------------------------------------
// Look-alikes and Proxies

const LOOK_ALIKES = {
  proxy: (slot) => {
    const target = realFor(slot);
    return { value: new Proxy(target, {}), backing: target };
  },
  // A Proxy that forwards everything, methods bound to the real array: it
  // behaves like one for any code that does not check internal slots.
  forwardingProxy: (slot) => {
    const target = realFor(slot);
    const handler = {
      get(t, k) {
        const v = Reflect.get(t, k);
        return typeof v === 'function' ? v.bind(t) : v;
      },
    };
    return { value: new Proxy(target, handler), backing: target };
  },
  objectCreate: (slot) => ({ value: Object.create(slot.Type.prototype) }),
  objectCreateWithProps: (slot) => {
    const backing = realFor(slot);
    const value = Object.create(slot.Type.prototype, {
      length: { value: slot.length },
      buffer: { value: backing.buffer },
      byteOffset: { value: 0 },
      byteLength: { value: backing.byteLength },
    });
    return { value, backing };
  },
  frozenLookAlike: (slot) => {
    const backing = realFor(slot);
    const value = Object.freeze(
      Object.setPrototypeOf(
        { length: slot.length, buffer: backing.buffer, byteOffset: 0, byteLength: backing.byteLength, BYTES_PER_ELEMENT: slot.Type.BYTES_PER_ELEMENT },
        slot.Type.prototype,
      ),
    );
    return { value, backing };
  },
  wrongKind: (slot) => {
    const Other = slot.isPositions
      ? BigInt64Array
      : slot.Type === Float32Array
        ? Float64Array
        : slot.Type === Uint8ClampedArray
          ? Uint8Array
          : Int8Array;
    return { value: new Other(slot.length) };
  },
  plainArray: (slot) => (slot.isPositions ? { value: { length: slot.length, 0: 0, 1: 1, 2: 2.5 } } : { value: Array.from({ length: slot.length }, () => 0) }),
  dataView: (slot) => ({ value: new DataView(new ArrayBuffer(slot.length * slot.Type.BYTES_PER_ELEMENT)) }),
  arrayBuffer: (slot) => ({ value: new ArrayBuffer(slot.length * slot.Type.BYTES_PER_ELEMENT) }),
  primitive: () => ({ value: 'Float32Array' }),
  nullValue: () => ({ value: null }),
};

describe('look-alike and Proxy typed arrays', () => {
  for (const slot of SLOTS)
    test(`${slot.id}: refused with a TypeError naming ${slot.name}; nothing written`, () => {
      fc.assert(
        fc.property(flavourArb, fc.constantFrom(...Object.keys(LOOK_ALIKES)), (flavour, kind) => {
          const pe = flavours[flavour];
          const { value, backing } = LOOK_ALIKES[kind](slot);
          const { run, others } = slot.setup(value, {});
          const kept = keep([...others, ...(backing ? [backing] : [])]);
          refused(() => run(pe), TypeError, nameRe(slot.name), `${slot.id} ${kind}`);
          unchanged(kept, `${slot.id} ${kind}`);
          probe(pe, `${slot.id} ${kind}`);
          counts.lookAlike++;
        }),
        { numRuns: RUNS },
      );
    });

  // Real typed arrays that are not from this realm or are subclasses are
  // typed arrays all the same: accepted, and written correctly.
  const otherRealm = vm.createContext({});
  for (const slot of SLOTS)
    test(`${slot.id}: a subclass instance or a typed array from another realm is accepted`, () => {
      fc.assert(
        fc.property(flavourArb, fc.constantFrom('subclass', 'realm'), (flavour, kind) => {
          const pe = flavours[flavour];
          let value;
          if (kind === 'subclass') {
            const Sub = class extends slot.Type {};
            value = new Sub(slot.length);
          } else value = vm.runInContext(`new ${slot.Type.name}(${slot.length})`, otherRealm);
          if (slot.fill) slot.fill(value);
          const { run, verify } = slot.setup(value, {});
          verify(run(pe));
          counts.lookAlike++;
        }),
        { numRuns: 4 },
      );
    });
});

// ---------------------------------------------------------------------------
// Shadowed properties: a real typed array with own properties that lie. The
// module must never read them (the true length, buffer and offset come from
// the internal slots), so the call gives the right values and no own getter runs.

const SHADOWS = ['length', 'set', 'subarray', 'buffer', 'byteOffset', 'byteLength', 'slice', 'fill', 'constructor'];

function shadow(a, keys, log) {
  const bogus = {
    length: 1024 * 1024,
    set: () => {},
    subarray: () => new a.constructor(a.length),
    buffer: new ArrayBuffer(8),
    byteOffset: 4,
    byteLength: 3,
    slice: () => new a.constructor(a.length),
    fill: () => a,
    constructor: Array,
  };
  for (const k of keys)
    Object.defineProperty(a, k, {
      configurable: true,
      get() {
        log.push(k);
        return bogus[k];
      },
    });
  return a;
}

describe('shadowed properties', () => {
  for (const slot of SLOTS)
    test(`${slot.id}: own ${SHADOWS.slice(0, 3).join('/')}/… properties are ignored; the true length decides`, () => {
      fc.assert(
        fc.property(flavourArb, fc.subarray(SHADOWS, { minLength: 1 }), (flavour, keys) => {
          const pe = flavours[flavour];
          const log = [];
          const value = shadow(realFor(slot), keys, log);
          const { run, verify } = slot.setup(value, {});
          verify(run(pe));
          assert.deepEqual(log, [], `${slot.id}: the caller's own properties were read: ${log.join(', ')}`);
          counts.shadowed++;
        }),
        { numRuns: RUNS },
      );
    });

  const exact = SLOTS.filter((s) => !s.isPositions);
  for (const slot of exact)
    test(`${slot.id}: a wrong true length claiming the right one is refused naming ${slot.name}`, () => {
      fc.assert(
        fc.property(flavourArb, fc.integer({ min: 0, max: slot.length * 2 }), (flavour, n) => {
          fc.pre(n !== slot.length && !(slot.name === 'x' && n > 0 && n % (slot.id === 'addTo x' ? D : POS3.length * HD) === 0));
          const pe = flavours[flavour];
          const value = realFor(slot, n);
          Object.defineProperty(value, 'length', { value: slot.length });
          const { run, others } = slot.setup(value, {});
          const kept = keep([...others, value]);
          const e = refused(() => run(pe), slot.lengthError ?? RangeError, nameRe(slot.name), `${slot.id} true length ${n}`);
          assert.match(e.message, new RegExp(`\\b${n}\\b`), `${slot.id}: the message gives the true length ${n}`);
          unchanged(kept, `${slot.id} true length ${n}`);
          probe(pe, slot.id);
          counts.shadowed++;
        }),
        { numRuns: RUNS },
      );
    });
});

// ---------------------------------------------------------------------------
// Detaching: directly, by a getter of another option, or by a getter of a
// positions element (both run before the arrays are checked).

describe('detached buffers', () => {
  for (const slot of SLOTS) {
    const modes = ['direct', 'option getter', ...(slot.arrayPositions ? ['positions element getter'] : [])];
    test(`${slot.id}: "${slot.name} is detached" (${modes.join(', ')})`, () => {
      fc.assert(
        fc.property(flavourArb, fc.constantFrom(...modes), keyArb(slot), fc.boolean(), (flavour, mode, [key, keyValue], empty) => {
          const pe = flavours[flavour];
          const value = realFor(slot, empty && slot.isPositions ? 0 : slot.length);
          let options = {};
          const ctx = {};
          if (mode === 'direct') detach(value.buffer);
          else if (mode === 'option getter') options = withGetter(key, keyValue, () => detach(value.buffer));
          else ctx.positions = positionsWithGetter(POS3, 1, () => detach(value.buffer));
          const { run, others } = slot.setup(value, options, ctx);
          const kept = keep(others);
          refused(() => run(pe), TypeError, new RegExp(`${nameRe(slot.name).source} is detached`), `${slot.id} ${mode}`);
          unchanged(kept, `${slot.id} ${mode}`);
          probe(pe, `${slot.id} ${mode}`);
          counts.detaching++;
        }),
        { numRuns: RUNS },
      );
    });
  }
});

// ---------------------------------------------------------------------------
// Shrinking: arrays over a resizable ArrayBuffer that a getter shrinks during
// the call. Length-tracking arrays get shorter (a RangeError naming the array
// and its new length); fixed-length ones fall out of bounds.

describe('shrinking getters', () => {
  const shrinkable = SLOTS.filter((s) => !s.isPositions);
  for (const slot of shrinkable) {
    const modes = ['option getter', ...(slot.arrayPositions ? ['positions element getter'] : [])];
    test(`${slot.id}: shrunk by a getter → an error naming ${slot.name}`, () => {
      const bpe = slot.Type.BYTES_PER_ELEMENT;
      fc.assert(
        fc.property(
          flavourArb,
          fc.constantFrom(...modes),
          keyArb(slot),
          fc.boolean(),
          fc.integer({ min: 0, max: slot.length - 1 }),
          (flavour, mode, [key, keyValue], tracking, newLength) => {
            const unit = slot.id === 'addTo x' ? D : slot.id === 'applyRope x' ? POS3.length * HD : 0;
            fc.pre(!(unit && newLength > 0 && newLength % unit === 0));
            const pe = flavours[flavour];
            const buffer = new ArrayBuffer(slot.length * bpe, { maxByteLength: slot.length * bpe });
            const value = tracking ? new slot.Type(buffer) : new slot.Type(buffer, 0, slot.length);
            if (slot.fill) slot.fill(value);
            const shrink = () => buffer.resize(newLength * bpe);
            let options = {};
            const ctx = {};
            if (mode === 'option getter') options = withGetter(key, keyValue, shrink);
            else ctx.positions = positionsWithGetter(POS3, 2, shrink);
            const { run, others } = slot.setup(value, options, ctx);
            const kept = keep(others);
            const e = refused(() => run(pe), [RangeError, TypeError], nameRe(slot.name), `${slot.id} ${mode} → ${newLength}`);
            if (tracking) {
              assert.ok(e instanceof (slot.lengthError ?? RangeError), `${slot.id}: a shorter array is a ${(slot.lengthError ?? RangeError).name}`);
              assert.match(e.message, new RegExp(`\\b${newLength}\\b`), `${slot.id}: the message gives the new length`);
            }
            unchanged(kept, `${slot.id} ${mode}`);
            probe(pe, slot.id);
            counts.shrinking++;
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  test('positions shrunk by a getter: the result follows the positions as they are when checked', () => {
    fc.assert(
      fc.property(flavourArb, fc.integer({ min: 0, max: 5 }), (flavour, m) => {
        const pe = flavours[flavour];
        const values = [3, 1.5, 0, -2, 100, 7];
        const buffer = new ArrayBuffer(6 * 8, { maxByteLength: 6 * 8 });
        const positions = new Float64Array(buffer);
        positions.set(values);
        const got = pe.encode(positions, D, withGetter('base', 10000, () => buffer.resize(m * 8)));
        assertRows(got, values.slice(0, m), D, `shrunk to ${m}`);
        counts.shrinking++;
      }),
      { numRuns: 12 },
    );
  });
});

// ---------------------------------------------------------------------------
// Overlapping memory: inputs read after outputs were written would change the
// result; every call must give what it gives with separate arrays.

describe('overlapping buffers', () => {
  const positionValue = (i, seed) => (((i * 7919 + seed) % 20000) - 10000) / 4; // quarters: exact in float32

  // out and positions in one ArrayBuffer, ranges overlapping at any offset.
  const overlapArb = fc.record({
    flavour: flavourArb,
    n: fc.integer({ min: 4097, max: 9000 }),
    d: fc.constantFrom(2, 4, 6),
    PositionType: fc.constantFrom(Float32Array, Float64Array),
    outAt: fc.integer({ min: 0, max: 64 }),
    shift: fc.double({ min: -1, max: 1, noNaN: true }),
    seed: fc.nat(20000),
  });

  for (const prepared of [false, true])
  test(`${prepared ? 'prepared encode' : 'encode'}: out sharing the positions' ArrayBuffer (> 4096 positions) gives the separate-array values`, () => {
    fc.assert(
      fc.property(overlapArb, ({ flavour, n, d, PositionType, outAt, shift, seed }) => {
        const pe = flavours[flavour];
        const outBytes = n * d * 4;
        const posBytes = n * PositionType.BYTES_PER_ELEMENT;
        const a = outAt * 8;
        let b = a + Math.trunc((shift * (shift < 0 ? posBytes : outBytes)) / 8) * 8;
        const lift = Math.max(0, -b);
        b += lift;
        const buffer = new ArrayBuffer(Math.max(a + lift + outBytes, b + posBytes));
        const out = new Float32Array(buffer, a + lift, n * d);
        const positions = new PositionType(buffer, b, n);
        for (let i = 0; i < n; i++) positions[i] = positionValue(i, seed);
        const want = Array.from(positions);
        const got = prepared ? pe.prepare(d).encode(positions, out) : pe.encode(positions, d, { out });
        assert.equal(got, out, 'the result is out');
        assertRows(got, want, d, `overlap n=${n} d=${d} ${PositionType.name} out@${a + lift} positions@${b}`);
        counts.overlap++;
      }),
      { numRuns: RUNS },
    );
  });

  test('heatmap: out sharing the colormap\'s ArrayBuffer maps through the colormap as given', () => {
    fc.assert(
      fc.property(flavourArb, fc.integer({ min: 4, max: 80 }), fc.integer({ min: -1024, max: 2048 }), (flavour, count, delta) => {
        const pe = flavours[flavour];
        const outBytes = count * D * 4;
        const lutAt = Math.max(0, -delta);
        const outAt = Math.max(0, delta);
        const buffer = new ArrayBuffer(Math.max(lutAt + 1024, outAt + outBytes));
        const colormap = new Uint8Array(buffer, lutAt, 1024);
        const out = new Uint8ClampedArray(buffer, outAt, outBytes);
        indexColormap(Uint8Array, colormap);
        const lut = colormap.slice();
        const got = pe.heatmap(0, count, D, { colormap, out });
        assert.equal(got, out);
        assertHeatmap(got, lut, 0, count, D, `heatmap overlap count=${count} delta=${delta}`);
        counts.overlap++;
      }),
      { numRuns: RUNS },
    );
  });

  test('ropeCache: out.cos / out.sin sharing the positions\' ArrayBuffer gives the separate-array values', () => {
    fc.assert(
      fc.property(flavourArb, fc.integer({ min: 4097, max: 6000 }), fc.constantFrom('cos', 'sin'), fc.nat(20000), (flavour, n, which, seed) => {
        const pe = flavours[flavour];
        const half = R / 2;
        const buffer = new ArrayBuffer(n * half * 4 * 2);
        const cos = new Float32Array(buffer, which === 'cos' ? 0 : n * half * 4, n * half);
        const sin = new Float32Array(buffer, which === 'cos' ? n * half * 4 : 0, n * half);
        const positions = new Float64Array(buffer, 8 * Math.floor(n * 1.5), n); // from inside the first array into the second
        for (let i = 0; i < n; i++) positions[i] = positionValue(i, seed);
        const want = Array.from(positions);
        const got = pe.ropeCache(positions, R, { out: { cos, sin } });
        assert.equal(got.cos, cos);
        assert.equal(got.sin, sin);
        assertRopeCache(got, want, R, {}, `ropeCache overlap n=${n} (${which} first)`);
        counts.overlap++;
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  test('ropeCache: longrope factors sharing out.cos\'s ArrayBuffer are read as given', () => {
    fc.assert(
      fc.property(flavourArb, fc.integer({ min: 4097, max: 5000 }), fc.boolean(), (flavour, n, long) => {
        const pe = flavours[flavour];
        const half = R / 2;
        const buffer = new ArrayBuffer(n * half * 4 + 2 * half * 8);
        const cos = new Float32Array(buffer, 0, n * half);
        const shortFactor = new Float64Array(buffer, 0, half); // the first cos row
        const longFactor = new Float64Array(buffer, half * 8, half);
        shortFactor.set([1, 1.25, 1.5, 2]);
        longFactor.set([1, 2, 4, 8]);
        const o = { ropeType: 'longrope', shortFactor, longFactor, originalMaxPositions: 4096, maxPositions: 16384, seqLen: long ? 8192 : 100 };
        const ref = { ...o, shortFactor: Array.from(shortFactor), longFactor: Array.from(longFactor) };
        const positions = Array.from({ length: n }, (_, i) => i);
        const got = pe.ropeCache(positions, R, { ...o, out: { cos, sin: new Float32Array(n * half) } });
        assertRopeCache(got, positions, R, ref, `longrope factors in out.cos (n=${n}, ${long ? 'long' : 'short'})`);
        counts.overlap++;
      }),
      { numRuns: 6 },
    );
  });

  test('ropeCache: out.cos and out.sin sharing memory with each other is refused naming them', () => {
    fc.assert(
      fc.property(flavourArb, fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 49 }), (flavour, n, lag) => {
        fc.pre(lag < n * (R / 2));
        const pe = flavours[flavour];
        const half = R / 2;
        const buffer = new ArrayBuffer((n * half + lag) * 4);
        const cos = new Float32Array(buffer, 0, n * half).fill(-7.25);
        const sin = new Float32Array(buffer, lag * 4, n * half);
        const kept = keep([new Float32Array(buffer)]);
        refused(() => pe.ropeCache(Array.from({ length: n }, (_, i) => i), R, { out: { cos, sin } }), [RangeError, TypeError], /options\.out\.(cos|sin)\b/, `cos/sin overlap lag ${lag}`);
        unchanged(kept, `cos/sin overlap lag ${lag}`);
        probe(pe, 'cos/sin overlap');
        counts.overlap++;
      }),
      { numRuns: RUNS },
    );
  });

  test('applyRope: positions inside x\'s memory are read before x is rotated', () => {
    fc.assert(
      fc.property(flavourArb, fc.integer({ min: 1, max: 6000 }), fc.nat(20000), fc.constantFrom('half', 'interleaved'), (flavour, n, seed, layout) => {
        const pe = flavours[flavour];
        const x = xPattern(n * HD);
        const positions = new Float32Array(x.buffer, 4 * (n * HD - n), n); // the last n values of x
        for (let i = 0; i < n; i++) positions[i] = positionValue(i, seed) / 4;
        const x0 = x.slice();
        const want = Array.from(positions);
        const got = pe.applyRope(x, positions, HD, { layout });
        assert.equal(got, x);
        assertRotated(x, x0, want, HD, { layout }, `applyRope overlap n=${n} ${layout}`);
        counts.overlap++;
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

// ---------------------------------------------------------------------------
// Option values for which the formula overflows or gives NaN: a RangeError
// naming the option, or values that are all finite (sin/cos within [-1, 1]).

const EXTREMES = [5e-324, -5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1e-30, 1e30, 1e300, Number.MAX_VALUE, -1e300, 0, -1];

const SIN_NUMERIC = {
  vaswani: ['base'],
  keras: ['base'],
  mae: ['base'],
  fairseq: ['base', 'paddingIdx'],
  tensor2tensor: ['minTimescale', 'maxTimescale'],
  whisper: ['maxTimescale'],
  diffusers: ['maxPeriod', 'freqShift', 'scale'],
  'guided-diffusion': ['maxPeriod'],
};

// A valid set of options for each rope type, and the numeric options it reads.
const ROPE_BASE = (half) => ({
  default: {},
  linear: { factor: 2 },
  dynamic: { factor: 2, maxPositions: 4096 },
  yarn: { factor: 4, originalMaxPositions: 4096 },
  longrope: { shortFactor: Array(half).fill(1), longFactor: Array(half).fill(2), originalMaxPositions: 4096, maxPositions: 16384 },
  llama3: { factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 },
});
const ROPE_NUMERIC = {
  default: ['base'],
  linear: ['base', 'factor'],
  dynamic: ['base', 'factor', 'maxPositions', 'seqLen'],
  yarn: ['base', 'factor', 'originalMaxPositions', 'betaFast', 'betaSlow', 'attentionFactor', 'mscale', 'mscaleAllDim'],
  longrope: ['base', 'originalMaxPositions', 'maxPositions', 'attentionFactor'],
  llama3: ['base', 'factor', 'lowFreqFactor', 'highFreqFactor', 'originalMaxPositions'],
};

describe('NaN-producing option values', () => {
  test('sinusoidal presets: an extreme value is a RangeError naming it, or every value is finite', () => {
    const cases = Object.entries(SIN_NUMERIC).flatMap(([preset, keys]) => keys.map((key) => [preset, key]));
    fc.assert(
      fc.property(flavourArb, fc.constantFrom(...cases), fc.constantFrom(...EXTREMES, 'h'), fc.constantFrom(8, 16, 64), (flavour, [preset, key], extreme, d) => {
        const pe = flavours[flavour];
        const value = extreme === 'h' ? d / 2 : extreme; // freqShift = h divides by zero
        const options = { preset, [key]: value };
        const positions = [0, 1, 2.5, 1000, 16777215, -3];
        let got;
        try {
          got = pe.encode(positions, d, options);
        } catch (e) {
          assert.ok(e instanceof RangeError, `${preset} ${key}=${value}: ${e?.constructor?.name}: ${e?.message}`);
          assert.match(e.message, nameRe(`options.${key}`), `${preset} ${key}=${value}: ${e.message}`);
          assert.doesNotMatch(e.message, FOREIGN);
          probe(pe, `${preset} ${key}=${value}`);
          counts.nanOptions++;
          return;
        }
        for (let i = 0; i < got.length; i++)
          if (!(Math.abs(got[i]) <= 1)) assert.fail(`${preset} ${key}=${value} d=${d}: value[${i}] = ${got[i]} (NaN or beyond ±1) instead of a RangeError`);
        const f = pe.frequencies(d, options);
        for (let i = 0; i < f.length; i++)
          if (!Number.isFinite(f[i])) assert.fail(`${preset} ${key}=${value}: frequency[${i}] = ${f[i]} instead of a RangeError`);
        counts.nanOptions++;
      }),
      { numRuns: RUNS * 4 },
    );
  });

  test('rope types: an extreme value is a RangeError naming it, or inv_j and the cache are finite', () => {
    const half = R / 2;
    const bases = ROPE_BASE(half);
    const reads = (type) => {
      const entry = pkg.vocabulary?.ropeTypes?.find((t) => t.name === type);
      return entry ? ROPE_NUMERIC[type].filter((k) => entry.reads.some((r) => (r?.option ?? r) === k)) : ROPE_NUMERIC[type];
    };
    const cases = Object.keys(ROPE_NUMERIC).flatMap((type) => reads(type).map((key) => [type, key]));
    fc.assert(
      fc.property(flavourArb, fc.constantFrom(...cases), fc.constantFrom(...EXTREMES), (flavour, [type, key], value) => {
        const pe = flavours[flavour];
        const options = { ropeType: type, ...bases[type], [key]: value };
        let inv;
        let cache;
        try {
          inv = pe.ropeFrequencies(R, options);
          cache = pe.ropeCache([0, 1, 16777215, -2.5], R, options);
        } catch (e) {
          assert.ok(e instanceof RangeError, `${type} ${key}=${value}: ${e?.constructor?.name}: ${e?.message}`);
          assert.match(e.message, nameRe(`options.${key}`), `${type} ${key}=${value}: ${e.message}`);
          assert.doesNotMatch(e.message, FOREIGN);
          probe(pe, `${type} ${key}=${value}`);
          counts.nanOptions++;
          return;
        }
        for (const f of inv) if (!(Number.isFinite(f) && f > 0)) assert.fail(`${type} ${key}=${value}: inv_j = ${f} instead of a RangeError`);
        assert.ok(Number.isFinite(cache.attentionFactor), `${type} ${key}=${value}: attentionFactor ${cache.attentionFactor}`);
        for (const k of ['cos', 'sin'])
          for (const v of cache[k]) if (!Number.isFinite(v)) assert.fail(`${type} ${key}=${value}: ${k} value ${v} instead of a RangeError`);
        counts.nanOptions++;
      }),
      { numRuns: RUNS * 4 },
    );
  });
});

// ---------------------------------------------------------------------------
// Oversize arrays: refused against the element limit before anything of that
// size is allocated or any element is read.

const MAX_ELEMENTS = 2 ** 29;

describe('oversize arrays', () => {
  const calls = [
    ['encode', (pe, positions, width) => pe.encode(positions, width)],
    ['prepared encode', (pe, positions, width) => pe.prepare(width).encode(positions)],
    ['ropeCache', (pe, positions, width) => pe.ropeCache(positions, width * 2)],
  ];
  for (const [method, call] of calls)
  test(`${method}: sparse and Proxy arrays longer than one result may be are a RangeError naming positions, no element read`, () => {
    fc.assert(
      fc.property(
        flavourArb,
        fc.constantFrom(2, 4, 64, 512),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('sparse', 'proxy'),
        (flavour, width, t, kind) => {
          const pe = flavours[flavour];
          const least = Math.floor(MAX_ELEMENTS / width) + 1;
          const n = Math.min(2 ** 32 - 1, least + Math.floor(t * (2 ** 32 - 1 - least)));
          const reads = [];
          const positions =
            kind === 'sparse'
              ? new Array(n)
              : new Proxy([], {
                  get(target, k) {
                    if (k === 'length') return n;
                    reads.push(k);
                    return Reflect.get(target, k);
                  },
                });
          refused(() => call(pe, positions, width), RangeError, nameRe('positions'), `${method} ${n} positions × ${width}`);
          assert.deepEqual(reads.filter((k) => typeof k === 'string' && /^\d+$/.test(k)), [], 'elements were read before the size check');
          probe(pe, `${method} oversize`);
          counts.oversize++;
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('holes in a sparse Array: a TypeError naming the first hole as positions[i]', () => {
    fc.assert(
      fc.property(flavourArb, fc.integer({ min: 1, max: 40 }), fc.nat(39), (flavour, n, hole) => {
        fc.pre(hole < n);
        const pe = flavours[flavour];
        const positions = Array.from({ length: n }, (_, i) => i);
        delete positions[hole];
        const out = sentinel(Float32Array, n * D);
        const kept = keep([out]);
        refused(() => pe.encode(positions, D, { out }), TypeError, nameRe(`positions[${hole}]`), `hole at ${hole}`);
        unchanged(kept, `hole at ${hole}`);
        probe(pe, 'holes');
        counts.oversize++;
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Methods taken off the encoder: bound, so they work with any `this`.

describe('unbound methods', () => {
  const METHODS = {
    encode: { args: [[0, 1, 2.5], D], verify: (r) => assertRows(r, [0, 1, 2.5], D, 'encode') },
    rows: { args: [5, 3, D], verify: (r) => assertRows(r, [5, 6, 7], D, 'rows') },
    table: { args: [3, 4], verify: (r) => assertRows(r, [0, 1, 2], 4, 'table') },
    grid2d: { args: [2, 2, D], verify: (r) => assertGrid(r, 2, 2, D, 'grid2d') },
    addTo: {
      args: () => [xPattern(2 * D), D],
      verify: (r) => assertAdded(r, xPattern(2 * D), 0, D, 'addTo'),
    },
    frequencies: {
      args: [D],
      verify: (r) => {
        assert.equal(r.length, D / 2);
        for (let k = 0; k < D / 2; k++) assert.ok(Math.abs(r[k] - 10000 ** ((-2 * k) / D)) <= 1e-12 * 10000 ** ((-2 * k) / D), `frequencies[${k}]`);
      },
    },
    heatmap: { args: [0, 2, D], verify: (r) => assertHeatmap(r, GREY, 0, 2, D, 'heatmap') },
    prepare: {
      args: [D],
      verify: (enc) => {
        const { rows, encode } = enc; // the prepared encoder's methods are bound too
        assertRows(rows(5, 3), [5, 6, 7], D, 'prepared rows');
        assertRows(encode([0, 1, 2.5]), [0, 1, 2.5], D, 'prepared encode');
      },
    },
    ropeFrequencies: {
      args: [R],
      verify: (r) => {
        const want = ropeParameters(R, {}).invFreq;
        for (let j = 0; j < want.length; j++) assert.ok(Math.abs(r[j] - want[j]) <= 1e-12 * want[j], `ropeFrequencies[${j}]`);
      },
    },
    ropeCache: { args: [[0, 1, 2.5], R], verify: (r) => assertRopeCache(r, [0, 1, 2.5], R, {}, 'ropeCache') },
    ropeCacheRows: { args: [5, 3, R], verify: (r) => assertRopeCache(r, [5, 6, 7], R, {}, 'ropeCacheRows') },
    applyRope: {
      args: () => [xPattern(3 * HD), [0, 1, 2.5], HD],
      verify: (r) => assertRotated(r, xPattern(3 * HD), [0, 1, 2.5], HD, {}, 'applyRope'),
    },
    getRopeIndex: {
      // T, then a 2 × 2 merged image (id 7): positions 0, then (1, 1 + h, 1 + w)
      args: [[3, 7, 7, 7, 7], { imageTokenId: 7, imageGridThw: [[1, 4, 4]] }],
      verify: (r) => {
        assert.deepEqual(Array.from(r.positions), [0, 0, 0, 1, 1, 1, 1, 1, 2, 1, 2, 1, 1, 2, 2]);
        assert.equal(r.ropeDelta, 3 - 5);
      },
    },
    ropeOptionsFromConfig: {
      args: [{ head_dim: 64, rope_theta: 500000, rope_scaling: { rope_type: 'linear', factor: 2 } }],
      verify: (r) => {
        assert.equal(r.headDim, 64);
        assert.equal(r.rotaryDim, 64);
        assert.equal(r.options.ropeType, 'linear');
        assert.equal(r.options.factor, 2);
        assert.equal(r.options.base, 500000);
      },
    },
  };
  const STYLES = {
    'taken off (this undefined)': (pe, name, args) => {
      const f = pe[name];
      return f(...args);
    },
    destructured: (pe, name, args) => {
      const { [name]: f } = pe;
      return f(...args);
    },
    'called on another object': (pe, name, args) => pe[name].call({ rows: 'not a method' }, ...args),
    'called on null': (pe, name, args) => Reflect.apply(pe[name], null, args),
    'called on the other flavour': (pe, name, args, other) => pe[name].apply(other, args),
    'stored on another object': (pe, name, args) => ({ method: pe[name] }).method(...args),
  };
  for (const name of Object.keys(METHODS))
    test(`${name}: works taken off the encoder or called on another object`, () => {
      fc.assert(
        fc.property(flavourArb, fc.constantFrom(...Object.keys(STYLES)), (flavour, style) => {
          const pe = flavours[flavour];
          const other = flavours[flavour === 'simd' ? 'baseline' : 'simd'];
          const m = METHODS[name];
          const args = typeof m.args === 'function' ? m.args() : m.args;
          m.verify(STYLES[style](pe, name, args, other));
          counts.unbound++;
        }),
        { numRuns: 8 },
      );
    });
});

// ---------------------------------------------------------------------------
// Prepared chunks: the callback gets a view over wasm memory. Whatever it does
// to the view, throwing, or calling the encoder again must not change any
// value the module hands out afterwards (nor, for a nested call, the rows the
// view it holds shows), unless the nested call is refused with a named error.

// Checks rows of a chunk view against the reference: the first, the last and a few between.
function assertChunk(view, firstRow, d, what) {
  const n = lengthOf(view) / d;
  assert.ok(Number.isInteger(n) && n > 0, `${what}: view of ${lengthOf(view)} values for dModel ${d}`);
  for (const r of new Set([0, n - 1, Math.floor(n / 2), Math.floor(n / 3)])) {
    const want = referenceRow(firstRow + r, d);
    for (let c = 0; c < d; c++)
      if (!(Math.abs(view[r * d + c] - want[c]) <= TOLERANCE)) assert.fail(`${what}: row ${firstRow + r} column ${c} = ${view[r * d + c]}, want ${want[c]}`);
  }
  return n;
}

// The chunks seen cover start … start+count-1 exactly once.
function assertCovered(seen, start, count, what) {
  seen.sort((a, b) => a[0] - b[0]);
  let next = start;
  for (const [first, n] of seen) {
    assert.equal(first, next, `${what}: chunks do not tile the rows (gap or overlap at ${next})`);
    next += n;
  }
  assert.equal(next, start + count, `${what}: chunks end at ${next}, want ${start + count}`);
}

describe('prepared chunks callbacks', () => {
  test('a callback that scribbles on its view or throws: every chunk, and every call after, is right', () => {
    fc.assert(
      fc.property(
        flavourArb,
        fc.integer({ min: -20000, max: 20000 }),
        fc.integer({ min: 1, max: 20000 }),
        fc.constantFrom(4, 8, 64),
        fc.constantFrom('fill NaN', 'fill 0', 'reverse', 'detach its buffer', 'throw'),
        (flavour, start, count, d, act) => {
          const pe = flavours[flavour];
          const enc = pe.prepare(d);
          const seen = [];
          const boom = new Error('callback failed');
          const run = () =>
            enc.chunks(start, count, (view, firstRow) => {
              seen.push([firstRow, assertChunk(view, firstRow, d, `${act} chunk at ${firstRow}`)]);
              if (act === 'fill NaN') view.fill(NaN);
              else if (act === 'fill 0') view.fill(0);
              else if (act === 'reverse') view.reverse();
              else if (act === 'detach its buffer') {
                try {
                  detach(view.buffer);
                } catch {
                  // wasm memory cannot be detached; a copy can
                }
              } else throw boom;
            });
          if (act === 'throw') {
            assert.throws(run, (e) => e === boom, 'the callback\'s own error reaches the caller');
            assert.equal(seen.length, 1, 'no chunk after the callback threw');
          } else {
            run();
            assertCovered(seen, start, count, act);
          }
          const again = [];
          enc.chunks(start, count, (view, firstRow) => again.push([firstRow, assertChunk(view, firstRow, d, `after ${act}`)]));
          assertCovered(again, start, count, `after ${act}`);
          assertRows(enc.rows(start, Math.min(count, 3)), Array.from({ length: Math.min(count, 3) }, (_, i) => start + i), d, `rows after ${act}`);
          probe(pe, `chunks ${act}`);
          counts.callbacks++;
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('a callback that calls the encoder again: the view it holds keeps its rows, or the nested call is refused by name', () => {
    const nested = {
      table: (pe, d) => assertRows(pe.table(5000, d), Array.from({ length: 5000 }, (_, i) => i), d, 'nested table'),
      'prepared rows': (pe, d, enc) => assertRows(enc.rows(-70, 4200), Array.from({ length: 4200 }, (_, i) => i - 70), d, 'nested prepared rows'),
      'inner chunks': (pe, d) => {
        const seen = [];
        pe.prepare(d * 2).chunks(100, 9000, (v, first) => seen.push([first, assertChunk(v, first, d * 2, 'inner chunk')]));
        assertCovered(seen, 100, 9000, 'inner chunks');
      },
      encode: (pe, d) => {
        const positions = Array.from({ length: 6000 }, (_, i) => i * 0.75);
        assertRows(pe.encode(positions, d), positions, d, 'nested encode');
      },
      heatmap: (pe, d) => assertHeatmap(pe.heatmap(0, 4500, d), GREY, 0, 4500, d, 'nested heatmap'),
      applyRope: (pe) => {
        const x = xPattern(4100 * HD);
        const x0 = x.slice();
        const positions = Array.from({ length: 4100 }, (_, i) => i);
        assertRotated(pe.applyRope(x, positions, HD), x0, positions, HD, {}, 'nested applyRope');
      },
      'a large new plan': (pe) => assertRows(pe.rows(3, 2, 65536), [3, 4], 65536, 'nested 65536-wide rows'),
    };
    fc.assert(
      fc.property(flavourArb, fc.constantFrom(...Object.keys(nested)), fc.integer({ min: 1, max: 12000 }), fc.constantFrom(4, 8, 64), (flavour, kind, count, d) => {
        const pe = flavours[flavour];
        const enc = pe.prepare(d);
        const seen = [];
        enc.chunks(0, count, (view, firstRow) => {
          const n = assertChunk(view, firstRow, d, `${kind}: chunk at ${firstRow}`);
          seen.push([firstRow, n]);
          if (seen.length > 1) return; // one nested call, from the first chunk's callback
          try {
            nested[kind](pe, d, enc);
          } catch (e) {
            if (e instanceof assert.AssertionError) throw e;
            assert.ok(e instanceof Error && e.message.startsWith('sinpe: '), `${kind}: nested call failed with ${e?.constructor?.name}: ${e?.message}`);
            assert.doesNotMatch(e.message, FOREIGN);
            return;
          }
          assert.equal(lengthOf(view), n * d, `${kind}: the view changed length during the nested call`);
          assertChunk(view, firstRow, d, `${kind}: chunk at ${firstRow} after the nested call`);
        });
        assertCovered(seen, 0, count, kind);
        probe(pe, `nested ${kind}`);
        counts.callbacks++;
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Loading: hostile wasmBinary bytes and locateFile results. sinpe() must reject
// with an Error (a TypeError for a wrong type) whose message names the init
// option and says what to pass, with the engine's error as `cause` for bytes
// that do not compile; Emscripten's abort text never appears, not even on the
// console; loading afterwards still works.

const EMPTY_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
// (memory) and (table 0 funcref) exported as "m" and "t": the kinds sinpe's module exports, not its names.
const MEMORY_AND_TABLE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 4, 4, 1, 0x70, 0, 0, 5, 3, 1, 0, 1, 7, 9, 2, 1, 0x6d, 2, 0, 1, 0x74, 1, 0]);
// Imports env.f: a function sinpe's glue does not provide.
const FOREIGN_IMPORT = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 2, 9, 1, 3, 101, 110, 118, 1, 102, 0, 0]);

async function captureConsole(fn) {
  const lines = [];
  const saved = { warn: console.warn, error: console.error, log: console.log };
  for (const k of Object.keys(saved)) console[k] = (...a) => lines.push(a.join(' '));
  try {
    return { result: await fn(), lines };
  } catch (e) {
    return { error: e, lines };
  } finally {
    Object.assign(console, saved);
  }
}

async function loadRefused(init, { Type = Error, name, compileError = false, what }) {
  const { error, lines } = await captureConsole(() => sinpe(init));
  assert.ok(error !== undefined, `${what}: sinpe() resolved`);
  assert.ok(error instanceof Type, `${what}: expected ${Type.name}, got ${error?.constructor?.name}: ${error?.message}`);
  if (Type === Error) assert.ok(!(error instanceof TypeError) || name === 'init.locateFile', `${what}: bad bytes are not a TypeError`);
  assert.ok(error.message.startsWith('sinpe: '), `${what}: ${error.message}`);
  assert.match(error.message, nameRe(name), `${what}: message names ${name}: ${error.message}`);
  assert.doesNotMatch(error.message, FOREIGN, `${what}: ${error.message}`);
  if (compileError) {
    assert.ok(error.cause instanceof WebAssembly.CompileError, `${what}: cause is ${error.cause?.constructor?.name}`);
    assert.match(error.message, /sinpe-(simd|baseline)\.wasm/, `${what}: the message says which file to pass`);
  }
  assert.deepEqual(lines.filter((l) => /Aborted|ASSERTIONS|failed to asynchronously prepare wasm/.test(l)), [], `${what}: Emscripten wrote to the console`);
  const pe = await sinpe({ simd: init?.simd ?? 'auto' });
  probe(pe, `${what}: loading afterwards`);
  probe(flavours.simd, `${what}: loaded encoders afterwards`);
  counts.loading++;
}

describe('hostile wasmBinary and locateFile', () => {
  test('garbage bytes: an Error naming init.wasmBinary with a CompileError cause', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.uint8Array({ minLength: 0, maxLength: 96 }), fc.boolean(), async (header, tail, simd) => {
        const bytes = header ? new Uint8Array([...EMPTY_MODULE, ...tail]) : tail;
        const valid = WebAssembly.validate(bytes);
        await loadRefused({ simd, wasmBinary: header && tail.length % 2 ? bytes.buffer : bytes }, { name: 'init.wasmBinary', compileError: !valid, what: `${bytes.length} bytes` });
      }),
      { numRuns: RUNS },
    );
  });

  const modules = { 'an empty valid module': EMPTY_MODULE, 'a module exporting a memory and a table under other names': MEMORY_AND_TABLE, 'a module importing env.f': FOREIGN_IMPORT };
  for (const [what, bytes] of Object.entries(modules))
    test(`${what}: an Error naming init.wasmBinary that says what to pass`, async () => {
      for (const simd of [true, false]) {
        const { error } = await captureConsole(() => sinpe({ simd, wasmBinary: bytes }));
        assert.match(error?.message ?? '', new RegExp(`sinpe-${simd ? 'simd' : 'baseline'}\\.wasm`), `${what}: ${error?.message}`);
        await loadRefused({ simd, wasmBinary: bytes.slice() }, { name: 'init.wasmBinary', what });
      }
    });

  test('wrong types and unusable buffers: a TypeError naming init.wasmBinary', async () => {
    const real = readFileSync(wasmPath('simd'));
    const detachedBuffer = () => {
      const b = new ArrayBuffer(real.length);
      new Uint8Array(b).set(real);
      detach(b);
      return b;
    };
    const detachedView = () => {
      const v = new Uint8Array(real);
      detach(v.buffer);
      return v;
    };
    const values = {
      'a detached ArrayBuffer': detachedBuffer,
      'a detached Uint8Array': detachedView,
      'a string': () => 'AGFzbQEAAAA=',
      'a number': () => 42,
      'null': () => null,
      'an Array of bytes': () => Array.from(real),
      'a Float32Array': () => new Float32Array(8),
      'a DataView': () => new DataView(new Uint8Array(real).buffer),
      'a Proxy over the real bytes': () => new Proxy(new Uint8Array(real), {}),
      'an object inheriting from Uint8Array.prototype': () => Object.create(Uint8Array.prototype),
      'a SharedArrayBuffer': () => new SharedArrayBuffer(16),
      'a Promise of the bytes': () => Promise.resolve(real),
    };
    for (const [what, make] of Object.entries(values)) await loadRefused({ simd: true, wasmBinary: make() }, { Type: TypeError, name: 'init.wasmBinary', what });
  });

  test('the real bytes in unusual but valid wrappers load', async () => {
    const real = readFileSync(wasmPath('baseline'));
    const padded = new Uint8Array(real.length + 13);
    padded.set(real, 7);
    const wrappers = {
      'a Node Buffer': real,
      'an offset Uint8Array view': padded.subarray(7, 7 + real.length),
      'an ArrayBuffer': new Uint8Array(real).buffer,
      'a Uint8Array from another realm': vm.runInContext('new Uint8Array(n)', vm.createContext({ n: real.length })),
      'a Uint8Array with a shadowed length': Object.defineProperty(new Uint8Array(real), 'length', { value: 3 }),
    };
    wrappers['a Uint8Array from another realm'].set(real);
    for (const [what, wasmBinary] of Object.entries(wrappers)) {
      const pe = await sinpe({ simd: false, wasmBinary });
      assert.equal(pe.simd, false, what);
      probe(pe, what);
      counts.loading++;
    }
  });

  test('locateFile results: an Error naming init.locateFile', async () => {
    const cases = [
      ['returns undefined', () => undefined, TypeError, false],
      ['returns a number', () => 7, TypeError, false],
      ['returns an empty string', () => '', TypeError, false],
      ['throws', () => {
        throw new Error('no such CDN');
      }, Error, false],
      ['returns the URL of a file that is not wasm', () => import.meta.url, Error, true],
      ['returns the URL of a missing file', (path, prefix) => `${prefix}missing-${path}`, Error, false],
    ];
    for (const [what, locateFile, Type, compileError] of cases)
      for (const simd of [true, false]) await loadRefused({ simd, locateFile }, { Type, name: 'init.locateFile', compileError, what: `locateFile ${what}` });
  });

  test('locateFile returning the file\'s own URL loads', async () => {
    for (const simd of [true, false]) {
      const seen = [];
      const pe = await sinpe({
        simd,
        locateFile: (path, prefix) => {
          seen.push(path);
          return prefix + path;
        },
      });
      assert.deepEqual(seen, [`sinpe-${simd ? 'simd' : 'baseline'}.wasm`]);
      probe(pe, 'locateFile');
      counts.loading++;
    }
  });
});

// ---------------------------------------------------------------------------
// Regression tests, one per defect of the first hostile run (and of this one).

describe('regressions', () => {
  test('regression: out sharing the positions\' ArrayBuffer with more than 4096 positions re-read positions its earlier chunks overwrote', () => {
    // Each row of out (d float32) is wider than a position, so the first chunk's
    // rows cover positions of the next chunks before they are read.
    for (const pe of Object.values(flavours))
      for (const PositionType of [Float32Array, Float64Array]) {
        const n = 5000;
        const d = 8;
        const out = new Float32Array(n * d);
        const positions = new PositionType(out.buffer, 0, n);
        for (let i = 0; i < n; i++) positions[i] = i * 0.5;
        const want = Array.from(positions);
        assertRows(pe.encode(positions, d, { out }), want, d, `out over ${PositionType.name} positions`);
        counts.overlap++;
      }
  });

  test('regression: a colormap Uint8Array(4) claiming length 1024 drew from a stale colormap instead of throwing', () => {
    for (const pe of Object.values(flavours)) {
      const colormap = new Uint8Array(4);
      Object.defineProperty(colormap, 'length', { value: 1024 });
      const out = sentinel(Uint8ClampedArray, 2 * D * 4);
      const kept = keep([out]);
      refused(() => pe.heatmap(0, 2, D, { colormap, out }), TypeError, /options\.colormap\b.*\b4\b/, 'colormap of 4 claiming 1024');
      unchanged(kept, 'colormap of 4');
      probe(pe, 'colormap of 4');
      counts.shadowed++;
    }
  });

  test('regression: out and x with a shadowed length ended in the engine\'s "offset is out of bounds"', () => {
    for (const pe of Object.values(flavours)) {
      const out = new Float32Array(3 * D);
      Object.defineProperty(out, 'length', { value: 3 * D + 64 });
      assertRows(pe.rows(0, 3, D, { out }), [0, 1, 2], D, 'out with a longer shadowed length');
      const short = new Float32Array(2 * D);
      Object.defineProperty(short, 'length', { value: 3 * D });
      refused(() => pe.rows(0, 3, D, { out: short }), RangeError, nameRe('options.out'), 'short out claiming the right length');
      const x = xPattern(2 * D);
      Object.defineProperty(x, 'length', { value: 10 * D });
      assertAdded(pe.addTo(x, D), xPattern(2 * D), 0, D, 'x with a shadowed length');
      const odd = xPattern(2 * D + 1);
      Object.defineProperty(odd, 'length', { value: 2 * D });
      refused(() => pe.addTo(odd, D), RangeError, nameRe('x'), 'x of 2d+1 claiming 2d');
      probe(pe, 'shadowed length');
      counts.shadowed += 4;
    }
  });

  for (const key of ['maxTimescale', 'minTimescale'])
    test(`regression: tensor2tensor ${key} = 5e-324 returned a Float32Array of NaN`, () => {
      for (const pe of Object.values(flavours)) {
        for (const call of [(o) => pe.encode([0, 1, 2], 16, o), (o) => pe.rows(0, 3, 16, o), (o) => pe.frequencies(16, o), (o) => pe.heatmap(0, 3, 16, o)])
          refused(() => call({ preset: 'tensor2tensor', [key]: 5e-324 }), RangeError, nameRe(`options.${key}`), `${key} = 5e-324`);
        probe(pe, key);
        counts.nanOptions++;
      }
    });

  test('regression: a Proxy, Object.create(Float32Array.prototype) or a frozen look-alike as out, x or colormap met "called on incompatible receiver"', () => {
    for (const pe of Object.values(flavours))
      for (const slotId of ['encode options.out', 'addTo x', 'heatmap options.colormap'])
        for (const kind of ['proxy', 'objectCreate', 'frozenLookAlike']) {
          const slot = SLOTS.find((s) => s.id === slotId);
          const { value, backing } = LOOK_ALIKES[kind](slot);
          const { run, others } = slot.setup(value, {});
          const kept = keep([...others, ...(backing ? [backing] : [])]);
          refused(() => run(pe), TypeError, nameRe(slot.name), `${slotId} ${kind}`);
          unchanged(kept, `${slotId} ${kind}`);
          probe(pe, `${slotId} ${kind}`);
          counts.lookAlike++;
        }
  });

  test('regression: a Float64Array with a detached buffer as positions, given or detached by another option\'s getter, met "Cannot perform Construct on a detached ArrayBuffer"', () => {
    for (const pe of Object.values(flavours)) {
      const given = new Float64Array([0, 1, 2]);
      detach(given.buffer);
      refused(() => pe.encode(given, D), TypeError, /\bpositions is detached\b/, 'detached positions');
      const later = new Float64Array([0, 1, 2]);
      refused(() => pe.encode(later, D, withGetter('base', 10000, () => detach(later.buffer))), TypeError, /\bpositions is detached\b/, 'positions detached by options.base');
      probe(pe, 'detached positions');
      counts.detaching += 2;
    }
  });

  test('regression: a sparse Array of length 2^32 − 1 as positions met "Array buffer allocation failed"', () => {
    for (const pe of Object.values(flavours)) {
      refused(() => pe.encode(new Array(2 ** 32 - 1), D), RangeError, nameRe('positions'), 'length 2^32 − 1');
      probe(pe, 'sparse 2^32 − 1');
      counts.oversize++;
    }
  });

  test('regression: a getter shrinking the colormap during the call was reported as options.out', () => {
    for (const pe of Object.values(flavours)) {
      const buffer = new ArrayBuffer(1024, { maxByteLength: 1024 });
      const colormap = indexColormap(Uint8Array, new Uint8Array(buffer));
      const out = sentinel(Uint8ClampedArray, 2 * D * 4);
      const kept = keep([out]);
      const options = { colormap, out };
      Object.defineProperty(options, 'vmax', {
        enumerable: true,
        get() {
          buffer.resize(512);
          return 1;
        },
      });
      const e = refused(() => pe.heatmap(0, 2, D, options), TypeError, nameRe('options.colormap'), 'colormap shrunk by options.vmax');
      assert.doesNotMatch(e.message, nameRe('options.out'), 'the message blames options.out');
      unchanged(kept, 'shrunk colormap');
      probe(pe, 'shrunk colormap');
      counts.shrinking++;
    }
  });

  test('regression: sinpe({ wasmBinary }) with garbage, an empty valid module or a detached buffer aborted with Emscripten\'s text or "Cannot read properties of undefined"', async () => {
    await loadRefused({ wasmBinary: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) }, { name: 'init.wasmBinary', compileError: true, what: 'garbage' });
    await loadRefused({ wasmBinary: EMPTY_MODULE }, { name: 'init.wasmBinary', what: 'empty valid module' });
    const b = new ArrayBuffer(64);
    detach(b);
    await loadRefused({ wasmBinary: b }, { Type: TypeError, name: 'init.wasmBinary', what: 'detached' });
  });

  test('regression: a method taken off the encoder (const f = pe.table; f(3, 4)) met "Cannot read properties of undefined (reading \'rows\')"', () => {
    for (const pe of Object.values(flavours)) {
      const f = pe.table;
      assertRows(f(3, 4), [0, 1, 2], 4, 'f(3, 4)');
      assertRows(pe.table.call({}, 3, 4), [0, 1, 2], 4, 'table.call({}, 3, 4)');
      counts.unbound += 2;
    }
  });

  test('regression: an out with an own set method was left unwritten, positions with an own subarray were encoded from it', () => {
    for (const pe of Object.values(flavours)) {
      const out = new Float32Array(2 * D);
      out.set = () => {};
      assertRows(pe.table(2, D, { out }), [0, 1], D, 'out with an own set');
      const positions = new Float64Array([0, 1]);
      positions.subarray = () => new Float64Array([5, 5]);
      assertRows(pe.encode(positions, D), [0, 1], D, 'positions with an own subarray');
      const x = xPattern(2 * D);
      x.subarray = () => new Float32Array(2 * D);
      assertAdded(pe.addTo(x, D), xPattern(2 * D), 0, D, 'x with an own subarray');
      counts.shadowed += 3;
    }
  });
});

// A getter of a positions element that calls the encoder again must not change
// which plan the outer call uses (the module's per-call plan is shared).
describe('re-entrant calls from a positions getter', () => {
  test('regression: a positions element getter calling the encoder made encode and ropeCache use the inner call\'s plan', () => {
    for (const flavour of ['simd', 'baseline']) {
      const pe = flavours[flavour];
      const positions = [1, 2, 3];
      Object.defineProperty(positions, 1, {
        get() {
          pe.table(3, 8, { preset: 'keras' });
          return 2;
        },
      });
      const got = pe.encode(positions, 64);
      for (let i = 0; i < 3; i++) {
        const want = referenceRow(i + 1, 64);
        for (let c = 0; c < 64; c++)
          assert.ok(Math.abs(got[i * 64 + c] - want[c]) <= TOLERANCE, `${flavour} encode row ${i} col ${c}: ${got[i * 64 + c]} vs ${want[c]}`);
      }
      const rp = [0, 1];
      Object.defineProperty(rp, 1, {
        get() {
          pe.ropeCache([5], 4);
          return 1;
        },
      });
      const cache = pe.ropeCache(rp, 16);
      for (let j = 0; j < 8; j++) {
        const w = 10000 ** (-2 * j / 16);
        assert.ok(Math.abs(cache.cos[8 + j] - Math.cos(w)) <= TOLERANCE, `${flavour} ropeCache cos[1][${j}]`);
        assert.ok(Math.abs(cache.sin[8 + j] - Math.sin(w)) <= TOLERANCE, `${flavour} ropeCache sin[1][${j}]`);
      }
      const x = new Float32Array(2 * 16).fill(1);
      const ap = [0, 1];
      Object.defineProperty(ap, 1, {
        get() {
          pe.ropeCache([5], 4);
          return 1;
        },
      });
      pe.applyRope(x, ap, 16);
      for (let j = 0; j < 8; j++) {
        const w = 10000 ** (-2 * j / 16);
        const want = Math.cos(w) - Math.sin(w); // x_a' = x_a cos - x_b sin with x_a = x_b = 1, token 1
        assert.ok(Math.abs(x[16 + j] - want) <= 5e-7 * 2, `${flavour} applyRope token 1 pair ${j}: ${x[16 + j]} vs ${want}`);
      }
    }
  });
});
