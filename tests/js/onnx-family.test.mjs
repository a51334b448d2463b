// The model family's rotary layout against the layout attribute of the ops
// that read a cache (docs/onnx.md, 'layout-attribute'): onnxruntime's
// RotaryEmbedding `interleaved` and GroupQueryAttention `rotary_interleaved`
// (0: pairs j, j + r/2; 1: pairs 2j, 2j + 1) must say what the family's own
// code does, or onnxruntime rotates the wrong pairs whatever the cache holds.
// The layouts expected here are read from the families' modeling code in
// transformers (written out below with the function), not from sinpe:
//   llama    modeling_llama.py rotate_half: halves            → interleaved 0
//   qwen2    modeling_qwen2.py rotate_half: halves            → 0
//   qwen3, mixtral, granite  their modeling files' rotate_half: halves → 0
//   glm      modeling_glm.py rotate_half on x[..., 0::2]      → 1
//   gptj     modeling_gptj.py rotate_every_two                → 1
//   deepseek_v3  rope_interleave (default true) → apply_rotary_pos_emb_interleave → 1; false → 0
// Models: tests/js/fixtures/make-genai-model.mjs (onnxruntime-genai's layout),
// caches exact by the test's float64 reference.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import sinpe from 'sinpe.wasm';
import { inspectModel } from 'sinpe.wasm/onnx';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from './fixtures/make-genai-model.mjs';

const pe = await sinpe();
const r = ROTARY_DIM;
const o = OPTIONS.llama31.default;
// One exact float32 cache of the Llama 3.1 config's rope (1024 rows, max_position_embeddings).
const cache = { default: { ...bake('exact', 1024, r, o, 'float32'), rows: 1024 } };
const model = (interleaved, attention) => makeGenaiModel({ caches: cache, dtype: 'float32', interleaved, attention }).model;
const NODE = '/model/layers.5/attn/q_rotary/RotaryEmbedding';

test('a Llama config read by a RotaryEmbedding with interleaved = 1 over an exact cache: mismatch, layout-attribute naming the op, the node and the family', async () => {
  const report = await inspectModel(model(true), { config: CONFIGS.llama31, encoder: pe });
  assert.equal(report.status, 'mismatch');
  const [site] = report.sites;
  assert.equal(site.verdict, 'mismatch');
  assert.equal(site.diagnosis.mistake, 'layout-attribute');
  assert.equal(site.diagnosis.recipe, null);
  assert.match(site.diagnosis.detail, new RegExp(`^RotaryEmbedding ${NODE.replaceAll('.', '\\.').replaceAll('/', '\\/')} has interleaved = 1 but llama rotates halves \\(rotate_half: pairs j and j \\+ r\\/2\\)`));
  assert.match(site.message, /^cos_cache: mismatch — RotaryEmbedding .* has interleaved = 1 but llama rotates halves/);
  // Its values were fine: the distance from exact is what an exact cache has.
  assert.ok(site.fromExact.maxAbs < 4e-7, `fromExact ${site.fromExact.maxAbs}`);
});

test('interleaved = 0 for Llama: the verdict is the values\' (exact), no diagnosis', async () => {
  const report = await inspectModel(model(false), { config: CONFIGS.llama31, encoder: pe });
  assert.equal(report.status, 'match');
  assert.equal(report.sites[0].verdict, 'exact');
  assert.equal(report.sites[0].diagnosis, null);
});

test('each family by its own code: model_type, else architectures; GroupQueryAttention\'s rotary_interleaved named as such; an unknown family is not checked', async () => {
  const base = { ...CONFIGS.llama31 };
  delete base.model_type;
  const cases = [
    // [config changes, interleaved attribute, layout-attribute expected, the family's words]
    [{ model_type: 'qwen2' }, true, 'qwen2 rotates halves'],
    [{ model_type: 'qwen2' }, false, null],
    [{ model_type: 'qwen3' }, true, 'qwen3 rotates halves'],
    [{ model_type: 'mixtral' }, true, 'mixtral rotates halves'],
    [{ architectures: ['GraniteForCausalLM'] }, true, 'granite rotates halves'],
    [{ model_type: 'glm', partial_rotary_factor: 1 }, false, 'glm rotates interleaved pairs \\(2j and 2j \\+ 1\\)'],
    [{ model_type: 'glm', partial_rotary_factor: 1 }, true, null],
    [{ model_type: 'gptj' }, false, 'gptj rotates interleaved pairs'],
    [{ model_type: 'deepseek_v3' }, false, 'deepseek_v3 rotates interleaved pairs'],
    [{ model_type: 'deepseek_v3', rope_interleave: false }, true, 'deepseek_v3 rotates halves'],
    [{ model_type: 'deepseek_v3', rope_interleave: false }, false, null],
    [{ architectures: ['LlamaForCausalLM'] }, true, 'llama rotates halves'],
    [{ architectures: ['GPTJForCausalLM'] }, false, 'gptj rotates interleaved pairs'],
    // not in the table: no check either way
    [{ model_type: 'frobnicate' }, true, null],
    [{ model_type: 'frobnicate' }, false, null],
    [{}, true, null],
  ];
  for (const [changes, interleaved, words] of cases) {
    const config = { ...base, ...changes };
    const what = `${JSON.stringify(changes)} interleaved ${interleaved ? 1 : 0}`;
    const report = await inspectModel(model(interleaved), { config, encoder: pe });
    const [site] = report.sites;
    if (words === null) assert.notEqual(site.diagnosis?.mistake, 'layout-attribute', `${what}: ${site.message}`);
    else {
      assert.equal(site.verdict, 'mismatch', what);
      assert.equal(site.diagnosis.mistake, 'layout-attribute', what);
      assert.match(site.diagnosis.detail, new RegExp(`has interleaved = ${interleaved ? 1 : 0} but ${words}`), what);
    }
  }
  // GroupQueryAttention (do_rotary = 1) reads rotary_interleaved.
  const gqa = await inspectModel(model(true, 'GroupQueryAttention'), { config: CONFIGS.llama31, encoder: pe });
  assert.equal(gqa.sites[0].diagnosis.mistake, 'layout-attribute');
  assert.match(gqa.sites[0].diagnosis.detail, /^GroupQueryAttention \/model\/layers\.5\/attn\/GroupQueryAttention has rotary_interleaved = 1 but llama rotates halves/);
  const gqaOk = await inspectModel(model(false, 'GroupQueryAttention'), { config: CONFIGS.llama31, encoder: pe });
  assert.equal(gqaOk.sites[0].verdict, 'exact');
});

test('CLI: inspect exits 1 and prints the layout finding', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinpe-family-'));
  try {
    writeFileSync(join(dir, 'model.onnx'), model(true));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIGS.llama31));
    const res = spawnSync(process.execPath, [join('node_modules', '.bin', 'sinpe'), 'inspect', join(dir, 'model.onnx'), '--config', join(dir, 'config.json')], { encoding: 'utf8', timeout: 120000 });
    assert.equal(res.status, 1, res.stderr);
    assert.match(res.stdout, /MISMATCH: cos_cache: mismatch — RotaryEmbedding \/model\/layers\.5\/attn\/q_rotary\/RotaryEmbedding has interleaved = 1 but llama rotates halves/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
