// The "Check a model" page's pure parts (web/src/model/check-model.js): every
// code the package's ONNX inspector can report has a string in both languages
// (read from js/onnx's sources, so a new code there fails here before it could
// be shown raw), float16 / bfloat16 decoding against the tests' own
// half-precision reference, and the per-row deviation and chart points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { VERDICTS, MISTAKES, GROUPS, ERRORS, verdictKey, mistakeKey, groupKey, errorKey, rowDeviation, chartPoints, decodeCache, looksLikeModel, externalPlan, extendProposal, teachingSection } from '../../web/src/model/check-model.js';
import { sectionIds, sectionHash } from '../../web/src/state.js';
import { lessonById } from '../../web/src/lessons/index.js';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from '../js/fixtures/make-genai-model.mjs';
import { halfBits } from '../js/mrope-reference.mjs';

const source = (f) => readFileSync(new URL(`../../js/onnx/${f}`, import.meta.url), 'utf8');
const lookup = (table, key) => key.split('.').reduce((o, k) => o?.[k], table);

test('every mistake and error code js/onnx can report has its own string in en and zh', () => {
  const mistakes = [...new Set([...source('verify.js').matchAll(/mistake: '([a-z0-9-]+)'/g)].map((m) => m[1]))];
  const errors = [...new Set(['read.js', 'index.js', 'verify.js'].flatMap((f) => [...source(f).matchAll(/OnnxError\('([a-z_]+)'/g)].map((m) => m[1])))];
  assert.ok(mistakes.length >= 9 && errors.length >= 4, `codes found in the sources: ${mistakes} / ${errors}`);
  for (const m of mistakes) assert.ok(MISTAKES.includes(m), `mistake '${m}' has no string of its own`);
  for (const e of errors) assert.ok(ERRORS.includes(e), `error '${e}' has no string of its own`);
  const keys = [...VERDICTS.map(verdictKey), ...MISTAKES.map(mistakeKey), ...GROUPS.map(groupKey), ...ERRORS.map(errorKey), verdictKey('x'), mistakeKey('x'), groupKey('x'), errorKey('x')];
  for (const key of keys) {
    assert.equal(typeof lookup(en, key), 'string', `en ${key}`);
    assert.match(lookup(zh, key), /[\u4e00-\u9fff]/, `zh ${key}`);
  }
  assert.equal(new Set(VERDICTS.map((v) => lookup(en, verdictKey(v)))).size, VERDICTS.length, 'each verdict has its own words');
});

// Every verdict and diagnosis js/onnx can give, read from its sources (not from the page's lists).
const onnxSources = ['verify.js', 'family.js', 'find.js', 'index.js', 'fit.js', 'guess.js', 'mrope.js'].map(source).join('\n');
const givenVerdicts = () => [...new Set([...onnxSources.matchAll(/verdict(?: =|:) ([^;,}]+)/g)].flatMap((m) => [...m[1].matchAll(/'([a-z0-9-]+)'/g)].map((q) => q[1])))];
const givenMistakes = () => [...new Set([...onnxSources.matchAll(/mistake: '([a-z0-9-]+)'/g)].map((m) => m[1]))];

test('every verdict and diagnosis js/onnx can give has a sentence and a lesson section (or none, said so) in en and zh', () => {
  const verdicts = givenVerdicts();
  const mistakes = givenMistakes();
  assert.deepEqual([...verdicts].sort(), ['exact', 'float32', 'mismatch', 'unchecked'], `verdicts found in the sources: ${verdicts}`);
  assert.ok(mistakes.length >= 14 && mistakes.includes('no-rope-found') && mistakes.includes('layout-attribute'), `mistakes found in the sources: ${mistakes}`);
  const linked = [];
  for (const [kind, codes, keyOf] of [['verdict', verdicts, verdictKey], ['mistake', mistakes, mistakeKey]]) {
    for (const code of codes) {
      const key = keyOf(code);
      assert.ok(!key.endsWith('.other'), `${kind} '${code}': a sentence of its own`);
      assert.match(lookup(en, key), /^[A-Z][^]*\.$/, `${kind} '${code}': an English sentence`);
      assert.match(lookup(zh, key), /[\u4e00-\u9fff][^]*。$/, `${kind} '${code}': a Chinese sentence`);
      // the link: a decision for each code (a section, or null said in TEACHES)
      const at = teachingSection(kind, code);
      if (at === null) {
        assert.ok(['mismatch', 'no-rope-found', 'unknown'].includes(code), `${kind} '${code}' links to no lesson section`);
        continue;
      }
      linked.push(code);
      assert.ok(sectionIds(at.lesson).includes(at.section), `${kind} '${code}': ${at.lesson}/${at.section} is a section of the lesson`);
      const hash = sectionHash(at.lesson, at.section, 'zh');
      assert.match(hash, new RegExp(`section=${at.section}&lang=zh$`));
      const title = lessonById(at.lesson).sections.find((s) => s.id === at.section).title;
      assert.equal(typeof lookup(en, title), 'string', `${kind} '${code}': the section's English heading`);
      assert.match(lookup(zh, title), /[\u4e00-\u9fff]/, `${kind} '${code}': the section's Chinese heading`);
    }
  }
  assert.equal(linked.length, verdicts.length + mistakes.length - 3, 'every code but mismatch, no-rope-found and unknown links to a section');
  // the pairs the lesson is known to teach (issue 37): float32 → precision, scaling → scaling, layouts → layouts, M-RoPE → multi-axis
  const expect = { float32: 'precision', exact: 'half', 'default-rope-type': 'scaling', 'wrong-factor': 'scaling', 'layout-half-vs-interleaved': 'layouts', 'layout-attribute': 'layouts', 'mrope-section': 'multimodal', 'rounded-twice': 'half' };
  for (const [code, section] of Object.entries(expect)) assert.equal(teachingSection(verdicts.includes(code) ? 'verdict' : 'mistake', code)?.section, section, code);
  for (const key of ['checkModel.learn', 'checkModel.learnWhere']) {
    assert.equal(typeof lookup(en, key), 'string', key);
    assert.match(lookup(zh, key), /[\u4e00-\u9fff]/, key);
  }
  assert.throws(() => teachingSection('verdicts', 'exact'), (e) => e instanceof RangeError && /kind/.test(e.message));
  assert.equal(teachingSection('mistake', 'toString'), null, 'a code it does not know: no link');
});

