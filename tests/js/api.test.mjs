// The package API as users get it: imported by name from the installed tarball.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import sinpe, { ropeOptionsFromConfig, vocabulary } from 'sinpe.wasm';
import { referenceRow, referenceGrid, maxError, TOLERANCE } from './reference.mjs';
import { ErrorTracker } from './errors-helper.mjs';
import { loadWithMemory } from './wasm-memory.mjs';

const PRESETS = ['vaswani', 'keras', 'tensor2tensor', 'fairseq', 'whisper', 'diffusers', 'guided-diffusion', 'mae'];
const WIDTHS = [2, 4, 7, 16, 17, 384, 512, 768];
const POSITIONS = [0, 1, 2, 3, 4, 5, 6, 7, 100, 4095, 65535, 1000003, 16777215, 0.5, 1.25, 999.999, 7777.75, -3, 16777214.5];

// Widths at which a preset's formula is undefined (odd where it requires even;
// a division by zero in fairseq/whisper/diffusers at h < 2).
function rejects(preset, d) {
  const h = Math.floor(d / 2);
  if (['vaswani', 'whisper', 'mae'].includes(preset) && d % 2) return /dModel must be even/;
  if (['fairseq', 'whisper', 'diffusers'].includes(preset) && h < 2) return /dModel \d+ is too small/;
  return null;
}

const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});

test('loads both flavours and reports them', async () => {
  const auto = await sinpe();
  assert.equal(auto.simd, true, 'Node 20 has wasm SIMD, so auto picks it');
  assert.equal(flavours.baseline.simd, false);
  assert.match(auto.version, /^\d+\.\d+\.\d+$/);
  assert.deepEqual([...auto.presets], PRESETS);
});

test('seed 001: pe.table(3, 4)', () => {
  const t = flavours.simd.table(3, 4);
  const want = [0, 1, 0, 1, Math.sin(1), Math.cos(1), Math.sin(0.01), Math.cos(0.01), Math.sin(2), Math.cos(2), Math.sin(0.02), Math.cos(0.02)];
  assert.equal(t.length, 12);
  want.forEach((w, i) => assert.ok(Math.abs(t[i] - w) <= TOLERANCE, `t[${i}] = ${t[i]}, want ${w}`));
});

for (const flavour of ['simd', 'baseline']) {
  describe(`${flavour} flavour`, () => {
    test('every preset matches its float64 formula at the listed widths and positions', () => {
      const pe = flavours[flavour];
      for (const preset of PRESETS)
        for (const d of WIDTHS) {
          const bad = rejects(preset, d);
          if (bad) {
            assert.throws(() => pe.encode(POSITIONS, d, { preset }), (e) => e instanceof RangeError && bad.test(e.message));
            continue;
          }
          const got = pe.encode(POSITIONS, d, { preset });
          const err = maxError(got, POSITIONS, d, { preset });
          assert.ok(err <= TOLERANCE, `${preset} d=${d}: max error ${err}`);
        }
    });

    test('layouts and preset parameters', () => {
      const pe = flavours[flavour];
      const cases = [
        { preset: 'vaswani', layout: 'concat' },
        { preset: 'vaswani', layout: 'cos-first', base: 500000 },
        { preset: 'tensor2tensor', minTimescale: 2, maxTimescale: 5000 },
        { preset: 'fairseq', paddingIdx: 4095 },
        { preset: 'diffusers', flipSinToCos: true, freqShift: 0, scale: 0.5, maxPeriod: 1000 },
        { preset: 'whisper', maxTimescale: 100 },
        { preset: 'guided-diffusion', maxPeriod: 200, layout: 'interleaved' },
        { preset: 'keras', base: 100 },
      ];
      for (const o of cases)
        for (const d of [16, 33, 320]) {
          if (rejects(o.preset, d)) continue;
          const err = maxError(pe.encode(POSITIONS, d, o), POSITIONS, d, o);
          assert.ok(err <= TOLERANCE, `${JSON.stringify(o)} d=${d}: ${err}`);
        }
    });

    test('rows: 4096 x 512 and a range ending at 2^24 - 1', () => {
      const pe = flavours[flavour];
      const t = pe.table(4096, 512);
      assert.ok(maxError(t, Array.from({ length: 4096 }, (_, i) => i), 512) <= TOLERANCE);
      const start = 16777216 - 700;
      const r = pe.rows(start, 699, 64, { preset: 'fairseq' });
      assert.ok(maxError(r, Array.from({ length: 699 }, (_, i) => start + i), 64, { preset: 'fairseq' }) <= TOLERANCE);
    });
  });
}

