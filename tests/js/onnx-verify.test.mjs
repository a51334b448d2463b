// How sinpe.wasm/onnx judges one RoPE cache (js/onnx/verify.js), through
// inspectModel on small models of tests/js/fixtures/make-genai-model.mjs whose
// caches are baked by the tests' own references (rope-reference.mjs's float64
// values rounded once; torch's float32 steps emulated with Math.fround), then
// changed by hand where a test needs a value placed against a bound:
// - what each site is checked against (per layer type, LongRoPE's small and
//   large caches and their seqLen, the config's max_position_embeddings);
// - the strict and loose tolerances of docs/onnx.md at their bounds: exact
//   within EXACT_FLOAT32 = 4e-7 × max(1, att) for float32, the float32 recipe
//   within 2^-24 × max(1, att) for float32 only (loose);
// - where an unexplained mismatch is worst (row, column, cos or sin).
// Values are placed where the exact value is 0 (sin at position 0), which the
// package's caches hold exactly, so each distance is the value placed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';
import { inspectModel, OnnxError } from 'sinpe.wasm/onnx';
import onnxProto from 'onnx-proto';
import { ropeCache, ropeAttention, ropeInvFreq } from './rope-reference.mjs';
import { halfBits } from './mrope-reference.mjs';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, exactCache, float32Cache, makeGenaiModel, makeInvFreqModel } from './fixtures/make-genai-model.mjs';

const pe = await sinpe();
const r = ROTARY_DIM;
const half = r / 2;
const copy = (x) => JSON.parse(JSON.stringify(x));

// float32 value → its bits.
const f32Bits = (v) => new Uint32Array(Float32Array.of(v).buffer)[0];

async function inspect(caches, dtype, config, name) {
  const { model } = makeGenaiModel({ caches, dtype });
  return inspectModel(model, { config, encoder: pe, name });
}
const siteOf = (report, group) => {
  const s = report.sites.find((x) => x.group === group);
  assert.ok(s, `a ${group} site (groups ${report.sites.map((x) => x.group)})`);
  return s;
};

// ---- what a site is checked against

test('global / local caches are checked against the config\'s full_attention / sliding_attention parameters, and say so', async () => {
  const caches = {
    global: { ...exactCache(64, r, OPTIONS.gemma3.global, 'float32'), rows: 64 },
    local: { ...exactCache(64, r, OPTIONS.gemma3.local, 'float32'), rows: 64 },
  };
  const report = await inspect(caches, 'float32', CONFIGS.gemma3, 'gemma3.onnx');
  const g = siteOf(report, 'global');
  const l = siteOf(report, 'local');
  assert.equal(g.layerType, 'full_attention', g.message);
  assert.equal(l.layerType, 'sliding_attention', l.message);
  assert.deepEqual(g.expected.options, OPTIONS.gemma3.global);
  assert.deepEqual(l.expected.options, OPTIONS.gemma3.local);
  assert.equal(g.verdict, 'exact', g.message);
  assert.equal(l.verdict, 'exact', l.message);
});

test('global / local caches with a config without layer types: both checked against its one set of parameters, layerType null', async () => {
  const o = OPTIONS.llama31.default;
  const caches = { global: { ...exactCache(64, r, o, 'float32'), rows: 64 }, local: { ...exactCache(64, r, o, 'float32'), rows: 64 } };
  const report = await inspect(caches, 'float32', CONFIGS.llama31, 'llama-global-local.onnx');
  for (const group of ['global', 'local']) {
    const s = siteOf(report, group);
    assert.equal(s.layerType, null, s.message);
    assert.deepEqual(s.expected.options, o);
    assert.equal(s.expected.maxPositions, 1024);
    assert.equal(s.verdict, 'exact', s.message);
  }
});

test('text_config null is no text_config: max_position_embeddings is read from the top level', async () => {
  const o = OPTIONS.llama31.default;
  const report = await inspect({ default: { ...exactCache(64, r, o, 'float32'), rows: 64 } }, 'float32', { ...copy(CONFIGS.llama31), text_config: null }, 'null-text-config.onnx');
  const s = report.sites[0];
  assert.equal(s.expected.maxPositions, 1024);
  assert.equal(s.short, true, s.message);
  assert.equal(s.verdict, 'exact', s.message);
});

// LongRoPE: the small cache is L = original_max_position_embeddings rows of
// the short factors (seqLen L), the large one the long factors, with seqLen
// max(M, L + 1) for M = max_position_embeddings (long factors need seqLen > L).
const phi3Caches = (small, large, rows = { small: 64, large: 512 }) => ({
  small: { ...exactCache(rows.small, r, small, 'float32'), rows: rows.small },
  large: { ...exactCache(rows.large, r, large, 'float32'), rows: rows.large },
});

test('LongRoPE: the small cache is expected at seqLen L, the large one at seqLen max_position_embeddings', async () => {
  const report = await inspect(phi3Caches(OPTIONS.phi3.small, OPTIONS.phi3.large), 'float32', CONFIGS.phi3, 'phi3.onnx');
  const s = siteOf(report, 'small');
  const l = siteOf(report, 'large');
  assert.equal(s.expected.options.seqLen, 64);
  assert.equal(s.expected.maxPositions, 64);
  assert.equal(l.expected.options.seqLen, 512);
  assert.equal(l.expected.maxPositions, 512);
  assert.equal(s.verdict, 'exact', s.message);
  assert.equal(l.verdict, 'exact', l.message);
});

test('LongRoPE with max_position_embeddings = L: the large cache is expected at seqLen L + 1, the long factors', async () => {
  const config = { ...copy(CONFIGS.phi3), max_position_embeddings: 64 };
  const small = { ...OPTIONS.phi3.small, maxPositions: 64 };
  const large = { ...OPTIONS.phi3.large, maxPositions: 64, seqLen: 65 };
  // The short and long factors differ: a cache of each can be told apart.
  const a = ropeCache([1], r, large);
  const b = ropeCache([1], r, small);
  assert.notEqual(a.cos[1], b.cos[1]);
  const report = await inspect(phi3Caches(small, large, { small: 64, large: 64 }), 'float32', config, 'phi3-64.onnx');
  const l = siteOf(report, 'large');
  assert.equal(l.expected.options.seqLen, 65);
  assert.equal(l.verdict, 'exact', l.message);
  assert.equal(siteOf(report, 'small').verdict, 'exact');
});

test('LongRoPE in a multimodal config: max_position_embeddings from the top level when text_config has none', async () => {
  const text = copy(CONFIGS.phi3);
  delete text.max_position_embeddings;
  text.rope_scaling.factor = 8; // 512 / 64, as the top level's max_position_embeddings gives it
  const config = { text_config: text, max_position_embeddings: 512 };
  const report = await inspect(phi3Caches(OPTIONS.phi3.small, OPTIONS.phi3.large), 'float32', config, 'phi3-mm.onnx');
  const l = siteOf(report, 'large');
  assert.equal(l.expected.maxPositions, 512);
  assert.equal(l.expected.options.seqLen, 512);
  assert.equal(l.verdict, 'exact', l.message);
});

