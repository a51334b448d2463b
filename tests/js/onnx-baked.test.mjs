// Models whose RoPE caches were baked the way the exporters bake them —
// numpy float32 at every step (tests/py/bake_float32.py: transformers'
// float32 inv_freq rules, outer, cos/sin, × mscale, one cast), never by
// sinpe — in onnxruntime-genai's layouts, for every rope type the builder
// bakes, float32 and float16. Each correct one must be called a match
// ('float32', or 'exact' where its bits are the exact ones), exit 0; the
// same pipelines with a mistake must be named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import sinpe from 'sinpe.wasm';
import { inspectModel, extendModel, readModel } from 'sinpe.wasm/onnx';
import { makeGenaiModel, round } from './fixtures/make-genai-model.mjs';
import { ropeCache } from './rope-reference.mjs';
import { halfValue } from './mrope-reference.mjs';
import { runPython } from './python-reference.mjs';
import ort from 'onnxruntime-node';

const pe = await sinpe();
const R = 64;
const ROWS = 2048;
const factors = (n, f) => Array.from({ length: n }, (_, j) => Number((1 + (f - 1) * (j / (n - 1)) ** 2).toFixed(3)));
const SHORT = factors(R / 2, 1.6);
const LONG = factors(R / 2, 24);

// Each model: its config.json, and per cache group the bake (HF names, read from the config by hand) and
// the independent float64 reference's options (tests/js/rope-reference.mjs) for the exact cache.
const MODELS = {
  llama: {
    config: { model_type: 'llama', architectures: ['LlamaForCausalLM'], hidden_size: 256, num_attention_heads: 4, num_key_value_heads: 4, max_position_embeddings: ROWS, rope_theta: 10000 },
    groups: { default: { bake: { rope_type: 'default', rope_theta: 10000 }, ref: { ropeType: 'default', base: 10000 } } },
  },
  llama31: {
    config: {
      model_type: 'llama', architectures: ['LlamaForCausalLM'], hidden_size: 256, num_attention_heads: 4, num_key_value_heads: 4, max_position_embeddings: ROWS, rope_theta: 500000,
      rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 512 },
    },
    groups: { default: { bake: { rope_type: 'llama3', rope_theta: 500000, factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 512 }, ref: { ropeType: 'llama3', base: 500000, factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 512 } } },
  },
  linear: {
    config: { model_type: 'llama', hidden_size: 256, num_attention_heads: 4, max_position_embeddings: ROWS, rope_theta: 10000, rope_scaling: { type: 'linear', factor: 4 } },
    groups: { default: { bake: { rope_type: 'linear', rope_theta: 10000, factor: 4 }, ref: { ropeType: 'linear', base: 10000, factor: 4 } } },
  },
  dynamic: {
    config: { model_type: 'llama', hidden_size: 256, num_attention_heads: 4, max_position_embeddings: ROWS, rope_theta: 10000, rope_scaling: { type: 'dynamic', factor: 2 } },
    groups: { default: { bake: { rope_type: 'dynamic', rope_theta: 10000, factor: 2, max_position_embeddings: ROWS }, ref: { ropeType: 'dynamic', base: 10000, factor: 2, maxPositions: ROWS } } },
  },
  qwen25: {
    config: { model_type: 'qwen2', architectures: ['Qwen2ForCausalLM'], hidden_size: 256, num_attention_heads: 4, num_key_value_heads: 4, max_position_embeddings: ROWS, rope_theta: 1000000, rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 512 } },
    groups: { default: { bake: { rope_type: 'yarn', rope_theta: 1000000, factor: 4, original_max_position_embeddings: 512 }, ref: { ropeType: 'yarn', base: 1000000, factor: 4, originalMaxPositions: 512, maxPositions: ROWS } } },
  },
  phi3: {
    config: { model_type: 'phi3', architectures: ['Phi3ForCausalLM'], hidden_size: 256, num_attention_heads: 4, num_key_value_heads: 4, max_position_embeddings: ROWS, original_max_position_embeddings: 256, rope_theta: 10000, rope_scaling: { type: 'longrope', short_factor: SHORT, long_factor: LONG } },
    groups: {
      small: { rows: 256, bake: { rope_type: 'longrope', rope_theta: 10000, original_max_position_embeddings: 256, max_position_embeddings: ROWS, short_factor: SHORT, long_factor: LONG, seq_len: 256 }, ref: { ropeType: 'longrope', base: 10000, originalMaxPositions: 256, maxPositions: ROWS, shortFactor: SHORT, longFactor: LONG, seqLen: 256 } },
      large: { bake: { rope_type: 'longrope', rope_theta: 10000, original_max_position_embeddings: 256, max_position_embeddings: ROWS, short_factor: SHORT, long_factor: LONG, seq_len: ROWS }, ref: { ropeType: 'longrope', base: 10000, originalMaxPositions: 256, maxPositions: ROWS, shortFactor: SHORT, longFactor: LONG, seqLen: ROWS } },
    },
  },
  gemma3: {
    config: { model_type: 'gemma3_text', architectures: ['Gemma3ForCausalLM'], hidden_size: 256, num_attention_heads: 4, num_key_value_heads: 4, head_dim: R, num_hidden_layers: 6, sliding_window_pattern: 6, max_position_embeddings: ROWS, rope_theta: 1000000, rope_local_base_freq: 10000, rope_scaling: { rope_type: 'linear', factor: 8 } },
    groups: {
      global: { bake: { rope_type: 'linear', rope_theta: 1000000, factor: 8 }, ref: { ropeType: 'linear', base: 1000000, factor: 8 } },
      local: { bake: { rope_type: 'default', rope_theta: 10000 }, ref: { ropeType: 'default', base: 10000 } },
    },
  },
  partial: {
    // Phi-2 / StableLM style: rotary dim = head_dim × partial_rotary_factor (64 × 0.5).
    config: { model_type: 'stablelm', hidden_size: 256, num_attention_heads: 4, num_key_value_heads: 4, max_position_embeddings: ROWS, rope_theta: 10000, partial_rotary_factor: 0.5 },
    groups: { default: { bake: { rope_type: 'default', rope_theta: 10000 }, ref: { ropeType: 'default', base: 10000 } } },
  },
};