test('positions may be an Array, Float64Array, Float32Array or Int32Array', () => {
  const pe = flavours.simd;
  const ints = [3, 1, 4, 1, 5, 9, 2, 6];
  const a = pe.encode(ints, 10);
  for (const T of [Float64Array, Float32Array, Int32Array]) assert.deepEqual(pe.encode(T.from(ints), 10), a);
  assert.ok(maxError(a, ints, 10) <= TOLERANCE);
});

test('results are JS-owned arrays, not views into wasm memory', () => {
  const t = flavours.simd.table(10, 8);
  assert.equal(t.buffer.byteLength, t.byteLength);
  assert.ok(!(t.buffer instanceof SharedArrayBuffer));
});

test('options.out receives the result and is returned', () => {
  const pe = flavours.simd;
  const out = new Float32Array(5 * 6).fill(7);
  assert.equal(pe.rows(10, 5, 6, { out }), out);
  assert.ok(maxError(out, [10, 11, 12, 13, 14], 6) <= TOLERANCE);
});

test('grid2d reproduces MAE get_2d_sincos_pos_embed, with and without the class token', () => {
  const pe = flavours.simd;
  for (const clsToken of [false, true]) {
    const got = pe.grid2d(14, 14, 64, { preset: 'mae', clsToken });
    const want = referenceGrid(14, 14, 64, { preset: 'mae', clsToken });
    assert.equal(got.length, want.length * 64);
    const err = new ErrorTracker();
    want.forEach((row, m) => row.forEach((v, c) => err.addDifference(got[m * 64 + c], v, m * 64 + c)));
    assert.ok(err.within(TOLERANCE), err.describe());
  }
  assert.throws(() => pe.grid2d(2, 2, 66, { preset: 'mae' }), (e) => e instanceof RangeError && /multiple of 4/.test(e.message));
});

test('addTo adds PE rows to every sequence of a batch', () => {
  const pe = flavours.simd;
  const d = 8, seqLen = 5, batch = 3, start = 100;
  const x = Float32Array.from({ length: batch * seqLen * d }, (_, i) => Math.sin(i) * 0.5);
  const before = x.slice();
  assert.equal(pe.addTo(x, d, { seqLen, start }), x);
  for (let b = 0; b < batch; b++)
    for (let r = 0; r < seqLen; r++) {
      const want = referenceRow(start + r, d);
      for (let c = 0; c < d; c++) {
        const i = (b * seqLen + r) * d + c;
        assert.ok(Math.abs(x[i] - (before[i] + want[c])) <= 2 * TOLERANCE, `x[${i}]`);
      }
    }
});

test('frequencies are the preset formula in float64', () => {
  const pe = flavours.simd;
  const f = pe.frequencies(512);
  assert.equal(f.length, 256);
  f.forEach((w, k) => assert.ok(Math.abs(w - 10000 ** (-2 * k / 512)) <= 1e-15 * Math.max(1, w)));
  const fs = pe.frequencies(64, { preset: 'fairseq' });
  assert.ok(Math.abs(fs[31] - 1e-4) < 1e-18, 'fairseq: the last frequency is exactly 1e-4');
});

test('heatmap maps each value through the colormap', () => {
  const pe = flavours.simd;
  const lut = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) lut.set([i, 255 - i, 7, 255], 4 * i);
  const start = 16000000, count = 40, d = 64, columnStart = 3, columns = 20;
  const px = pe.heatmap(start, count, d, { colormap: lut, columnStart, columns });
  assert.ok(px instanceof Uint8ClampedArray);
  assert.equal(px.length, count * columns * 4);
  for (let r = 0; r < count; r++) {
    const row = referenceRow(start + r, d);
    for (let c = 0; c < columns; c++) {
      const t = ((row[columnStart + c] + 1) / 2) * 255;
      const idx = px[(r * columns + c) * 4];
      assert.ok(Math.abs(idx - t) <= 0.5 + 1e-4, `row ${r} col ${c}: index ${idx} for ${t}`);
      assert.equal(px[(r * columns + c) * 4 + 1], 255 - idx);
    }
  }
});