test('LongRoPE: a large cache holding the short factors is diagnosed short-long-exchanged', async () => {
  const report = await inspect(phi3Caches(OPTIONS.phi3.small, OPTIONS.phi3.small, { small: 64, large: 512 }), 'float32', CONFIGS.phi3, 'phi3-exchanged.onnx');
  const l = siteOf(report, 'large');
  assert.equal(l.verdict, 'mismatch', l.message);
  assert.equal(l.diagnosis.mistake, 'short-long-exchanged', l.message);
  assert.match(l.diagnosis.detail, /the large cache holds the short factors/);
  assert.equal(siteOf(report, 'small').verdict, 'exact');
});

// ---- where an unexplained mismatch is worst

test('an unexplained mismatch names its worst element (row, column, cos or sin); of equally bad ones the first, cos before sin', async () => {
  const o = OPTIONS.llama31.default;
  const rows = 16;
  const base = exactCache(rows, r, o, 'float16');
  const run = async (moves) => {
    const cos = base.cos.slice();
    const sin = base.sin.slice();
    for (const [which, row, col, step] of moves) (which === 'cos' ? cos : sin)[row * half + col] += step;
    const report = await inspect({ default: { cos, sin, rows } }, 'float16', CONFIGS.llama31, 'moved.onnx');
    return report.sites[0];
  };
  // Positive values (cos at rows 0-1, sin at row 3, col 5): bits + k is k ulps up.
  assert.ok(base.sin[3 * half + 5] > 0 && base.sin[3 * half + 5] < 0x7c00);
  let s = await run([['sin', 3, 5, 7], ['cos', 1, 2, 3]]);
  assert.equal(s.verdict, 'mismatch', s.message);
  assert.equal(s.diagnosis.mistake, 'unknown', s.message);
  assert.match(s.diagnosis.detail, /^no known mistake reproduces it; 7 ulp from exact at row 3, col 5 \(sin\)/);
  assert.equal(s.maxUlp, 7);
  s = await run([['cos', 1, 6, 5], ['cos', 1, 7, 5], ['sin', 3, 5, 5]]);
  assert.match(s.diagnosis.detail, /^no known mistake reproduces it; 5 ulp from exact at row 1, col 6 \(cos\)/);
  s = await run([['sin', 2, 3, 4], ['sin', 3, 5, 4]]);
  assert.match(s.diagnosis.detail, /^no known mistake reproduces it; 4 ulp from exact at row 2, col 3 \(sin\)/);
});

// ---- the tolerances at their bounds (float32 caches)

// A float32 cache with sin at position 0, column 0 (0 in every recipe) set to v.
function withSin0(cache, v) {
  const sin = cache.sin.slice();
  sin[0] = f32Bits(v);
  return { cos: cache.cos, sin };
}

test('strict exact for float32: within 4e-7 × max(1, att) of the exact cache; past it, a mismatch', async () => {
  // Qwen2.5's yarn has an attention factor > 1; Llama 3.1's is 1.
  const att = ropeAttention(r, OPTIONS.qwen25.default);
  assert.ok(att > 1.13 && att < 1.14, `yarn factor 4: attention factor ${att}`);
  const rows = 64;
  for (const [model, v, verdict] of [
    ['qwen25', 4.3e-7, 'exact'], // above 4e-7, below 4e-7 × att = 4.55e-7
    ['qwen25', 3.7e-7, 'exact'], // above 4e-7 / att = 3.51e-7
    ['qwen25', 4.7e-7, 'mismatch'],
    ['llama31', 3.9e-7, 'exact'],
    ['llama31', 4.3e-7, 'mismatch'],
  ]) {
    const x = Math.fround(v);
    const c = withSin0(exactCache(rows, r, OPTIONS[model].default, 'float32'), x);
    const s = (await inspect({ default: { ...c, rows } }, 'float32', CONFIGS[model], `${model}-${v}.onnx`)).sites[0];
    assert.equal(s.verdict, verdict, `${model} sin[0] = ${x}: ${s.message}`);
    assert.equal(s.fromExact.maxAbs, x, `${model}: the placed value is the worst (${s.message})`);
    if (verdict === 'mismatch') assert.equal(s.diagnosis.mistake, 'unknown', s.message);
    else assert.equal(s.message, `cos_cache: exact (within ${x.toExponential(1)}); max |Δ| from exact ${x.toExponential(2)} at row 0, col 0 (sin); 64 rows, 1024 expected (max_position_embeddings)`);
  }
});

