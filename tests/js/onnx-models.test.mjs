// sinpe.wasm/onnx against models built by tests/js/fixtures/make-genai-model.mjs
// in onnxruntime-genai's layouts (Llama 3.1 llama3, Qwen2.5 yarn, Phi-3
// LongRoPE If branches, Gemma 3 global/local), their caches baked by the
// test's own references (float64 rope-reference.mjs; torch's float32 steps
// with Math.fround) exactly, by the float32 recipe and with each plausible
// mistake. The inspector must name every one (onnx-extend.test.mjs covers the
// rest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import sinpe from 'sinpe.wasm';
import { inspectModel } from 'sinpe.wasm/onnx';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from './fixtures/make-genai-model.mjs';

const pe = await sinpe();
const r = ROTARY_DIM;

// Rows each model's caches get: max_position_embeddings, L for Phi-3's small cache.
const ROWS = { llama31: 1024, qwen25: 1024, phi3: { small: 64, large: 512 }, gemma3: 1024 };
const rowsOf = (model, group) => (typeof ROWS[model] === 'number' ? ROWS[model] : ROWS[model][group]);
const GROUPS = { llama31: ['default'], qwen25: ['default'], phi3: ['small', 'large'], gemma3: ['global', 'local'] };

// The mistakes each model can show (a mistake that leaves a rope type's values unchanged is not one for it).
const MISTAKES = {
  llama31: ['default-rope-type', 'wrong-base', 'wrong-factor', 'layout-half-vs-interleaved', 'cos-sin-swapped', 'rounded-twice', 'short'],
  qwen25: ['default-rope-type', 'wrong-base', 'wrong-factor', 'wrong-attention-factor', 'layout-half-vs-interleaved', 'cos-sin-swapped', 'rounded-twice', 'short'],
  phi3: ['default-rope-type', 'wrong-base', 'wrong-attention-factor', 'layout-half-vs-interleaved', 'cos-sin-swapped', 'rounded-twice', 'short-long-exchanged'],
  gemma3: ['default-rope-type', 'wrong-base', 'wrong-factor', 'layout-half-vs-interleaved', 'cos-sin-swapped', 'rounded-twice', 'short'],
};

// Bakes every group of a model as `how` (the first group only for a mistake, the others exact).
function build(model, how, dtype, extra = {}) {
  const caches = {};
  GROUPS[model].forEach((g, i) => {
    const o = OPTIONS[model][g];
    const peer = g === 'small' ? OPTIONS[model].large : OPTIONS[model].small;
    const h = i === 0 || how === 'float32' ? how : 'exact';
    const rows = h === 'short' ? rowsOf(model, g) / 4 : rowsOf(model, g);
    caches[g] = { ...bake(h, rows, r, o, dtype, peer), rows };
  });
  return makeGenaiModel({ caches, dtype, ...extra });
}

// Whether the first group's twice-rounded cache has the same bits as its exact one.
function sameAsExact(model, dtype) {
  const g = GROUPS[model][0];
  const a = bake('rounded-twice', rowsOf(model, g), r, OPTIONS[model][g], dtype);
  const b = bake('exact', rowsOf(model, g), r, OPTIONS[model][g], dtype);
  return a.cos.every((v, i) => v === b.cos[i]) && a.sin.every((v, i) => v === b.sin[i]);
}
let roundedTwiceSeen = 0;

const table = [];
function row(model, dtype, baked, site, report) {
  table.push(`| ${model} | ${dtype} | ${baked} | ${site.cos?.name ?? site.invFreq?.name} | ${site.verdict}${site.diagnosis ? ` (${site.diagnosis.mistake})` : ''}${site.short ? ', short' : ''} |`);
  void report;
}

for (const model of Object.keys(GROUPS)) {
  for (const dtype of ['float32', 'float16']) {
    test(`${model} ${dtype}: exact, float32 recipe and each mistake are named`, async () => {
      // Half-precision caches of ≤ 1024 rows cannot tell the two recipes apart (the float32 angle error stays below half an ulp of float16 for most values): there, 'float32' is expected as exact or float32.
      for (const how of ['exact', 'float32', ...MISTAKES[model].filter((m) => dtype === 'float16' || m !== 'rounded-twice')]) {
        const { model: bytes } = build(model, how, dtype);
        const report = await inspectModel(bytes, { config: CONFIGS[model], encoder: pe, name: `${model}-${dtype}-${how}.onnx` });
        assert.equal(report.sites.length, GROUPS[model].length, `${model} ${how}: one site per cache group`);
        const first = report.sites.find((s) => s.group === GROUPS[model][0]);
        assert.ok(first, `${model} ${how}: the ${GROUPS[model][0]} group is found (groups ${report.sites.map((s) => s.group)})`);
        row(model, dtype, how, first, report);
        if (how === 'exact' || how === 'short') {
          assert.equal(first.verdict, 'exact', `${model} ${dtype} ${how}: ${first.message}`);
          assert.equal(first.short, how === 'short', `${model} ${how}: short flag (${first.message})`);
          assert.equal(report.status, 'match');
        } else if (how === 'float32') {
          for (const s of report.sites) {
            if (dtype === 'float32') assert.equal(s.verdict, 'float32', `${model} ${dtype} ${s.group}: ${s.message}`);
            else assert.ok(s.verdict === 'float32' || (s.verdict === 'exact' && s.matchesBoth), `${model} ${dtype} ${s.group}: ${s.message}`);
          }
        } else if (how === 'rounded-twice' && sameAsExact(model, dtype)) {
          // No value of this cache sits where double rounding moves it: the bits are the exact ones.
          assert.equal(first.verdict, 'exact', `${model} ${dtype} ${how} (bit-identical to exact): ${first.message}`);
        } else {
          if (how === 'rounded-twice') roundedTwiceSeen++;
          assert.equal(first.verdict, 'mismatch', `${model} ${dtype} ${how}: ${first.message}`);
          // Gemma 3's global cache with base 10000 holds the local layers' base: named as that (other-layer-type).
          const named = model === 'gemma3' && how === 'wrong-base' ? 'other-layer-type' : how;
          assert.equal(first.diagnosis?.mistake, named, `${model} ${dtype} ${how}: diagnosed as ${first.diagnosis?.mistake}: ${first.message}`);
          assert.equal(report.status, 'mismatch');
          for (const s of report.sites.filter((x) => x !== first)) assert.equal(s.verdict, 'exact', `${model} ${how}: the other group ${s.group} stays exact: ${s.message}`);
        }
      }
    });
  }
}

test('the table of what was baked and what the inspector said', () => {
  assert.ok(table.length >= 60, `every case reported (${table.length})`);
  assert.ok(roundedTwiceSeen >= 2, `twice-rounded caches that differ from exact were diagnosed (${roundedTwiceSeen})`);
  const text = ['| model | dtype | baked | cache | verdict |', '|---|---|---|---|---|', ...table].join('\n');
  console.log(text);
  if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `\n### ONNX RoPE caches: what was baked, what sinpe inspect said\n\n${text}\n`);
});