describe('bad input throws a named TypeError/RangeError and changes nothing', () => {
  const cases = [
    ['odd dModel for vaswani', (pe) => pe.table(3, 5), RangeError, /dModel/],
    ['dModel 0', (pe) => pe.table(3, 0), RangeError, /dModel/],
    ['dModel too large', (pe) => pe.table(1, 65538), RangeError, /dModel/],
    ['dModel not a number', (pe) => pe.table(3, '4'), TypeError, /dModel/],
    ['fractional count', (pe) => pe.rows(0, 2.5, 4), RangeError, /count/],
    ['negative count', (pe) => pe.rows(0, -1, 4), RangeError, /count/],
    ['fractional start', (pe) => pe.rows(0.5, 2, 4), RangeError, /start/],
    ['rows beyond 2^24', (pe) => pe.rows(16777215, 2, 4), RangeError, /2\^24/],
    ['NaN position', (pe) => pe.encode([1, NaN], 4), RangeError, /positions\[1\]/],
    ['Infinity position', (pe) => pe.encode(new Float64Array([Infinity]), 4), RangeError, /positions\[0\]/],
    ['position 2^24', (pe) => pe.encode([2 ** 24], 4), RangeError, /positions\[0\]/],
    ['string position', (pe) => pe.encode([1, '2'], 4), TypeError, /positions\[1\]/],
    ['positions not an array', (pe) => pe.encode('012', 4), TypeError, /positions/],
    ['BigInt64Array positions', (pe) => pe.encode(new BigInt64Array(2), 4), TypeError, /positions/],
    ['unknown preset', (pe) => pe.table(2, 4, { preset: 'bert' }), RangeError, /options\.preset/],
    ['unknown layout', (pe) => pe.table(2, 4, { layout: 'zigzag' }), RangeError, /options\.layout/],
    ['unknown option', (pe) => pe.table(2, 4, { bsae: 10 }), TypeError, /"bsae"/],
    ['option of another preset', (pe) => pe.table(2, 4, { maxPeriod: 10 }), TypeError, /options\.maxPeriod/],
    ['negative base', (pe) => pe.table(2, 4, { base: -2 }), RangeError, /options\.base/],
    ['NaN base', (pe) => pe.table(2, 4, { base: NaN }), RangeError, /options\.base/],
    ['fractional paddingIdx', (pe) => pe.table(2, 4, { preset: 'fairseq', paddingIdx: 1.5 }), RangeError, /options\.paddingIdx/],
    ['fairseq at d=2', (pe) => pe.table(2, 2, { preset: 'fairseq' }), RangeError, /dModel/],
    ['flipSinToCos with layout', (pe) => pe.table(2, 8, { preset: 'diffusers', flipSinToCos: true, layout: 'concat' }), TypeError, /flipSinToCos/],
    ['out of the wrong size', (pe) => pe.table(2, 4, { out: new Float32Array(7) }), RangeError, /options\.out/],
    ['out of the wrong type', (pe) => pe.table(2, 4, { out: new Float64Array(8) }), TypeError, /options\.out/],
    ['shared out', (pe) => pe.table(2, 4, { out: new Float32Array(new SharedArrayBuffer(32)) }), TypeError, /options\.out/],
    ['too large', (pe) => pe.table(16777216, 65536), RangeError, /2 GiB/],
    ['addTo x of the wrong length', (pe) => pe.addTo(new Float32Array(10), 4), RangeError, /x\.length/],
    ['addTo x not Float32Array', (pe) => pe.addTo([1, 2, 3, 4], 4), TypeError, /\bx\b/],
    ['heatmap colormap of the wrong size', (pe) => pe.heatmap(0, 2, 4, { colormap: new Uint8Array(10) }), TypeError, /options\.colormap/],
    ['heatmap columns outside dModel', (pe) => pe.heatmap(0, 2, 4, { columnStart: 2, columns: 3 }), RangeError, /options\.columns/],
    ['heatmap vmin >= vmax', (pe) => pe.heatmap(0, 2, 4, { vmin: 1, vmax: 1 }), RangeError, /options\.vmin/],
    ['options not an object', (pe) => pe.table(2, 4, 'vaswani'), TypeError, /options/],
    ['null preset', (pe) => pe.table(2, 4, { preset: null }), TypeError, /options\.preset/],
    ['null clsToken', (pe) => pe.grid2d(2, 2, 8, { clsToken: null }), TypeError, /options\.clsToken/],
    ['null heatmap columns', (pe) => pe.heatmap(0, 2, 4, { columns: null }), TypeError, /options\.columns/],
    ['null addTo start', (pe) => pe.addTo(new Float32Array(8), 4, { start: null }), TypeError, /options\.start/],
  ];
  for (const [name, call, Type, pattern] of cases)
    test(name, () => {
      const pe = flavours.simd;
      assert.throws(() => call(pe), (e) => e instanceof Type && pattern.test(e.message), name);
      // Still usable and still right.
      assert.ok(maxError(pe.table(5, 8), [0, 1, 2, 3, 4], 8) <= TOLERANCE);
    });

  test('a failed call leaves out and x untouched', () => {
    const pe = flavours.simd;
    const out = new Float32Array(3 * 4).fill(9);
    assert.throws(() => pe.encode([1, 2, NaN], 4, { out }), RangeError);
    assert.ok(out.every((v) => v === 9));
    const x = new Float32Array(8).fill(2);
    assert.throws(() => pe.addTo(x, 4, { start: 16777215 }), RangeError);
    assert.ok(x.every((v) => v === 2));
  });

  test('bad init options', async () => {
    await assert.rejects(sinpe({ simd: 'yes' }), (e) => e instanceof TypeError && /init\.simd/.test(e.message));
    await assert.rejects(sinpe({ wasm: 1 }), (e) => e instanceof TypeError && /"wasm"/.test(e.message));
  });
});