test('the float32 recipe: its cos/sin within COS_ULPS (2) ulp of the correctly rounded value, relative, not absolute; 4e-7 is exact\'s bound, not its', async () => {
  // 256 rows: the float32 recipe is far from exact (the angle's float32 rounding at position 255).
  const rows = 256;
  const f32llama = float32Cache(rows, r, OPTIONS.llama31.default, 'float32');
  const att = ropeAttention(r, OPTIONS.qwen25.default);
  // cos at row 200, column 0 (inv_freq 1: the column where a different inv_freq shows at once) moved k ulps.
  const moved = (k) => {
    const cos = f32llama.cos.slice();
    cos[200 * half] += k;
    return { cos, sin: f32llama.sin };
  };
  for (const [name, c, verdict, maxUlp] of [
    ['as baked', f32llama, 'float32', 0],
    ['cos 2 ulp off (torch\'s cos family)', moved(2), 'float32', 2],
    ['cos 4 ulp off', moved(4), 'mismatch', null],
    ['sin(0) = 2^-24 (every pipeline gives 0)', withSin0(f32llama, 2 ** -24), 'mismatch', null],
    ['sin(0) = 2e-7 (within exact\'s 4e-7, not the recipe\'s)', withSin0(f32llama, 2e-7), 'mismatch', null],
  ]) {
    const s = (await inspect({ default: { ...c, rows } }, 'float32', CONFIGS.llama31, 'llama31-f32.onnx')).sites[0];
    assert.equal(s.verdict, verdict, `${name}: ${s.message}`);
    assert.ok(s.fromExact.maxAbs > 4e-7 * att, `the cache is far from exact (${s.message})`);
    if (verdict === 'float32') {
      assert.equal(s.maxUlp, maxUlp, s.message);
      assert.match(s.message, /float32 recipe \(inv_freq in float32 arithmetic: \d+ of 8 frequencies/);
    } else assert.equal(s.diagnosis.mistake, 'unknown', s.message);
  }
});

test('the loose absolute bound is float32\'s: a bfloat16 cache with a tiny value where 0 belongs is a mismatch', async () => {
  const o = OPTIONS.llama31.default;
  const rows = 8;
  const exact = exactCache(rows, r, o, 'bfloat16');
  // At 8 rows both recipes give the same bfloat16 bits.
  const f32 = float32Cache(rows, r, o, 'bfloat16');
  assert.deepEqual([...f32.cos, ...f32.sin], [...exact.cos, ...exact.sin]);
  const tiny = halfBits(1e-30, 'bfloat16', 0).bits;
  assert.ok(tiny > 1 && exact.sin[0] === 0);
  const sin = exact.sin.slice();
  sin[0] = tiny;
  const s = (await inspect({ default: { cos: exact.cos, sin, rows } }, 'bfloat16', CONFIGS.llama31, 'bf16-tiny.onnx')).sites[0];
  assert.equal(s.verdict, 'mismatch', s.message);
  assert.equal(s.diagnosis.mistake, 'unknown', s.message);
  assert.equal(s.maxUlp, tiny);
});

// ---- the diagnoses: each mistake's detail says what was expected and what the cache fits

// Bakes the first group of `model` as `how` (the others exact), float16, at the rows the config expects.
async function diagnose(model, how, { dtype = 'float16', config = CONFIGS[model], options = OPTIONS[model], rows = 1024 } = {}) {
  const groups = Object.keys(options);
  const caches = {};
  for (const [i, g] of groups.entries()) {
    const n = typeof rows === 'number' ? rows : rows[g];
    const peer = options[g === 'small' ? 'large' : 'small'];
    caches[g] = { ...bake(i === 0 ? how : 'exact', n, r, options[g], dtype, peer), rows: n };
  }
  const report = await inspect(caches, dtype, config, `${model}-${how}.onnx`);
  return siteOf(report, groups[0]);
}

test('each mistake\'s diagnosis: its detail and message', async () => {
  const cases = [
    ['llama31', 'default-rope-type', "rope scaling 'llama3' ignored: the cache is plain RoPE (ropeType 'default', base 500000)"],
    ['llama31', 'wrong-base', 'base 500000 expected, the cache fits base 10000'],
    ['llama31', 'wrong-factor', 'factor 8 expected, the cache fits factor 4'],
    ['qwen25', 'wrong-attention-factor', `attention factor ${ropeAttention(r, OPTIONS.qwen25.default)} expected, the cache's position 0 holds 1`],
    ['llama31', 'layout-half-vs-interleaved', 'the cache was sliced from an interleaved (repeat_interleave) table: column c holds frequency ⌊c/2⌋, where onnxruntime reads frequency c'],
    ['llama31', 'cos-sin-swapped', 'the cos cache holds the sines and the sin cache the cosines'],
    ['qwen25', 'rounded-twice', 'rounded twice: the exact values rounded to float32, then to float16'],
    ['phi3', 'short-long-exchanged', 'the small cache holds the long factors (short and long LongRoPE caches exchanged)', { rows: { small: 64, large: 512 } }],
  ];
  for (const [model, how, detail, extra] of cases) {
    const s = await diagnose(model, how, extra);
    assert.equal(s.verdict, 'mismatch', `${model} ${how}: ${s.message}`);
    assert.deepEqual(s.diagnosis, { mistake: how, detail, recipe: 'exact' }, `${model} ${how}: ${s.message}`);
    assert.equal(s.message, `${s.cos.name}: mismatch — ${detail} (exact recipe)`);
  }
});

test('wrong base: the base read off the cache (pair 1 at position 1), rounded to two figures, is tried besides the usual ones', async () => {
  const plain = { ...copy(CONFIGS.llama31), rope_scaling: undefined };
  delete plain.rope_scaling;
  for (const base of [120000, 25000, 3500]) {
    const o = { ropeType: 'default', base };
    const s = await diagnose('llama31', 'exact', { config: plain, options: { default: o }, rows: 64 });
    assert.equal(s.verdict, 'mismatch', s.message);
    assert.deepEqual(s.diagnosis, { mistake: 'wrong-base', detail: `base 500000 expected, the cache fits base ${base}`, recipe: 'exact' }, s.message);
  }
});

test('a config without rope_theta expects base 10000: the diagnoses say so', async () => {
  const plain = copy(CONFIGS.llama31);
  delete plain.rope_scaling;
  delete plain.rope_theta;
  let s = await diagnose('llama31', 'exact', { config: plain, options: { default: { ropeType: 'default', base: 500000 } }, rows: 64 });
  assert.deepEqual(s.diagnosis, { mistake: 'wrong-base', detail: 'base 10000 expected, the cache fits base 500000', recipe: 'exact' }, s.message);
  // An exact base-10000 cache is exact; 10000 is not tried as a wrong base.
  s = await diagnose('llama31', 'exact', { config: plain, options: { default: { ropeType: 'default', base: 10000 } }, rows: 64 });
  assert.equal(s.verdict, 'exact', s.message);
  const scaled = copy(CONFIGS.llama31);
  delete scaled.rope_theta;
  s = await diagnose('llama31', 'default-rope-type', { config: scaled, options: { default: { ...OPTIONS.llama31.default, base: undefined } } });
  assert.deepEqual(s.diagnosis, { mistake: 'default-rope-type', detail: "rope scaling 'llama3' ignored: the cache is plain RoPE (ropeType 'default', base 10000)", recipe: 'exact' }, s.message);
});

// ---- the report of a cache: messages, fromExact, short

test('a cache of one row (cos 1, sin 0): exact, bit-identical, both recipes; nothing from exact at row 0, col 0 (cos); short', async () => {
  const cos = new Uint32Array(half).fill(f32Bits(1));
  const sin = new Uint32Array(half);
  const s = (await inspect({ default: { cos, sin, rows: 1 } }, 'float32', CONFIGS.llama31, 'one.onnx')).sites[0];
  assert.equal(s.verdict, 'exact', s.message);
  assert.equal(s.maxUlp, 0);
  assert.equal(s.matchesBoth, true);
  assert.equal(s.short, true);
  assert.deepEqual(s.fromExact, { maxAbs: 0, row: 0, col: 0, which: 'cos' });
  assert.equal(s.message, 'cos_cache: exact (bit-identical; at this dtype and length the two recipes agree); max |Δ| from exact 0.00e+0 at row 0, col 0 (cos); 1 rows, 1024 expected (max_position_embeddings)');
  assert.equal(s.diagnosis, null);
});

test('fromExact: the largest |cache − exact|, its row, column and array', async () => {
  const o = OPTIONS.llama31.default;
  const rows = 16;
  const ref = exactCache(rows, r, o, 'float32');
  for (const [which, row, col, add] of [
    ['cos', 5, 3, 0.01],
    ['sin', 7, 6, -0.02],
    ['sin', 15, 7, 0.03],
  ]) {
    const c = { cos: ref.cos.slice(), sin: ref.sin.slice() };
    const i = row * half + col;
    const v = Math.fround(ref.values[which][i] + add);
    c[which][i] = f32Bits(v);
    const s = (await inspect({ default: { ...c, rows } }, 'float32', CONFIGS.llama31, 'placed.onnx')).sites[0];
    assert.deepEqual([s.fromExact.row, s.fromExact.col, s.fromExact.which], [row, col, which], s.message);
    assert.ok(Math.abs(s.fromExact.maxAbs - Math.abs(v - ref.values[which][i])) <= 3e-7, `${s.fromExact.maxAbs} (${s.message})`);
    assert.equal(s.verdict, 'mismatch');
    assert.match(s.diagnosis.detail, new RegExp(`^no known mistake reproduces it; \\d+ ulp from exact at row ${row}, col ${col} \\(${which}\\); position 0 holds 1 \\(attention factor 1 expected\\)`));
  }
});

test('the message of a matching cache: the recipe, how close, how far from exact, and whether it is short', async () => {
  const o = OPTIONS.llama31.default;
  // float16 at 64 rows: both recipes give the same bits (the fixtures' own recipes).
  const e16 = exactCache(64, r, o, 'float16');
  const f16 = float32Cache(64, r, o, 'float16');
  assert.deepEqual([...f16.cos, ...f16.sin], [...e16.cos, ...e16.sin]);
  let s = (await inspect({ default: { cos: e16.cos, sin: e16.sin, rows: 64 } }, 'float16', CONFIGS.llama31, 'e16.onnx')).sites[0];
  assert.equal(s.verdict, 'exact');
  assert.equal(s.matchesBoth, true);
  assert.match(s.message, /^cos_cache: exact \(bit-identical; at this dtype and length the two recipes agree\); max \|Δ\| from exact \d\.\d\de[-+]\d+ at row \d+, col \d \((cos|sin)\); 64 rows, 1024 expected \(max_position_embeddings\)$/);
  // float32 at 8 rows: the float32 recipe (bit-identical) is also within 4e-7 of exact, and differs from it in bits.
  const e32 = exactCache(8, r, o, 'float32');
  const f32 = float32Cache(8, r, o, 'float32');
  assert.notDeepEqual([...f32.cos, ...f32.sin], [...e32.cos, ...e32.sin]);
  const v32 = [...new Float32Array(f32.cos.buffer), ...new Float32Array(f32.sin.buffer)];
  const ref = [...e32.values.cos, ...e32.values.sin];
  assert.ok(v32.every((v, i) => Math.abs(v - ref[i]) <= 2.5e-7), 'the float32 recipe is within 2.5e-7 of the float64 values at 8 rows');
  s = (await inspect({ default: { ...f32, rows: 8 } }, 'float32', CONFIGS.llama31, 'f32.onnx')).sites[0];
  assert.equal(s.verdict, 'float32', s.message);
  assert.equal(s.maxUlp, 0);
  assert.equal(s.matchesBoth, true);
  assert.match(s.message, /^cos_cache: float32 recipe \((inv_freq computed in float64 and rounded once to float32|inv_freq in float32 arithmetic: \d+ of 8 frequencies [^;)]+); at this dtype and length the two recipes agree\); max \|Δ\| from exact \d\.\d\de[-+]\d+ at row \d, col \d \((cos|sin)\); 8 rows, 1024 expected \(max_position_embeddings\)$/);
  // float32 at 1024 rows: only the float32 recipe; full length, nothing about rows.
  const long = float32Cache(1024, r, o, 'float32');
  s = (await inspect({ default: { ...long, rows: 1024 } }, 'float32', CONFIGS.llama31, 'f32-long.onnx')).sites[0];
  assert.equal(s.verdict, 'float32', s.message);
  assert.equal(s.matchesBoth, false);
  assert.equal(s.short, false);
  assert.match(s.message, /^cos_cache: float32 recipe \((inv_freq computed in float64 and rounded once to float32|inv_freq in float32 arithmetic: \d+ of 8 frequencies [^;)]+)\); max \|Δ\| from exact \d\.\d\de[-+]\d+ at row \d+, col \d \((cos|sin)\)$/);
  // LongRoPE's small cache is short against L.
  const small = exactCache(32, r, OPTIONS.phi3.small, 'float16');
  const large = exactCache(512, r, OPTIONS.phi3.large, 'float16');
  const rep = await inspect({ small: { ...small, rows: 32 }, large: { ...large, rows: 512 } }, 'float16', CONFIGS.phi3, 'phi3-short.onnx');
  s = siteOf(rep, 'small');
  assert.equal(s.short, true);
  assert.match(s.message, /; 32 rows, 64 expected \(max_position_embeddings L\)$/);
  assert.equal(siteOf(rep, 'large').short, false);
  // A mismatch says it is short too.
  const wrong = bake('wrong-base', 64, r, o, 'float16');
  s = (await inspect({ default: { ...wrong, rows: 64 } }, 'float16', CONFIGS.llama31, 'wrong-short.onnx')).sites[0];
  assert.equal(s.message, 'cos_cache: mismatch — base 500000 expected, the cache fits base 10000 (exact recipe); 64 rows, 1024 expected (max_position_embeddings)');
});

