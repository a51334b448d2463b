// The per-call plan cache (js/engine.js Engine.use; issue 23, item 6): an
// encoder method called again with equal options reuses the plan made for the
// first call, so a cached plan must never stand in for other options. Calls
// alternate between requests that differ in one part of the key each (width,
// preset, layout, an option's value, a boolean option, an array option's values,
// the plan kind, the rope type, the position axes; options.dtype, which is
// not the plan's, alternates on one plan), and every result is
// checked against the float64 references (tests/js/reference.mjs,
// tests/js/rope-reference.mjs), never against sinpe's own output. More
// distinct requests than the cache keeps are cycled through, so a dropped
// plan that lingered (or whose handle was reused) would show.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';
import { referenceGrid, referenceRow, TOLERANCE } from './reference.mjs';
import { ropeCache as referenceCache } from './rope-reference.mjs';
import { halfBits, multiAxisCache } from './mrope-reference.mjs';
import { ErrorTracker } from './errors-helper.mjs';

const FLAVOURS = ['simd', 'baseline'];
const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});

// Positions whose rows differ between every pair of requests below.
const POSITIONS = [0, 1, 7, 1000, 123457];

// Each row's values against the reference, by index; the error says where.
function assertRows(got, positions, d, options, what) {
  const t = new ErrorTracker();
  if (got.length !== positions.length * d) t.add(NaN, -1);
  positions.forEach((p, i) => {
    const want = referenceRow(p, d, options);
    for (let c = 0; c < d; c++) t.addDifference(got[i * d + c], want[c], i * d + c);
  });
  assert.ok(t.within(TOLERANCE), `${what}: ${t.describe()}`);
}

function assertCache(got, positions, r, options, what) {
  assertSame(got, referenceCache(positions, r, options), what);
}

// A cache { cos, sin, attentionFactor } against a reference cache.
function assertSame(got, want, what) {
  for (const key of ['cos', 'sin']) {
    const t = new ErrorTracker();
    if (got[key].length !== want[key].length) t.add(NaN, -1);
    for (let i = 0; i < want[key].length; i++) t.addDifference(got[key][i], want[key][i], i);
    assert.ok(t.within(TOLERANCE * Math.max(1, want.attentionFactor)), `${what} ${key}: ${t.describe()}`);
  }
  assert.equal(got.attentionFactor, want.attentionFactor, `${what}: attentionFactor`);
}

// Sinusoidal requests, each differing from another in one part of the plan's key.
const ROW_REQUESTS = [
  { d: 16, options: {} },
  { d: 18, options: {} }, // width
  { d: 16, options: { preset: 'whisper' } }, // preset
  { d: 16, options: { layout: 'concat' } }, // layout
  { d: 16, options: { base: 100 } }, // an option's value
  { d: 16, options: { base: 1000 } },
  { d: 16, options: { preset: 'guided-diffusion' } },
  { d: 16, options: { preset: 'mae', base: 100 } },
  { d: 16, options: { preset: 'diffusers', scale: 2 } },
  { d: 16, options: { preset: 'diffusers', scale: 2, flipSinToCos: true } }, // a boolean option
  { d: 16, options: { preset: 'diffusers', freqShift: 0.5 } },
  { d: 16, options: { preset: 'fairseq', paddingIdx: 7 } },
  { d: 16, options: { preset: 'fairseq', paddingIdx: 1 } },
  { d: 16, options: { preset: 'tensor2tensor', maxTimescale: 50 } },
];

// RoPE requests (rotaryDim 8), each differing from another in one part of the key.
const ROPE_REQUESTS = [
  {},
  { base: 500 },
  { ropeType: 'linear', factor: 2 },
  { ropeType: 'linear', factor: 4 },
  { ropeType: 'longrope', shortFactor: [1, 1.5, 2, 3], longFactor: [2, 2, 2, 2], originalMaxPositions: 4096, maxPositions: 16384 },
  { ropeType: 'longrope', shortFactor: [1, 1.5, 2, 4], longFactor: [2, 2, 2, 2], originalMaxPositions: 4096, maxPositions: 16384 },
  // Request 5's values as a typed array: the same plan (the key compares values), the same cache.
  { ropeType: 'longrope', shortFactor: new Float64Array([1, 1.5, 2, 4]), longFactor: [2, 2, 2, 2], originalMaxPositions: 4096, maxPositions: 16384 },
  { ropeType: 'yarn', factor: 4, originalMaxPositions: 64 },
  { ropeType: 'yarn', factor: 4, originalMaxPositions: 64, truncate: false },
];
const ROPE_SAME = new Set(['5,6']);