test('large requests do not grow the wasm heap', async () => {
  const { module: pe, heapBytes } = await loadWithMemory(() => sinpe({ simd: true }));
  pe.table(16, 512); // the plan for d = 512 is cached from here on
  const before = heapBytes();
  const big = pe.table(65536, 512); // 128 MiB of output, made in 1 MiB chunks
  assert.equal(big.length, 65536 * 512);
  assert.equal(heapBytes(), before);
  const rows = [0, 40000, 65535];
  assert.ok(maxError(rows.flatMap((r) => Array.from(big.subarray(r * 512, r * 512 + 512))), rows, 512) <= TOLERANCE);
});

// The package's surface (js/sinpe.js) as README and sinpe.d.ts give it: the
// fields of Encoder, PreparedEncoder and PreparedRope (sinpe.d.ts) are each
// object's own enumerable keys, in that order; every method is an own,
// non-enumerable bound copy of the class's ("Methods are bound: `const { table }
// = pe; table(3, 4)` works"), named as the method, and the class's own is a
// non-enumerable, writable, configurable property of its prototype, as a class
// method is; the objects are frozen.
describe('surface of the encoder and the prepared objects', () => {
  const ENCODER = ['encode', 'rows', 'table', 'grid2d', 'addTo', 'frequencies', 'heatmap', 'prepare', 'ropeFrequencies', 'ropeCache', 'ropeCacheRows', 'ropeCacheGrid', 'prepareRope', 'applyRope', 'ropeOptionsFromConfig', 'getRopeIndex'];
  const checkMethods = (object, names, what) => {
    const proto = Object.getPrototypeOf(object);
    assert.deepEqual(Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor').sort(), [...names].sort(), `${what}: the prototype's methods`);
    for (const name of names) {
      const own = Object.getOwnPropertyDescriptor(object, name);
      assert.equal(typeof own?.value, 'function', `${what}.${name}: an own method`);
      assert.equal(own.enumerable, false, `${what}.${name}: own copy not enumerable`);
      assert.notEqual(own.value, proto[name], `${what}.${name}: a bound copy, not the prototype's`);
      const shared = Object.getOwnPropertyDescriptor(proto, name);
      assert.deepEqual([shared.enumerable, shared.writable, shared.configurable], [false, true, true], `${what}.${name}: the prototype's, as a class method`);
      assert.equal(shared.value.name, name, `${what}.${name}: its name`);
    }
    assert.ok(Object.isFrozen(object), `${what} is frozen`);
  };

  test('the encoder', () => {
    const pe = flavours.simd;
    assert.deepEqual(Object.keys(pe), ['simd', 'version', 'presets', 'layouts', 'ropeTypes', 'ropeLayouts']);
    checkMethods(pe, ENCODER, 'pe');
    const { table } = pe;
    const t = table(3, 4);
    assert.equal(t.length, 12);
    assert.ok(Math.abs(t[4] - Math.sin(1)) <= TOLERANCE);
  });

  test('a prepared encoder and a prepared RoPE', () => {
    const pe = flavours.simd;
    const enc = pe.prepare(8, { dtype: 'float16' });
    assert.deepEqual(Object.keys(enc), ['dModel', 'dtype']);
    assert.deepEqual([enc.dModel, enc.dtype], [8, 'float16']);
    checkMethods(enc, ['rows', 'encode', 'chunks'], 'pe.prepare(8)');
    const rope = pe.prepareRope(8, { dtype: 'bfloat16', recipe: 'float32' });
    assert.deepEqual(Object.keys(rope), ['rotaryDim', 'axes', 'attentionFactor', 'frequencies', 'dtype', 'recipe']);
    assert.deepEqual([rope.rotaryDim, rope.axes, rope.attentionFactor, rope.dtype, rope.recipe], [8, 1, 1, 'bfloat16', 'float32']);
    // Default RoPE, base 10000: θ_i = 10000^(−2i/r).
    assert.ok(rope.frequencies instanceof Float64Array && rope.frequencies.length === 4);
    [0, 1, 2, 3].forEach((i) => assert.ok(Math.abs(rope.frequencies[i] - 10000 ** (-(2 * i) / 8)) <= 1e-15, `frequencies[${i}]`));
    checkMethods(rope, ['cache', 'cacheRows', 'grid', 'apply'], 'pe.prepareRope(8)');
    const plain = pe.prepareRope(8);
    assert.deepEqual([plain.dtype, plain.recipe], ['float32', 'exact'], 'the defaults (sinpe.d.ts)');
  });
});