test('without a config: every site unchecked, with its size and type', async () => {
  const o = OPTIONS.llama31.default;
  const { model } = makeGenaiModel({ caches: { default: { ...exactCache(64, r, o, 'float16'), rows: 64 } }, dtype: 'float16' });
  const s = (await inspectModel(model, { encoder: pe })).sites[0];
  const nulls = { layerType: null, expected: null, short: false, diagnosis: null, fromExact: null, maxUlp: null };
  assert.deepEqual({ verdict: s.verdict, layerType: s.layerType, expected: s.expected, short: s.short, diagnosis: s.diagnosis, fromExact: s.fromExact, maxUlp: s.maxUlp }, { verdict: 'unchecked', ...nulls });
  // with a guess (docs/onnx.md, Without a config): the parameters that reproduce the cache
  assert.equal(s.message, 'cos_cache: 64 rows × 8, float16 (no config: not checked; it fits {"rope_theta":500000,"rope_scaling":{"rope_type":"llama3","factor":8,"low_freq_factor":1,"high_freq_factor":4,"original_max_position_embeddings":128}} with rotary dim 16 (exact values))');
  assert.deepEqual([s.guess.ropeType, s.guess.recipe, s.guess.rotaryDim], ['llama3', 'exact', 16]);
  const f = (await inspectModel(makeInvFreqModel(new Uint32Array(Float32Array.from(ropeInvFreq(r, o)).buffer)), { encoder: pe })).sites[0];
  assert.deepEqual({ verdict: f.verdict, layerType: f.layerType, expected: f.expected, short: f.short, diagnosis: f.diagnosis, fromExact: f.fromExact, maxUlp: f.maxUlp }, { verdict: 'unchecked', ...nulls });
  assert.equal(f.message, 'inv_freq: 8 frequencies, float32 (no config: not checked)');
  // the report holds no live tensor (JSON-able), as for a cache
  assert.equal(f.invFreq.tensor, undefined);
  assert.equal(f.invFreq.name, 'inv_freq');
  assert.deepEqual(JSON.parse(JSON.stringify(f.invFreq)), f.invFreq);
});