test('float16 and bfloat16 bytes decode to the values the half reference rounds to', () => {
  const values = [0, 1, -1, 0.5, 1 / 3, 65504, 6.1e-5, 3e-8, -2.75, 0.999];
  const bits = Uint16Array.from(values, (v) => halfBits(v, 'float16', 0).bits);
  const decoded = decodeCache(new Uint8Array(bits.buffer), 'float16');
  values.forEach((v, i) => assert.ok(Math.abs(decoded[i] - v) <= Math.abs(v) * 2 ** -11 + 2 ** -25, `float16 ${v} → ${decoded[i]}`));
  const bf = Uint16Array.from(values, (v) => halfBits(v, 'bfloat16', 0).bits);
  const decodedBf = decodeCache(new Uint8Array(bf.buffer), 'bfloat16');
  values.forEach((v, i) => assert.ok(Math.abs(decodedBf[i] - v) <= Math.abs(v) * 2 ** -8, `bfloat16 ${v} → ${decodedBf[i]}`));
  const f32 = Float32Array.of(0.1, -2.5);
  assert.deepEqual([...decodeCache(new Uint8Array(f32.buffer), 'float32')], [...f32]);
});

test('per-row deviation: the largest |Δ| of each row of cos and sin, and where; chart points keep each bucket’s largest', () => {
  const a = { cos: Float64Array.of(1, 1, 1, 1, 1, 1), sin: Float64Array.of(0, 0, 0, 0.5, 0, 0) };
  const ref = { cos: Float64Array.of(1, 0.75, 1, 1, 1, 1), sin: Float64Array.of(0, 0, 0, 0, 0, 0) };
  const { perRow, max } = rowDeviation(a, ref, 3, 2);
  assert.deepEqual([...perRow], [0.25, 0.5, 0]);
  assert.deepEqual(max, { value: 0.5, row: 1, col: 1, which: 'sin' });
  assert.deepEqual(chartPoints(Float64Array.of(0, 2, 1, 0, 3), 3, 1e-10), [[0, 2], [2, 1], [4, 3]]);
  assert.deepEqual(chartPoints(Float64Array.of(0, 0), 10, 1e-10), [[0, 1e-10], [1, 1e-10]]);
});

test('a model is told by its first bytes (an ONNX ModelProto), not by its name: text, JSON, raw tensor bytes and noise are not', () => {
  const B = makeGenaiModel({ caches: { default: { ...bake('exact', 256, ROTARY_DIM, OPTIONS.llama31.default, 'float16'), rows: 256 } }, dtype: 'float16', external: true });
  const head = (bytes) => [bytes.subarray(0, 4096), bytes.length];
  assert.equal(looksLikeModel(...head(B.model)), true, 'a model (ir_version first)');
  assert.equal(looksLikeModel(...head(B.data)), false, 'its external data (float16 values)');
  const text = (s) => new TextEncoder().encode(s);
  assert.equal(looksLikeModel(text('notes: exported with torch 2.5, opset 17\n')), false, 'a .txt');
  assert.equal(looksLikeModel(text(JSON.stringify(CONFIGS.llama31))), false, 'a config');
  assert.equal(looksLikeModel(Uint8Array.from({ length: 300 }, (_, i) => (i * 97 + 13) & 0xff)), false, 'noise');
  assert.equal(looksLikeModel(new Uint8Array(0)), false, 'an empty file');
  // a model's head cut at any byte (the page reads 4 KiB of it) is still a model's head
  for (const n of [2, 3, 10, 40]) assert.equal(looksLikeModel(B.model.subarray(0, n), B.model.length), true, `the first ${n} bytes`);
  // a length past the file's end is not a model
  assert.equal(looksLikeModel(Uint8Array.of(0x08, 0x08, 0x3a, 0xff, 0x7f), 10), false);
});

test('external data: used only when the model names it; named and not given is missing', () => {
  const given = new Map([['model.onnx.data', {}], ['notes.txt', {}]]);
  assert.deepEqual(externalPlan(new Set(['model.onnx.data']), given), { used: ['model.onnx.data'], missing: [], unused: ['notes.txt'] });
  assert.deepEqual(externalPlan(new Set(['weights.bin', 'model.onnx.data']), new Map([['notes.txt', {}]])), { used: [], missing: ['weights.bin', 'model.onnx.data'], unused: ['notes.txt'] });
  assert.deepEqual(externalPlan(new Set(), new Map()), { used: [], missing: [], unused: [] });
});

test('the extend form proposes the config\'s length only when it is more than the caches hold', () => {
  assert.deepEqual(extendProposal([4096], 8192), { now: [4096], proposal: 8192 });
  assert.deepEqual(extendProposal([4096, 4096], 4096), { now: [4096], proposal: null }, 'as long already: ask');
  assert.deepEqual(extendProposal([8192], 4096), { now: [8192], proposal: null }, 'longer already: ask');
  assert.deepEqual(extendProposal([512, 1024], 1024), { now: [512, 1024], proposal: null });
  assert.deepEqual(extendProposal([512], null), { now: [512], proposal: null }, 'no config length: ask');
});