// Bakes every case in one Python run: { name → { cos, sin (bits), invFreq } }.
function bakeAll(cases) {
  const out = runPython('bake_float32.py', [], JSON.stringify(cases));
  const baked = new Map();
  for (const line of out.trim().split('\n')) {
    const b = JSON.parse(line);
    const bytes = (s) => Buffer.from(s, 'base64');
    const bits = (buf, dtype) => (dtype === 'float32' ? new Uint32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)) : new Uint16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)));
    const dtype = cases.find((c) => c.name === b.name).dtype;
    baked.set(b.name, { cos: bits(bytes(b.cos), dtype), sin: bits(bytes(b.sin), dtype), invFreq: b.invFreq });
  }
  return baked;
}

const cases = [];
for (const [model, m] of Object.entries(MODELS))
  for (const dtype of ['float32', 'float16'])
    for (const [group, g] of Object.entries(m.groups)) {
      const dim = model === 'partial' ? 32 : R;
      cases.push({ name: `${model}/${dtype}/${group}`, ...g.bake, dim, rows: g.rows ?? ROWS, dtype });
      if (model === 'llama' || model === 'qwen25') cases.push({ name: `${model}/${dtype}/${group}/f64inv`, ...g.bake, dim, rows: g.rows ?? ROWS, dtype, inv_freq: 'float64' });
    }
// Mistakes made in the same float32 pipeline.
cases.push({ name: 'llama31/float32/wrong-factor', ...MODELS.llama31.groups.default.bake, factor: 4, dim: R, rows: ROWS, dtype: 'float32' });
cases.push({ name: 'qwen25/float16/default-rope-type', rope_type: 'default', rope_theta: 1000000, dim: R, rows: ROWS, dtype: 'float16' });
cases.push({ name: 'gemma3/float32/local-with-global-factor', rope_type: 'linear', rope_theta: 10000, factor: 8, dim: R, rows: ROWS, dtype: 'float32' });
cases.push({ name: 'gemma3/float16/local-with-global-base', rope_type: 'default', rope_theta: 1000000, dim: R, rows: ROWS, dtype: 'float16' });
const baked = bakeAll(cases);

const sameBits = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
function exactOf(model, group, dtype) {
  const g = MODELS[model].groups[group];
  const dim = model === 'partial' ? 32 : R;
  const c = ropeCache(Array.from({ length: g.rows ?? ROWS }, (_, i) => i), dim, g.ref);
  return { cos: round(c.cos, dtype), sin: round(c.sin, dtype) };
}