test('a cache or inv_freq of another rotary dim than the config\'s: wrong-rotary-dim', async () => {
  const config = { ...copy(CONFIGS.llama31), hidden_size: 128, head_dim: 32 };
  const o = OPTIONS.llama31.default;
  const s = (await inspect({ default: { ...exactCache(64, r, o, 'float32'), rows: 64 } }, 'float32', config, 'dim.onnx')).sites[0];
  assert.equal(s.verdict, 'mismatch');
  assert.equal(s.layerType, null);
  assert.deepEqual(s.expected, { rotaryDim: 32, options: o, maxPositions: 1024 });
  assert.deepEqual(s.diagnosis, { mistake: 'wrong-rotary-dim', detail: 'the cache is 8 wide (rotary dim 16); the config says rotary dim 32', recipe: null });
  assert.equal(s.message, 'cos_cache: mismatch — the cache is 8 wide (rotary dim 16); the config says rotary dim 32');
  const f = (await inspectModel(makeInvFreqModel(new Uint32Array(Float32Array.from(ropeInvFreq(r, o)).buffer)), { config, encoder: pe })).sites[0];
  assert.equal(f.verdict, 'mismatch');
  assert.deepEqual(f.expected, { rotaryDim: 32, options: o, maxPositions: 1024 });
  assert.deepEqual(f.diagnosis, { mistake: 'wrong-rotary-dim', detail: '8 frequencies; the config says rotary dim 32', recipe: null });
  assert.equal(f.message, 'inv_freq: mismatch — 8 frequencies; the config says rotary dim 32');
});

test('a cache of no rows: a mismatch that says so', async () => {
  const s = (await inspect({ default: { cos: new Uint16Array(0), sin: new Uint16Array(0), rows: 0 } }, 'float16', CONFIGS.llama31, 'empty.onnx')).sites[0];
  assert.equal(s.verdict, 'mismatch');
  assert.deepEqual(s.diagnosis, { mistake: 'unknown', detail: 'the cache has no rows', recipe: null });
  assert.equal(s.message, 'cos_cache: mismatch — the cache has no rows');
  assert.equal(s.short, true);
});

test('inspect refuses caches it cannot read as RoPE caches: not two 2-D tensors of one shape, not float32 / float16 / bfloat16, or two types', async () => {
  const { onnx } = onnxProto;
  const o = OPTIONS.llama31.default;
  const edit = (f) => {
    const m = onnx.ModelProto.decode(makeGenaiModel({ caches: { default: { ...exactCache(8, r, o, 'float32'), rows: 8 } } }).model);
    const t = (n) => m.graph.initializer.find((x) => x.name === n);
    f(t('cos_cache'), t('sin_cache'));
    return onnx.ModelProto.encode(m).finish();
  };
  const refused = (bytes, message) =>
    assert.rejects(inspectModel(bytes, { config: CONFIGS.llama31, encoder: pe, name: 'x.onnx' }), (e) => {
      assert.ok(e instanceof OnnxError, String(e));
      assert.equal(e.code, 'bad_tensor');
      assert.equal(e.message, message);
      return true;
    });
  const shape = (a, b) => `x.onnx: cache 'cos_cache' / 'sin_cache' must be two 2-D tensors of the same shape (rows, rotaryDim/2), got [${a}] and [${b}]`;
  // each of the four conditions alone
  await refused(edit((c) => (c.dims = [8, 8, 1])), shape('8,8,1', '8,8'));
  await refused(edit((c, s) => (s.dims = [8, 8, 1])), shape('8,8', '8,8,1'));
  await refused(edit((c, s) => (s.dims = [4, 8])), shape('8,8', '4,8'));
  await refused(edit((c, s) => (s.dims = [8, 16])), shape('8,8', '8,16'));
  await refused(edit((c, s) => (s.dims = [64])), shape('8,8', '64'));
  const type = (cos, sin) => `x.onnx: cache 'cos_cache' has element type ${cos} (sin: ${sin}); a RoPE cache is float32, float16 or bfloat16`;
  await refused(
    edit((c, s) => {
      for (const t of [c, s]) {
        t.dataType = 11;
        t.dims = [4, 8];
      }
    }),
    type('float64', 'float64'),
  );
  await refused(
    edit((c, s) => {
      s.dataType = 16;
      s.dims = [8, 8];
      s.rawData = s.rawData.subarray(0, 128);
    }),
    type('float32', 'bfloat16'),
  );
});

test('inv_freq: exact within one ulp; each mistake\'s detail; the worst frequency of an unknown one', async () => {
  const o = OPTIONS.llama31.default;
  const bits = (f) => new Uint32Array(Float32Array.from(f).buffer);
  const check = async (b, config = CONFIGS.llama31) => (await inspectModel(makeInvFreqModel(b), { config, encoder: pe, name: 'f.onnx' })).sites[0];
  const good = bits(ropeInvFreq(r, o));
  let s = await check(good);
  assert.equal(s.verdict, 'exact');
  assert.equal(s.message, 'inv_freq: the frequencies match (bit-identical to the float64 values rounded to float32)');
  assert.deepEqual([s.fromExact.row, s.fromExact.which], [0, 'inv_freq']);
  assert.ok(s.fromExact.maxAbs <= 2 ** -24 * ropeInvFreq(r, o)[s.fromExact.col]);
  const one = good.slice();
  one[3] += 1;
  s = await check(one);
  assert.equal(s.verdict, 'exact');
  assert.equal(s.maxUlp, 1);
  assert.match(s.message, /\(within 1 ulp of the float64 values rounded to float32\)$/);
  const detail = async (f, config) => {
    const x = await check(bits(f), config);
    assert.equal(x.verdict, 'mismatch', x.message);
    assert.equal(x.message, `inv_freq: mismatch — ${x.diagnosis.detail}`);
    return x.diagnosis;
  };
  assert.deepEqual(await detail(ropeInvFreq(r, { base: 500000 })), { mistake: 'default-rope-type', detail: "rope scaling 'llama3' ignored", recipe: 'exact' });
  assert.deepEqual(await detail(ropeInvFreq(r, { ...o, base: 10000 })), { mistake: 'wrong-base', detail: 'base 500000 expected, the frequencies fit base 10000', recipe: 'exact' });
  assert.deepEqual(await detail(ropeInvFreq(r, { ...o, factor: 4 })), { mistake: 'wrong-factor', detail: 'factor 8 expected, the frequencies fit factor 4', recipe: 'exact' });
  // The base read off frequency 1 (base^(-2/r)), rounded to two figures.
  const plain = copy(CONFIGS.llama31);
  delete plain.rope_scaling;
  assert.deepEqual(await detail(ropeInvFreq(r, { base: 120000 }), plain), { mistake: 'wrong-base', detail: 'base 500000 expected, the frequencies fit base 120000', recipe: 'exact' });
  delete plain.rope_theta;
  assert.deepEqual(await detail(ropeInvFreq(r, { base: 500000 }), plain), { mistake: 'wrong-base', detail: 'base 10000 expected, the frequencies fit base 500000', recipe: 'exact' });
  // Within 64 ulp (FIT_ULPS): torch's float32 arithmetic, verdict float32.
  const near = good.slice();
  near[6] -= 9;
  s = await check(near);
  assert.deepEqual([s.verdict, s.maxUlp], ['float32', 9], s.message);
  // Two frequencies off: the detail names the one most ulps off (6), fromExact the one farthest in value (1, ~0.19, 2 ulps
  // = 3e-8; frequency 6 is ~7e-6, 90 ulps = 4e-11; the others' own rounding is at most 2e-9).
  const off = good.slice();
  off[1] += 2;
  off[6] -= 90;
  s = await check(off);
  assert.equal(s.maxUlp, 90);
  assert.deepEqual(s.diagnosis, { mistake: 'unknown', detail: 'no known mistake reproduces it; 90 ulp off at frequency 6', recipe: null });
  assert.equal(s.message, 'inv_freq: mismatch — no known mistake reproduces it; 90 ulp off at frequency 6');
  assert.equal(s.fromExact.col, 1);
  assert.ok(Math.abs(s.fromExact.maxAbs - 2 * 2 ** -26) < 2 ** -26, `${s.fromExact.maxAbs}`);
  // equally many ulps off: the first named
  const tie = good.slice();
  tie[4] += 70;
  tie[6] -= 70;
  s = await check(tie);
  assert.equal(s.diagnosis.detail, 'no known mistake reproduces it; 70 ulp off at frequency 4');
});