// Position axes (rotaryDim 8): the plan's ropeAxes and sections decide which
// position of its token each pair reads.
const AXES_REQUESTS = [
  {},
  { mropeSection: [2, 2] },
  { mropeSection: [2, 2], ropeAxes: 'interleaved' },
  { mropeSection: [2, 2], ropeAxes: 'axial' },
  { mropeSection: [1, 1, 2] },
  { mropeSection: [1, 1, 2], ropeAxes: 'interleaved' },
];
const TOKENS = [
  [3, 50, 9],
  [100, 7, 2000],
];
const axesOf = (o) => (o.mropeSection === undefined ? 1 : o.mropeSection.length);
const axesPositions = (o) => TOKENS.flatMap((t) => t.slice(0, axesOf(o)));
function axesReference(o) {
  if (o.mropeSection === undefined) return referenceCache(axesPositions(o), 8, o);
  const { mropeSection, ropeAxes = 'sectioned', ...rest } = o;
  return multiAxisCache(axesPositions(o), 8, ropeAxes, mropeSection, rest);
}

// Whether two float64 references differ somewhere by more than the tolerance:
// only then would one request's plan standing in for the other be seen.
function differ(a, b) {
  if (a.length !== b.length) return true;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > 4 * TOLERANCE) return true;
  return false;
}

const rowsOf = (positions, d, options) => Float64Array.from(positions.flatMap((p) => Array.from(referenceRow(p, d, options))));

test('the requests are told apart by their values (else a stale plan would pass unseen)', () => {
  const refs = ROW_REQUESTS.map(({ d, options }) => rowsOf(POSITIONS, d, options));
  for (let a = 0; a < refs.length; a++) for (let b = a + 1; b < refs.length; b++) assert.ok(differ(refs[a], refs[b]), `row requests ${a} and ${b} give the same rows`);
  const caches = ROPE_REQUESTS.map((o) => referenceCache(POSITIONS, 8, o));
  for (let a = 0; a < caches.length; a++)
    for (let b = a + 1; b < caches.length; b++) {
      if (ROPE_SAME.has(`${a},${b}`)) continue;
      assert.ok(differ(caches[a].cos, caches[b].cos) || differ(caches[a].sin, caches[b].sin), `rope requests ${a} and ${b} give the same cache`);
    }
  // Requests of as many axes, read from the same positions, must differ.
  const axes = AXES_REQUESTS.map(axesReference);
  for (let a = 0; a < axes.length; a++)
    for (let b = a + 1; b < axes.length; b++)
      if (axesOf(AXES_REQUESTS[a]) === axesOf(AXES_REQUESTS[b])) assert.ok(differ(axes[a].cos, axes[b].cos) || differ(axes[a].sin, axes[b].sin), `axes requests ${a} and ${b} give the same cache`);
});