function modelOf(model, dtype, pick) {
  const caches = {};
  for (const [group, g] of Object.entries(MODELS[model].groups)) {
    const b = pick(group);
    caches[group] = { cos: b.cos, sin: b.sin, rows: g.rows ?? ROWS };
  }
  return makeGenaiModel({ caches, dtype, rotaryDim: model === 'partial' ? 32 : R });
}

const table = [];
for (const model of Object.keys(MODELS))
  for (const dtype of ['float32', 'float16'])
    test(`${model} ${dtype}, baked by numpy float32 at every step: a match, not a mismatch`, async () => {
      for (const variant of model === 'llama' || model === 'qwen25' ? ['', '/f64inv'] : ['']) {
        const { model: bytes } = modelOf(model, dtype, (group) => baked.get(`${model}/${dtype}/${group}${variant}`));
        const report = await inspectModel(bytes, { config: MODELS[model].config, encoder: pe, name: `${model}.onnx` });
        assert.equal(report.sites.length, Object.keys(MODELS[model].groups).length);
        for (const site of report.sites) {
          const b = baked.get(`${model}/${dtype}/${site.group}${variant}`);
          const exact = exactOf(model, site.group, dtype);
          const isExact = sameBits(b.cos, exact.cos) && sameBits(b.sin, exact.sin);
          table.push(`| ${model} | ${dtype} | numpy float32${variant ? ', inv_freq float64 rounded once' : ''} | ${site.group} | ${site.verdict}${site.fit ? ` (${site.fit.variant}; ${site.fit.columns.filter((c) => c.ulps !== 0).length} of ${site.fit.columns.length} inv_freq off the correctly rounded, max ${Math.max(...site.fit.columns.map((c) => Math.abs(c.ulps)))} ulp; ${site.fit.columns.filter((c) => c.ambiguous).length} ambiguous)` : ''} |`);
          assert.equal(site.verdict, isExact ? 'exact' : 'float32', `${model} ${dtype} ${site.group}${variant}: ${site.message}`);
          if (!isExact) {
            assert.ok(site.fit && site.fit.columns.length === site.rotaryDim / 2, `${site.message}: a fitted inv_freq per column`);
            if (variant) assert.equal(site.fit.variant, 'float64-inv', site.message);
          }
        }
        assert.equal(report.status, 'match');
      }
    });

test('the numpy float32 caches are not the exact ones: the check above is of the float32 recipe', () => {
  // Were they bit-identical to exact, every assertion above would pass with the float32 recipe unrecognised.
  let differ = 0;
  for (const model of Object.keys(MODELS))
    for (const dtype of ['float32', 'float16'])
      for (const group of Object.keys(MODELS[model].groups)) {
        const b = baked.get(`${model}/${dtype}/${group}`);
        const e = exactOf(model, group, dtype);
        if (!sameBits(b.cos, e.cos) || !sameBits(b.sin, e.sin)) differ++;
      }
  assert.ok(differ >= 16, `${differ} of the numpy-baked caches differ from exact`);
});