test('an unknown mismatch reports position 0 and the base pair 1 fits (none when its angle at position 1 is not positive)', async () => {
  const plain = copy(CONFIGS.llama31);
  delete plain.rope_scaling;
  const o = { ropeType: 'default', base: 500000 };
  const rows = 64;
  const ref = exactCache(rows, r, o, 'float16');
  const run = async (f) => {
    const c = { cos: ref.cos.slice(), sin: ref.sin.slice() };
    f(c);
    return (await inspect({ default: { ...c, rows } }, 'float16', plain, 'unknown.onnx')).sites[0];
  };
  let s = await run((c) => (c.cos[10 * half + 4] += 6));
  assert.deepEqual(s.diagnosis, { mistake: 'unknown', detail: 'no known mistake reproduces it; 6 ulp from exact at row 10, col 4 (cos); position 0 holds 1 (attention factor 1 expected); pair 1 fits base ≈ 5.000e+5; column 4 fits no float32 inv_freq within 64 ulp of 0.00141421', recipe: null });
  assert.equal(s.message, `cos_cache: mismatch — ${s.diagnosis.detail}; 64 rows, 1024 expected (max_position_embeddings)`);
  // sin at row 1, col 1 zero (angle 0) or negative: no base.
  for (const bits of [0x0000, ref.sin[half + 1] | 0x8000]) {
    s = await run((c) => (c.sin[half + 1] = bits));
    assert.equal(s.diagnosis.mistake, 'unknown', s.message);
    assert.match(s.diagnosis.detail, /\(attention factor 1 expected\); column \d+ fits no float32 inv_freq within 64 ulp of [\d.]+$/);
  }
  // position 0 holding something else than the attention factor, with a mismatch elsewhere too
  s = await run((c) => {
    c.cos[0] = 0x3a00; // 0.75
    c.sin[20 * half + 2] += 9;
  });
  assert.match(s.diagnosis.detail, /; position 0 holds 0\.75 \(attention factor 1 expected\); pair 1 fits base ≈ 5\.000e\+5; column \d+ fits no float32 inv_freq within 64 ulp of [\d.]+$/);
});

test('a half cache one ulp off where no double rounding explains it: exact, loosely (within 1 ulp)', async () => {
  const o = OPTIONS.llama31.default;
  const rows = 64;
  const ref = exactCache(rows, r, o, 'float16');
  // An element far from a midpoint of float16 neighbours (rounding twice cannot move it), positive.
  const i = ref.values.cos.findIndex((v, k) => k > half && v > 0.1 && !halfBits(v, 'float16', 2 ** -14).near);
  assert.ok(i > 0);
  const cos = ref.cos.slice();
  cos[i] += 1;
  const s = (await inspect({ default: { cos, sin: ref.sin, rows } }, 'float16', CONFIGS.llama31, 'one-ulp.onnx')).sites[0];
  assert.equal(s.verdict, 'exact', s.message);
  assert.equal(s.maxUlp, 1);
  // The float32 recipe's cos is within 2 ulp of float32, which cannot move a float16 value far from a midpoint.
  assert.equal(s.matchesBoth, false);
  assert.match(s.message, /^cos_cache: exact \(within 1 ulp\); /);
});

test('LongRoPE without max_position_embeddings (factor given): a small cache holding the long factors is diagnosed', async () => {
  const config = copy(CONFIGS.phi3);
  delete config.max_position_embeddings;
  config.rope_scaling.factor = 8;
  const large = { ...OPTIONS.phi3.large, maxPositions: undefined, factor: 8, seqLen: 65 };
  const report = await inspect(phi3Caches(large, large, { small: 64, large: 128 }), 'float32', config, 'phi3-no-mpe.onnx');
  const s = siteOf(report, 'small');
  assert.equal(s.expected.maxPositions, 64);
  assert.deepEqual(s.diagnosis, { mistake: 'short-long-exchanged', detail: 'the small cache holds the long factors (short and long LongRoPE caches exchanged)', recipe: 'exact' }, s.message);
  const l = siteOf(report, 'large');
  assert.equal(l.expected.options.seqLen, 65);
  assert.equal(l.expected.maxPositions, null);
  assert.equal(l.verdict, 'exact', l.message);
});

test('a float64 inv_freq: equal to the float64 frequencies or not (2 ulps, a mismatch)', async () => {
  // Base 256, r = 16: the frequencies 256^(-2j/16) = 2^-j are exact in float64, whatever the pow.
  const config = { ...copy(CONFIGS.llama31), rope_theta: 256 };
  delete config.rope_scaling;
  const { onnx } = onnxProto;
  const model = (f) => {
    const m = onnx.ModelProto.decode(makeInvFreqModel(new Uint32Array(half)));
    const t = m.graph.initializer.find((x) => x.name === 'inv_freq');
    t.dataType = onnx.TensorProto.DataType.DOUBLE;
    t.rawData = new Uint8Array(Float64Array.from(f).buffer);
    return onnx.ModelProto.encode(m).finish();
  };
  const exact = Array.from({ length: half }, (_, j) => 2 ** -j);
  assert.deepEqual(ropeInvFreq(r, { base: 256 }), Float64Array.from(exact));
  let s = (await inspectModel(model(exact), { config, encoder: pe })).sites[0];
  assert.equal(s.dtype, 'float64');
  assert.equal(s.verdict, 'exact', s.message);
  assert.equal(s.maxUlp, 0);
  assert.deepEqual(s.fromExact, { maxAbs: 0, row: 0, col: 0, which: 'inv_freq' });
  const off = exact.slice();
  off[3] *= 1 + 2 ** -52;
  s = (await inspectModel(model(off), { config, encoder: pe })).sites[0];
  assert.equal(s.verdict, 'mismatch', s.message);
  assert.equal(s.maxUlp, 2);
  assert.deepEqual(s.diagnosis, { mistake: 'unknown', detail: 'no known mistake reproduces it; 2 ulp off at frequency 3', recipe: null });
  assert.equal(s.fromExact.col, 3);
});