for (const flavour of FLAVOURS) {
  test(`${flavour}: alternating options, each call gets its own options' rows (rows, encode, table)`, () => {
    const pe = flavours[flavour];
    // Twice round, in both orders: every request follows several others and is cached when it comes again.
    const order = [...ROW_REQUESTS.keys(), ...[...ROW_REQUESTS.keys()].reverse(), ...ROW_REQUESTS.keys()];
    for (const k of order) {
      const { d, options } = ROW_REQUESTS[k];
      const what = `request ${k} (d=${d}, ${JSON.stringify(options)})`;
      assertRows(pe.encode(POSITIONS, d, options), POSITIONS, d, options, `${what} encode`);
      assertRows(pe.rows(999, 3, d, options), [999, 1000, 1001], d, options, `${what} rows`);
      const out = new Float32Array(d).fill(NaN);
      assertRows(pe.rows(POSITIONS[4], 1, d, { ...options, out }), [POSITIONS[4]], d, options, `${what} rows into out`);
      assertRows(pe.table(4, d, options), [0, 1, 2, 3], d, options, `${what} table`);
    }
  });

  test(`${flavour}: options.dtype alternates on one cached plan: each call gets its own element type, rounded once`, () => {
    const pe = flavours[flavour];
    const d = 16;
    const want = rowsOf(POSITIONS, d, {});
    for (let round = 0; round < 3; round++)
      for (const dtype of ['float32', 'float16', 'bfloat16', 'float16']) {
        const got = pe.encode(POSITIONS, d, { dtype });
        if (dtype === 'float32') {
          assert.ok(got instanceof Float32Array, `${dtype}: ${got?.constructor?.name}`);
          assertRows(got, POSITIONS, d, {}, `dtype ${dtype}, round ${round}`);
          continue;
        }
        assert.ok(got instanceof Uint16Array && got.length === want.length, `${dtype}: ${got?.constructor?.name} of ${got?.length}`);
        // Each value the float64 one rounded once to the dtype (either neighbour within the reference's own error of a boundary).
        for (let i = 0; i < want.length; i++) {
          const { bits, near, either } = halfBits(want[i], dtype, 1e-12);
          assert.ok(near ? either.includes(got[i]) : got[i] === bits, `${dtype}, round ${round}: value ${i} has bits ${got[i]}, want ${bits}`);
        }
      }
  });

  test(`${flavour}: a grid plan and a rows plan of the same options and width are not confused`, () => {
    const pe = flavours[flavour];
    for (let round = 0; round < 3; round++) {
      const grid = pe.grid2d(2, 3, 16, { preset: 'mae' });
      const want = referenceGrid(2, 3, 16, { preset: 'mae' });
      const t = new ErrorTracker();
      want.forEach((row, i) => row.forEach((v, c) => t.addDifference(grid[i * 16 + c], v, i * 16 + c)));
      if (grid.length !== want.length * 16) t.add(NaN, -1);
      assert.ok(t.within(TOLERANCE), `grid round ${round}: ${t.describe()}`);
      assertRows(pe.encode(POSITIONS, 16, { preset: 'mae' }), POSITIONS, 16, { preset: 'mae' }, `rows after grid, round ${round}`);
    }
  });

  test(`${flavour}: alternating RoPE options (rope type, factors, array factors) get their own caches`, () => {
    const pe = flavours[flavour];
    const R = 8;
    const requests = ROPE_REQUESTS;
    const order = [...requests.keys(), ...[...requests.keys()].reverse(), ...requests.keys()];
    for (const k of order) {
      const options = requests[k];
      const what = `rope request ${k} (${JSON.stringify(options)})`;
      const plain = { ...options, shortFactor: options.shortFactor && Array.from(options.shortFactor) };
      if (plain.shortFactor === undefined) delete plain.shortFactor;
      assertCache(pe.ropeCache(POSITIONS, R, options), POSITIONS, R, plain, `${what} ropeCache`);
      assertCache(pe.ropeCacheRows(5, 2, R, options), [5, 6], R, plain, `${what} ropeCacheRows`);
    }
  });

  test(`${flavour}: position axes alternate (one axis, sections, ropeAxes): each call reads its own positions per token`, () => {
    const pe = flavours[flavour];
    for (let round = 0; round < 3; round++)
      for (const k of round === 1 ? [...AXES_REQUESTS.keys()].reverse() : AXES_REQUESTS.keys()) {
        const options = AXES_REQUESTS[k];
        const positions = axesPositions(options);
        assertSame(pe.ropeCache(positions, 8, options), axesReference(options), `axes request ${k} (${JSON.stringify(options)}), round ${round}`);
      }
  });

  test(`${flavour}: more distinct requests than the cache keeps, cycled: no dropped plan is used again`, () => {
    const pe = flavours[flavour];
    const bases = Array.from({ length: 21 }, (_, i) => 50 + 37 * i);
    for (let round = 0; round < 3; round++)
      for (const base of round === 1 ? [...bases].reverse() : bases) {
        assertRows(pe.encode(POSITIONS, 12, { base }), POSITIONS, 12, { base }, `base ${base}, round ${round}`);
        const prep = pe.prepare(12, { base: base + 1 }); // a prepared plan takes a handle too
        assertRows(prep.encode(POSITIONS), POSITIONS, 12, { base: base + 1 }, `prepared base ${base + 1}, round ${round}`);
      }
  });
}