// ropeOptionsFromConfig's check of the options it read: the module's, which
// makes a plan for them and releases it (the module's memory does not grow
// over 2000 calls: plans not released grow it by about 5 MB), and which, like every method
// of the encoder, refuses to run inside a chunks() callback.
describe('ropeOptionsFromConfig and the module', () => {
  const CONFIG = { hidden_size: 64, num_attention_heads: 4 };
  const WANT = { headDim: 16, rotaryDim: 16 };

  test('the named export before any sinpe() is a TypeError saying so (README)', () => {
    const script = `
      import { ropeOptionsFromConfig } from 'sinpe.wasm';
      try {
        console.log(JSON.stringify({ accepted: ropeOptionsFromConfig(${JSON.stringify(CONFIG)}) }));
      } catch (e) {
        console.log(JSON.stringify({ name: e.constructor.name, message: e.message }));
      }`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr.slice(0, 400));
    const result = JSON.parse(run.stdout.trim());
    assert.equal(result.name, 'TypeError', run.stdout);
    assert.match(result.message, /^sinpe: ropeOptionsFromConfig checks the options it reads with the module: await sinpe\(\) once before calling it/);
  });

  test('each check releases its plan', async () => {
    const { module: pe, heapBytes } = await loadWithMemory(() => sinpe({ simd: true }));
    for (const read of [pe.ropeOptionsFromConfig, ropeOptionsFromConfig]) {
      const got = read(CONFIG);
      assert.deepEqual([got.headDim, got.rotaryDim], [WANT.headDim, WANT.rotaryDim]);
      const before = heapBytes();
      for (let i = 0; i < 2000; i++) read({ ...CONFIG, rope_theta: 1000 + i });
      assert.equal(heapBytes(), before);
    }
  });

  test("a rule the module refuses is worded with the config's keys (README)", () => {
    const config = { ...CONFIG, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 4, high_freq_factor: 1, original_max_position_embeddings: 8192 } };
    for (const read of [flavours.simd.ropeOptionsFromConfig, ropeOptionsFromConfig])
      assert.throws(() => read(config), {
        name: 'RangeError',
        message: /^sinpe: config\.rope_scaling\.low_freq_factor \(4\) must be less than config\.rope_scaling\.high_freq_factor \(1\)/,
      });
  });

  test('refused inside a chunks() callback', async () => {
    const pe = await sinpe({ simd: false }); // the module the named export checks with from here on
    let inside = 0;
    pe.prepare(8).chunks(0, 1, () => {
      inside++;
      assert.throws(() => pe.ropeOptionsFromConfig(CONFIG), { name: 'TypeError', message: /cannot be called inside a chunks\(\) callback/ });
      assert.throws(() => ropeOptionsFromConfig(CONFIG), { name: 'TypeError', message: /cannot be called inside a chunks\(\) callback/ });
    });
    assert.equal(inside, 1);
    assert.equal(ropeOptionsFromConfig(CONFIG).rotaryDim, WANT.rotaryDim, 'and accepted after it');
  });
});