// ulps between two bit patterns of the same width (sign-magnitude ordered as values), written out.
function ulpsBetween(a, b, wide) {
  const sign = wide ? 0x80000000 : 0x8000;
  const ordered = (x) => (x & sign ? -(x & (sign - 1)) : x);
  return Math.abs(ordered(a) - ordered(b));
}
const maxUlps = (c, ref, wide) => Math.max(...[...c.cos].map((b, i) => ulpsBetween(b, ref.cos[i], wide)), ...[...c.sin].map((b, i) => ulpsBetween(b, ref.sin[i], wide)));

test('a mistake made by the float32 recipe is diagnosed as such; maxUlp is the distance from the nearer recipe', async () => {
  const o = OPTIONS.llama31.default;
  const rows = 256;
  // float32: a wrong base by torch's float32 steps (far from exact at 256 rows).
  const c32 = float32Cache(rows, r, { ...o, base: 10000 }, 'float32');
  let s = (await inspect({ default: { ...c32, rows } }, 'float32', CONFIGS.llama31, 'f32-wrong-base.onnx')).sites[0];
  assert.deepEqual(s.diagnosis, { mistake: 'wrong-base', detail: 'base 500000 expected, the cache fits base 10000', recipe: 'float32' }, s.message);
  assert.equal(s.message, 'cos_cache: mismatch — base 500000 expected, the cache fits base 10000 (float32 recipe); 256 rows, 1024 expected (max_position_embeddings)');
  // float16 (Qwen2.5): the exact and float32-recipe caches differ here (the references', which the package's are bit for bit).
  const q = OPTIONS.qwen25.default;
  const e16 = exactCache(rows, r, q, 'float16');
  const f16 = float32Cache(rows, r, q, 'float16');
  const k = e16.cos.findIndex((b, i) => b !== f16.cos[i]);
  assert.ok(k > 0, 'the recipes differ somewhere');
  for (const [how, cache] of [
    ['wrong base', exactCache(rows, r, { ...q, base: 10000 }, 'float16')],
    ['float32 recipe, one value moved', { cos: f16.cos.map((b, i) => (i === k ? b + 3 : b)), sin: f16.sin }],
    ['exact, one value moved', { cos: e16.cos.map((b, i) => (i === k ? b + 4 : b)), sin: e16.sin }],
  ]) {
    s = (await inspect({ default: { ...cache, rows } }, 'float16', CONFIGS.qwen25, 'f16.onnx')).sites[0];
    assert.equal(s.verdict, 'mismatch', `${how}: ${s.message}`);
    const want = Math.min(maxUlps(cache, e16, false), maxUlps(cache, f16, false));
    assert.equal(s.maxUlp, want, `${how}: maxUlp ${s.maxUlp}, from exact ${maxUlps(cache, e16, false)}, from the float32 recipe ${maxUlps(cache, f16, false)}`);
    if (how !== 'wrong base') assert.notEqual(maxUlps(cache, e16, false), maxUlps(cache, f16, false), `${how}: the two distances differ`);
  }
});

test('the mistakes are looked for in the first 2048 rows only', async () => {
  const config = { ...copy(CONFIGS.llama31), max_position_embeddings: 2560 };
  const o = OPTIONS.llama31.default;
  const rows = 2560;
  const c = exactCache(rows, r, { ...o, base: 10000 }, 'float16');
  // rows 2048 on: zeros, which no recipe or mistake gives
  c.cos.fill(0, 2048 * half);
  c.sin.fill(0, 2048 * half);
  const s = (await inspect({ default: { cos: c.cos, sin: c.sin, rows } }, 'float16', config, 'long.onnx')).sites[0];
  assert.deepEqual(s.diagnosis, { mistake: 'wrong-base', detail: 'base 500000 expected, the cache fits base 10000', recipe: 'exact' }, s.message);
  assert.equal(s.short, false);
});

test('inv_freq: scaling ignored without rope_theta (base 10000), and a wrong base one ulp off still diagnosed', async () => {
  const bits = (f) => new Uint32Array(Float32Array.from(f).buffer);
  const check = async (b, config) => (await inspectModel(makeInvFreqModel(b), { config, encoder: pe, name: 'f.onnx' })).sites[0];
  const noTheta = copy(CONFIGS.llama31);
  delete noTheta.rope_theta;
  let s = await check(bits(ropeInvFreq(r, { base: 10000 })), noTheta);
  assert.deepEqual(s.diagnosis, { mistake: 'default-rope-type', detail: "rope scaling 'llama3' ignored", recipe: 'exact' }, s.message);
  const b = bits(ropeInvFreq(r, { ...OPTIONS.llama31.default, base: 10000 }));
  b[3] += 1;
  s = await check(b, CONFIGS.llama31);
  assert.deepEqual(s.diagnosis, { mistake: 'wrong-base', detail: 'base 500000 expected, the frequencies fit base 10000', recipe: 'exact' }, s.message);
});

test('a diagnosed mistake\'s maxUlp is its distance from the nearer recipe (Qwen2.5 rounded twice: 1 from exact)', async () => {
  const o = OPTIONS.qwen25.default;
  const rows = 256;
  const c = bake('rounded-twice', rows, r, o, 'float16');
  const fromExact = maxUlps(c, exactCache(rows, r, o, 'float16'), false);
  const fromF32 = maxUlps(c, float32Cache(rows, r, o, 'float16'), false);
  assert.ok(fromExact < fromF32, `${fromExact} < ${fromF32}`);
  const s = (await inspect({ default: { ...c, rows } }, 'float16', CONFIGS.qwen25, 'twice.onnx')).sites[0];
  assert.equal(s.diagnosis?.mistake, 'rounded-twice', s.message);
  assert.equal(s.maxUlp, fromExact);
});

test('LongRoPE with max_position_embeddings = L: a small cache holding the long factors (seqLen L + 1) is diagnosed', async () => {
  const config = { ...copy(CONFIGS.phi3), max_position_embeddings: 64 };
  const large = { ...OPTIONS.phi3.large, maxPositions: 64, seqLen: 65 };
  const report = await inspect(phi3Caches(large, large, { small: 64, large: 64 }), 'float32', config, 'phi3-64-exchanged.onnx');
  const s = siteOf(report, 'small');
  assert.deepEqual(s.diagnosis, { mistake: 'short-long-exchanged', detail: 'the small cache holds the long factors (short and long LongRoPE caches exchanged)', recipe: 'exact' }, s.message);
  assert.equal(siteOf(report, 'large').verdict, 'exact');
});

test('short-long-exchanged is LongRoPE\'s only: _small / _large caches of a dynamic model are not diagnosed so', async () => {
  const config = { ...copy(CONFIGS.qwen25), rope_scaling: { type: 'dynamic', factor: 2 } };
  const o = { ropeType: 'dynamic', base: 1000000, factor: 2, maxPositions: 1024 };
  const rows = 256;
  // the small cache computed for a sequence of 1025 (NTK base grown); the large one as expected
  const report = await inspect(
    { small: { ...exactCache(rows, r, { ...o, seqLen: 1025 }, 'float32'), rows }, large: { ...exactCache(rows, r, o, 'float32'), rows } },
    'float32',
    config,
    'dynamic.onnx',
  );
  const s = siteOf(report, 'small');
  assert.equal(s.verdict, 'mismatch', s.message);
  assert.equal(s.diagnosis.mistake, 'unknown', s.message);
  assert.equal(siteOf(report, 'large').verdict, 'exact');
});