test('mistakes made in the float32 pipeline are named, with the recipe', async () => {
  const one = async (model, dtype, override, mistake) => {
    const { model: bytes } = modelOf(model, dtype, (group) => (override[group] ? baked.get(override[group]) : baked.get(`${model}/${dtype}/${group}`)));
    const report = await inspectModel(bytes, { config: MODELS[model].config, encoder: pe });
    const bad = report.sites.filter((s) => s.verdict === 'mismatch');
    assert.equal(bad.length, 1, report.sites.map((s) => s.message).join('\n'));
    assert.equal(bad[0].diagnosis.mistake, mistake, bad[0].message);
    assert.equal(bad[0].diagnosis.recipe, 'float32', bad[0].message);
    table.push(`| ${model} | ${dtype} | numpy float32, ${Object.values(override)[0].split('/').pop()} | ${bad[0].group} | mismatch (${bad[0].diagnosis.mistake}: ${bad[0].diagnosis.detail}) |`);
    return bad[0];
  };
  await one('llama31', 'float32', { default: 'llama31/float32/wrong-factor' }, 'wrong-factor');
  await one('qwen25', 'float16', { default: 'qwen25/float16/default-rope-type' }, 'default-rope-type');
  const local = await one('gemma3', 'float32', { local: 'gemma3/float32/local-with-global-factor' }, 'other-layer-type');
  assert.match(local.diagnosis.detail, /local \(sliding_attention\) cache was built with its own base 10000 but the full_attention layers' scaling \('linear', base 10000, factor 8\)/);
  const base = await one('gemma3', 'float16', { local: 'gemma3/float16/local-with-global-base' }, 'other-layer-type');
  assert.match(base.diagnosis.detail, /base 1000000/);
});

test('npx sinpe inspect on a numpy-baked float32 Llama: exit 0, float32 recipe', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-baked-'));
  try {
    const { model: bytes } = modelOf('llama', 'float32', (group) => baked.get(`llama/float32/${group}`));
    writeFileSync(join(dir, 'model.onnx'), bytes);
    writeFileSync(join(dir, 'config.json'), JSON.stringify(MODELS.llama.config));
    const res = spawnSync(process.execPath, [join('node_modules', '.bin', 'sinpe'), 'inspect', join(dir, 'model.onnx'), '--config', join(dir, 'config.json')], { encoding: 'utf8', timeout: 120000 });
    assert.equal(res.status, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /cos_cache: float32 recipe \(inv_freq in float32 arithmetic: \d+ of 32 frequencies/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('extend keeps a numpy-baked cache byte for byte and continues its recipe without a seam', async () => {
  for (const dtype of ['float32', 'float16']) {
    const { model: bytes } = modelOf('llama', dtype, (group) => baked.get(`llama/${dtype}/${group}`));
    const { bytes: out, replaced } = await extendModel(bytes, { config: MODELS.llama.config, rows: 2 * ROWS, encoder: pe });
    assert.equal(replaced[0].kept, ROWS);
    assert.equal(replaced[0].recipe, 'float32');
    const m = await readModel(out);
    const init = (name) => m.proto.graph.initializer.find((t) => t.name === name);
    const bitsOf = async (name) => {
      const b = await m.tensorBytes(init(name));
      return dtype === 'float32' ? new Uint32Array(new Uint8Array(b).buffer) : new Uint16Array(new Uint8Array(b).buffer);
    };
    const cos = await bitsOf('cos_cache');
    const sin = await bitsOf('sin_cache');
    const old = baked.get(`llama/${dtype}/default`);
    assert.equal(cos.length, 2 * ROWS * 32);
    assert.ok(sameBits(cos.subarray(0, ROWS * 32), old.cos) && sameBits(sin.subarray(0, ROWS * 32), old.sin), `${dtype}: the old rows are byte-identical`);
    // The seam: numpy's own pipeline baked to 2·ROWS rows must be what the extended cache holds
    // past the old rows, within its cos/sin family (the extended model inspects as the same recipe).
    const report = await inspectModel(out, { config: { ...MODELS.llama.config, max_position_embeddings: 2 * ROWS }, encoder: pe });
    assert.equal(report.sites[0].verdict, 'float32', report.sites[0].message);
    const longer = bakeAll([{ name: 'long', ...MODELS.llama.groups.default.bake, dim: R, rows: 2 * ROWS, dtype }]).get('long');
    let far = 0;
    const f = dtype === 'float32' ? (b) => new Float32Array(Uint32Array.of(b).buffer)[0] : null;
    for (let i = ROWS * 32; i < 2 * ROWS * 32; i++) {
      if (cos[i] === longer.cos[i]) continue;
      // float32: 2 ulp of numpy's cos; float16: one rounding apart at most
      const d = dtype === 'float32' ? Math.abs(f(cos[i]) - f(longer.cos[i])) / 2 ** -23 : Math.abs(cos[i] - longer.cos[i]);
      if (d > 2) far++;
    }
    assert.equal(far, 0, `${dtype}: the new rows continue numpy's float32 pipeline (first new row ${ROWS})`);

    // onnxruntime-node runs the extended model past the old length; the rotation there against one
    // computed here in float64 from numpy's own longer cache (rotate_half, pairs j and j + 32).
    const session = await ort.InferenceSession.create(out);
    const positions = [ROWS, ROWS + 1, ROWS + 777, 2 * ROWS - 1];
    const hidden = 2 * R; // two heads
    const x = Float64Array.from({ length: positions.length * hidden }, (_, i) => Math.fround(Math.sin(0.37 * i + 0.1)));
    const fed = dtype === 'float32' ? new ort.Tensor('float32', Float32Array.from(x), [1, positions.length, hidden]) : new ort.Tensor('float16', round(x, 'float16'), [1, positions.length, hidden]);
    const xs = dtype === 'float32' ? x : Float64Array.from(round(x, 'float16'), halfValue);
    const res = await session.run({ input: fed, position_ids: new ort.Tensor('int64', BigInt64Array.from(positions, BigInt), [1, positions.length]) });
    const got = dtype === 'float32' ? res.rotated.data : Float64Array.from(res.rotated.data, halfValue);
    const value = dtype === 'float32' ? (b) => new Float32Array(Uint32Array.of(b).buffer)[0] : halfValue;
    let worst = 0;
    positions.forEach((p, t) => {
      for (let h = 0; h < 2; h++)
        for (let j = 0; j < 32; j++) {
          const c = value(longer.cos[p * 32 + j]);
          const sn = value(longer.sin[p * 32 + j]);
          const a = t * hidden + h * R + j;
          const b = a + 32;
          const scale = Math.abs(xs[a]) + Math.abs(xs[b]);
          worst = Math.max(worst, Math.abs(got[a] - (xs[a] * c - xs[b] * sn)) / scale, Math.abs(got[b] - (xs[b] * c + xs[a] * sn)) / scale);
        }
    });
    // float32: the cache 2 ulp of numpy's plus float32 arithmetic; float16: the cache's and the output's rounding.
    assert.ok(worst <= (dtype === 'float32' ? 2e-6 : 2 ** -9), `${dtype}: onnxruntime-node past the old length within the bound, worst ${worst}·(|x_a|+|x_b|)`);
  }
});


test('without a config: the guess names the rope type and the config keys that reproduce each numpy-baked cache', async () => {
  // What each model's caches were baked with (the bake cases above), in config.json terms.
  const want = {
    llama: { default: { type: 'default', theta: 10000 } },
    llama31: { default: { type: 'llama3', theta: 500000, scaling: { factor: 8, original_max_position_embeddings: 512 } } },
    linear: { default: { type: 'linear', theta: 10000, scaling: { factor: 4 } } },
    dynamic: { default: { type: 'default', theta: 10000 } }, // at max_position_embeddings dynamic NTK leaves the base as it is
    qwen25: { default: { type: 'yarn', theta: 1000000, scaling: { factor: 4, original_max_position_embeddings: 512 } } },
    gemma3: { global: { type: 'linear', theta: 1000000, scaling: { factor: 8 } }, local: { type: 'default', theta: 10000 } },
    partial: { default: { type: 'default', theta: 10000, r: 32 } },
    phi3: { small: { type: 'longrope', theta: 10000, longrope: true }, large: { type: 'longrope', theta: 10000, longrope: true } },
  };
  for (const model of Object.keys(MODELS))
    for (const dtype of ['float32', 'float16']) {
      const { model: bytes } = modelOf(model, dtype, (group) => baked.get(`${model}/${dtype}/${group}`));
      const report = await inspectModel(bytes, { encoder: pe });
      assert.equal(report.status, 'unchecked');
      for (const site of report.sites) {
        const w = want[model][site.group];
        const g = site.guess;
        assert.ok(g, `${model} ${dtype} ${site.group}: a guess (${site.message})`);
        table.push(`| ${model} | ${dtype} | numpy float32, no config | ${site.group} | ${g.recipe ?? 'approximately'}: ${JSON.stringify(g.config)} |`);
        assert.equal(g.ropeType, w.type, site.message);
        assert.equal(g.config.rope_theta, w.theta, site.message);
        assert.equal(g.rotaryDim, w.r ?? R, site.message);
        for (const [k, v] of Object.entries(w.scaling ?? {})) assert.equal(g.config.rope_scaling[k], v, `${k}: ${site.message}`);
        if (w.longrope) {
          // LongRoPE's factors, read off the cache, within 1e-3 of the baked ones
          const f = g.config.rope_scaling[site.group === 'small' ? 'short_factor' : 'long_factor'];
          const baked = site.group === 'small' ? SHORT : LONG;
          assert.ok(f.every((x, j) => Math.abs(x - baked[j]) <= 1e-3 * baked[j]), `${site.group} factors ${f}`);
          // read to 6 digits: the recipe reproduces them (then they are the baked ones) or comes close
          assert.ok(g.recipe === null || f.every((x, j) => Math.abs(x - baked[j]) <= 1e-5 * baked[j]), site.message);
        } else assert.ok(g.recipe === 'exact' || g.recipe === 'float32', site.message);
      }
    }
});

test('the table of what was baked and what the inspector said', () => {
  assert.ok(table.length >= 48, `${table.length} rows`);
  if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `numpy-baked models: ${table.length} verdicts checked\n`);
  console.log(['| model | dtype | baked | group | verdict |', '|---|---|---|---|---|', ...table].join('\n'));
});