// A prepared encoder's plan is the object's own, released when the object is
// collected (sinpe.d.ts): in a child process with --expose-gc, 400 prepared
// encoders and RoPEs made and dropped leave the module's memory as it was
// (never released, they grow it by about 3.6 MB a round of 40).
test('prepared objects release their plans when collected', () => {
  const helper = new URL('./wasm-memory.mjs', import.meta.url).href;
  const script = `
    import { loadWithMemory } from ${JSON.stringify(helper)};
    import sinpe from 'sinpe.wasm';
    const { module: pe, heapBytes } = await loadWithMemory(() => sinpe({ simd: true }));
    const settle = async () => { for (let i = 0; i < 3; i++) { global.gc(); await new Promise((r) => setTimeout(r, 0)); } };
    const round = () => { for (let i = 0; i < 20; i++) { pe.prepare(512).rows(0, 1); pe.prepareRope(128).cacheRows(0, 1); } };
    round(); await settle(); round(); await settle();
    const before = heapBytes();
    for (let r = 0; r < 10; r++) { round(); await settle(); }
    console.log(JSON.stringify({ grown: heapBytes() - before }));`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr.slice(0, 400));
  assert.equal(JSON.parse(run.stdout.trim()).grown, 0);
});

// Every method hands its plan back to the per-call cache when done, so plans
// the cache drops are released (engine.js use/unuse): over 150 distinct
// requests of each kind of method the module's memory grows by less than
// 1 MiB (plans never handed back grow it by megabytes).
test('per-call plans are handed back: the memory does not grow over distinct requests', async () => {
  const { module: pe, heapBytes } = await loadWithMemory(() => sinpe({ simd: true }));
  const x = new Float32Array(512);
  const calls = {
    table: (i) => pe.table(1, 512, { base: 100 + i }),
    frequencies: (i) => pe.frequencies(512, { base: 100 + i }),
    addTo: (i) => pe.addTo(x, 512, { base: 100 + i }),
    heatmap: (i) => pe.heatmap(0, 1, 512, { base: 100 + i }),
    applyRope: (i) => pe.applyRope(x, [1], 512, { base: 100 + i }),
  };
  for (const [name, call] of Object.entries(calls)) {
    for (let i = 0; i < 20; i++) call(i);
    const before = heapBytes();
    for (let i = 20; i < 170; i++) call(i);
    assert.ok(heapBytes() - before < 2 ** 20, `${name}: the module's memory grew from ${before} to ${heapBytes()} bytes`);
  }
});