test('LongRoPE\'s attention factor: another factor\'s is a wrong attention factor, or a wrong factor where the config gives one', async () => {
  const large = OPTIONS.phi3.large;
  const att4 = ropeAttention(r, { ...large, factor: 4 }); // sqrt(1 + ln 4 / ln 64)
  const caches = phi3Caches(OPTIONS.phi3.small, { ...large, attentionFactor: att4 });
  let l = siteOf(await inspect(caches, 'float32', CONFIGS.phi3, 'phi3-att.onnx'), 'large');
  assert.equal(l.diagnosis?.mistake, 'wrong-attention-factor', l.message);
  assert.equal(l.diagnosis.detail, `attention factor ${ropeAttention(r, large)} expected, the cache's position 0 holds ${Math.fround(att4)}`);
  const withFactor = copy(CONFIGS.phi3);
  withFactor.rope_scaling.factor = 8;
  l = siteOf(await inspect(caches, 'float32', withFactor, 'phi3-factor.onnx'), 'large');
  assert.deepEqual(l.diagnosis, { mistake: 'wrong-factor', detail: 'factor 8 expected, the cache fits factor 4', recipe: 'exact' }, l.message);
});

test('a cache negated or all zeros is no wrong attention factor (position 0 not positive): unknown', async () => {
  const o = OPTIONS.llama31.default;
  const rows = 16;
  const e = exactCache(rows, r, o, 'float16');
  for (const [how, cos, sin] of [
    ['negated', e.cos.map((b) => b ^ 0x8000), e.sin.map((b) => (b === 0 ? 0 : b ^ 0x8000))],
    ['zeros', new Uint16Array(e.cos.length), new Uint16Array(e.sin.length)],
  ]) {
    const s = (await inspect({ default: { cos, sin, rows } }, 'float16', CONFIGS.llama31, `${how}.onnx`)).sites[0];
    assert.equal(s.verdict, 'mismatch', `${how}: ${s.message}`);
    assert.equal(s.diagnosis.mistake, 'unknown', `${how}: ${s.message}`);
  }
});

test('a cache one column wide (rotary dim 2): no pair 1, no base read off it', async () => {
  const { onnx } = onnxProto;
  const config = { model_type: 'llama', hidden_size: 8, num_attention_heads: 4, num_key_value_heads: 4, head_dim: 2, max_position_embeddings: 64, rope_theta: 10000 };
  const rows = 16;
  const c = ropeCache(Array.from({ length: rows }, (_, i) => i), 2, { base: 10000 });
  const cos = Float32Array.from(c.cos);
  cos[5] = -cos[5]; // cos 5 is not −cos 5: unknown
  const m = onnx.ModelProto.decode(makeGenaiModel({ caches: { default: { ...exactCache(rows, r, OPTIONS.llama31.default, 'float32'), rows } } }).model);
  for (const [name, values] of [
    ['cos_cache', cos],
    ['sin_cache', Float32Array.from(c.sin)],
  ]) {
    const t = m.graph.initializer.find((x) => x.name === name);
    t.dims = [rows, 1];
    t.rawData = new Uint8Array(values.buffer);
  }
  const s = (await inspectModel(onnx.ModelProto.encode(m).finish(), { config, encoder: pe })).sites[0];
  assert.equal(s.rotaryDim, 2);
  assert.equal(s.verdict, 'mismatch', s.message);
  assert.equal(s.diagnosis.mistake, 'unknown', s.message);
  assert.match(s.diagnosis.detail, /^no known mistake reproduces it; \d+ ulp from exact at row 5, col 0 \(cos\); position 0 holds 1 \(attention factor 1 expected\); column 0 fits no float32 inv_freq within 64 ulp of 1\.00000$/);
});

test('an attention factor within 1e-6 (relative) of the expected one is not called wrong', async () => {
  const o = OPTIONS.qwen25.default;
  const att = ropeAttention(r, o);
  const rows = 64;
  // 0.9e-6 relative: position 0 is ~1.02e-6 from att, inside 1e-6 × att (1.14e-6), outside 1e-6 / att (0.88e-6);
  // every value moves by up to 1.02e-6, more than exact's 4e-7 × att.
  const c = exactCache(rows, r, { ...o, attentionFactor: att * (1 + 0.9e-6) }, 'float32');
  const p0 = new Float32Array(c.cos.buffer)[0];
  assert.ok(Math.abs(p0 - att) > 1e-6 / att && Math.abs(p0 - att) <= 1e-6 * att, `${p0 - att}`);
  const s = (await inspect({ default: { ...c, rows } }, 'float32', CONFIGS.qwen25, 'att-close.onnx')).sites[0];
  assert.equal(s.verdict, 'mismatch', s.message);
  assert.equal(s.diagnosis.mistake, 'unknown', s.message);
  // 2e-6 off: wrong-attention-factor.
  const d = exactCache(rows, r, { ...o, attentionFactor: att * (1 + 2e-6) }, 'float32');
  const t = (await inspect({ default: { ...d, rows } }, 'float32', CONFIGS.qwen25, 'att-off.onnx')).sites[0];
  assert.equal(t.diagnosis?.mistake, 'wrong-attention-factor', t.message);
});

test('float32 inv_freq ulps are counted on 32-bit patterns: one step across a 16-bit boundary (…7fff → …8000) is one ulp', async () => {
  // rope_theta 13497: frequency 3, 13497^(-6/16), is 0x3ce77fff in float32.
  const config = { ...copy(CONFIGS.llama31), rope_theta: 13497 };
  delete config.rope_scaling;
  const b = new Uint32Array(Float32Array.from(ropeInvFreq(r, { base: 13497 })).buffer);
  assert.equal(b[3], 0x3ce77fff);
  let s = (await inspectModel(makeInvFreqModel(b), { config, encoder: pe })).sites[0];
  assert.equal(s.maxUlp, 0, s.message);
  b[3] += 1;
  s = (await inspectModel(makeInvFreqModel(b), { config, encoder: pe })).sites[0];
  assert.equal(s.verdict, 'exact', s.message);
  assert.equal(s.maxUlp, 1, s.message);
});

test('inv_freq whose frequency 1 reads as a base just above 1 (rounded to 1, refused by the package): that try is skipped, unknown', async () => {
  const f = Float32Array.from(ropeInvFreq(r, OPTIONS.llama31.default));
  f[1] = 0.995; // 0.995^(-8) ≈ 1.04, two figures: 1
  const s = (await inspectModel(makeInvFreqModel(new Uint32Array(f.buffer)), { config: CONFIGS.llama31, encoder: pe })).sites[0];
  assert.equal(s.verdict, 'mismatch', s.message);
  assert.equal(s.diagnosis.mistake, 'unknown', s.message);
});
