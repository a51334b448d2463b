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
import { inspectModel } from 'sinpe.wasm/onnx';
import { ropeCache, ropeAttention } from './rope-reference.mjs';
import { halfBits } from './mrope-reference.mjs';
import { CONFIGS, OPTIONS, ROTARY_DIM, exactCache, float32Cache, makeGenaiModel } from './fixtures/make-genai-model.mjs';

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
  }
});

test('the float32 recipe: bit-identical strictly, within 2^-24 × max(1, att) loosely (float32 only); 4e-7 is exact\'s bound, not its', async () => {
  // 1024 rows: the float32 recipe is far from exact (the angle's float32 rounding at position 1023).
  const rows = 1024;
  const f32llama = float32Cache(rows, r, OPTIONS.llama31.default, 'float32');
  const f32qwen = float32Cache(rows, r, OPTIONS.qwen25.default, 'float32');
  const att = ropeAttention(r, OPTIONS.qwen25.default);
  const next = (v) => new Float32Array(new Uint32Array([f32Bits(v) + 1]).buffer)[0];
  for (const [model, cache, v, verdict] of [
    ['llama31', f32llama, 0, 'float32'],
    ['llama31', f32llama, 2 ** -24, 'float32'], // at the bound
    ['llama31', f32llama, next(2 ** -24), 'mismatch'],
    ['llama31', f32llama, 2e-7, 'mismatch'], // within exact's 4e-7, not the recipe's bound
    ['qwen25', f32qwen, Math.fround(2 ** -24 * 1.1), 'float32'], // past 2^-24, within 2^-24 × att
    ['qwen25', f32qwen, Math.fround(2 ** -24 * 1.2), 'mismatch'],
  ]) {
    const c = withSin0(cache, v);
    const s = (await inspect({ default: { ...c, rows } }, 'float32', CONFIGS[model], `${model}-f32-${v}.onnx`)).sites[0];
    assert.equal(s.verdict, verdict, `${model} float32 recipe, sin[0] = ${v}: ${s.message}`);
    assert.ok(s.fromExact.maxAbs > 4e-7 * att, `${model}: the cache is far from exact (${s.message})`);
    if (verdict === 'float32') {
      assert.equal(s.maxUlp, f32Bits(v), s.message); // ulps from 0 are the bits of a positive float32
      if (v > 0) assert.match(s.message, /float32 recipe \(within \d\.\de-8\)/);
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