// The options each method takes besides its formula's (sinpe.d.ts: OutputOptions,
// AddToOptions, HeatmapOptions, PrepareOptions, RopeCacheOptions,
// PrepareRopeOptions, ApplyRopeOptions; none for frequencies and
// ropeFrequencies), as an unknown option's error lists them after the family's
// keys and what the default preset or RoPE type reads (the vocabulary's).
test('the options each method takes', () => {
  const pe = flavours.simd;
  const bogus = { bogus: 1 };
  const preset = ['preset', 'layout', ...vocabulary.presets[0].reads];
  const rope = ['ropeType', 'ropeAxes', ...vocabulary.ropeTypes[0].reads];
  const x = new Float32Array(8);
  const cases = [
    ['encode', () => pe.encode([0], 8, bogus), [...preset, 'out', 'dtype']],
    ['rows', () => pe.rows(0, 1, 8, bogus), [...preset, 'out', 'dtype']],
    ['table', () => pe.table(1, 8, bogus), [...preset, 'out', 'dtype']],
    ['addTo', () => pe.addTo(x, 8, bogus), [...preset, 'start', 'seqLen']],
    ['frequencies', () => pe.frequencies(8, bogus), preset],
    ['heatmap', () => pe.heatmap(0, 1, 8, bogus), [...preset, 'out', 'colormap', 'columnStart', 'columns', 'vmin', 'vmax']],
    ['prepare', () => pe.prepare(8, bogus), [...preset, 'dtype']],
    ['ropeFrequencies', () => pe.ropeFrequencies(8, bogus), rope],
    ['ropeCache', () => pe.ropeCache([0], 8, bogus), [...rope, 'out', 'dtype', 'recipe']],
    ['ropeCacheRows', () => pe.ropeCacheRows(0, 1, 8, bogus), [...rope, 'out', 'dtype', 'recipe']],
    ['ropeCacheGrid', () => pe.ropeCacheGrid(1, 1, 8, { ...bogus, ropeAxes: 'pixtral' }), [...rope, 'out', 'dtype', 'recipe']],
    ['prepareRope', () => pe.prepareRope(8, bogus), [...rope, 'dtype', 'recipe']],
    ['applyRope', () => pe.applyRope(x, [0], 8, bogus), [...rope, 'rotaryDim', 'layout']],
  ];
  for (const [name, call, want] of cases) {
    assert.ok(want.length > 2, name);
    assert.throws(call, (e) => {
      assert.equal(e.name, 'TypeError', `${name}: ${e.message}`);
      const m = /^sinpe: unknown option "bogus"; (?:preset|ropeType) '[a-z-]+' takes: (.*)$/.exec(e.message);
      assert.ok(m, `${name}: ${e.message}`);
      assert.deepEqual(m[1].split(', ').sort(), [...new Set(want)].sort(), `${name}: ${e.message}`);
      return true;
    });
  }
  assert.throws(() => pe.prepareRope(8).apply(x, [0], 8, bogus), { name: 'TypeError', message: /^sinpe: unknown option "bogus"; apply takes: layout$/ });
});

// The prepared methods name their count argument as sinpe.d.ts does
// (rows(start, count, out), chunks(start, count, callback), cacheRows(start, count, out)).
test('prepared methods name their count', () => {
  const pe = flavours.simd;
  const enc = pe.prepare(8);
  const rope = pe.prepareRope(8);
  const calls = { rows: () => enc.rows(0, 'x'), chunks: () => enc.chunks(0, 'x', () => {}), cacheRows: () => rope.cacheRows(0, 'x') };
  for (const [name, call] of Object.entries(calls)) assert.throws(call, { name: 'TypeError', message: /^sinpe: count must be a number, got "x"$/ }, name);
  for (const [name, call] of Object.entries({ rows: () => enc.rows(0, -1), cacheRows: () => rope.cacheRows(0, -1) }))
    assert.throws(call, { name: 'RangeError', message: /^sinpe: count must be an integer in \[0, \d+\], got -1$/ }, name);
});

// A method called on another object, null included, is README's TypeError
// naming the method and the object it belongs to (README's table of errors:
// `sinpe: encode must be called on the encoder sinpe() resolves to, got Object`).
test('a method called on another object or on null names the object it belongs to', () => {
  const pe = flavours.simd;
  const enc = pe.prepare(8);
  const rope = pe.prepareRope(8);
  const cases = [
    [Object.getPrototypeOf(pe).encode, 'encode', 'the encoder sinpe() resolves to'],
    [Object.getPrototypeOf(enc).rows, 'rows', 'an encoder pe.prepare() returned'],
    [Object.getPrototypeOf(rope).cache, 'cache', 'an object pe.prepareRope() returned'],
  ];
  for (const [method, name, what] of cases)
    for (const [self, got] of [[null, 'null'], [{}, 'Object']])
      assert.throws(() => method.call(self, [0], 1), { name: 'TypeError', message: `sinpe: ${name} must be called on ${what}, got ${got}` }, `${name} on ${got}`);
});
