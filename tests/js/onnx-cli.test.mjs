// The `sinpe` command (package.json "bin") from the packed tarball installed
// in an empty project, run as users run it: npx sinpe inspect / extend.
// Exit codes: 0 everything matches, 1 a mismatch, 2 bad input (the message
// names the file or argument; nothing written).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel, round } from './fixtures/make-genai-model.mjs';
import ort from 'onnxruntime-node';
import { readModel } from 'sinpe.wasm/onnx';
import { ropeRotate, pairMagnitudes } from './rope-reference.mjs';
import { halfValue } from './mrope-reference.mjs';

const r = ROTARY_DIM;
const dir = mkdtempSync(join(tmpdir(), 'sinpe-cli-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// node_modules/.bin/sinpe: the link npm made from package.json "bin" (what
// npx runs; npx itself is used once, for --help, as npm's start-up costs
// ~20 s on a loaded machine).
function sinpeCli(...args) {
  const res = spawnSync(process.execPath, [join('node_modules', '.bin', 'sinpe'), ...args], { encoding: 'utf8', timeout: 120000 });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

const o = OPTIONS.llama31.default;
writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIGS.llama31));
const exact = makeGenaiModel({ caches: { default: { ...bake('exact', 256, r, o, 'float16'), rows: 256 } }, dtype: 'float16', external: true });
mkdirSync(join(dir, 'exact'));
writeFileSync(join(dir, 'exact', 'model.onnx'), exact.model);
writeFileSync(join(dir, 'exact', exact.location), exact.data);
const wrong = makeGenaiModel({ caches: { default: { ...bake('default-rope-type', 256, r, o, 'float32'), rows: 256 } }, dtype: 'float32' });
writeFileSync(join(dir, 'wrong.onnx'), wrong.model);

test('npx sinpe --help: usage on stdout, exit 0', () => {
  const res = spawnSync('npx', ['--no-install', 'sinpe', '--help'], { encoding: 'utf8', timeout: 120000 });
  const { status: code, stdout: out } = res;
  assert.equal(code, 0);
  assert.match(out, /sinpe inspect MODEL\.onnx/);
  assert.match(out, /sinpe extend MODEL\.onnx/);
});

test('inspect: exit 0 for a matching model (external data found next to it), 1 for a mismatch; --json is the report', () => {
  const ok = sinpeCli('inspect', join(dir, 'exact', 'model.onnx'), '--config', join(dir, 'config.json'));
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /EXACT/);
  assert.match(ok.out, /external model\.onnx\.data @\d+\+4096/);
  assert.match(ok.out, /256 rows, 1024 expected/);
  const bad = sinpeCli('inspect', join(dir, 'wrong.onnx'), '--config', join(dir, 'config.json'), '--json');
  assert.equal(bad.code, 1, bad.err);
  const report = JSON.parse(bad.out);
  assert.equal(report.status, 'mismatch');
  assert.equal(report.sites[0].diagnosis.mistake, 'default-rope-type');
  assert.equal(report.sites[0].cos.name, 'cos_cache');
  const unchecked = sinpeCli('inspect', join(dir, 'wrong.onnx'));
  assert.equal(unchecked.code, 0);
  assert.match(unchecked.out, /not checked/);
});

test('extend: writes the model with 2048-row caches next to a copy of its data file; the result inspects as exact', () => {
  mkdirSync(join(dir, 'out'));
  const out = join(dir, 'out', 'extended.onnx');
  const res = sinpeCli('extend', join(dir, 'exact', 'model.onnx'), '--config', join(dir, 'config.json'), '--rows', '2048', '-o', out);
  assert.equal(res.code, 0, res.err);
  assert.match(res.out, /cos_cache \/ sin_cache: 256 → 2048 rows \(float16, exact\)/);
  assert.deepEqual(readFileSync(join(dir, 'out', exact.location)), Buffer.from(exact.data));
  assert.deepEqual(readFileSync(join(dir, 'exact', 'model.onnx')), Buffer.from(exact.model), 'the input is untouched');
  const check = sinpeCli('inspect', out, '--config', join(dir, 'config.json'), '--json');
  assert.equal(check.code, 0, check.err);
  const site = JSON.parse(check.out).sites[0];
  assert.equal(site.rows, 2048);
  assert.equal(site.verdict, 'exact');
  assert.equal(site.cos.storage.kind, 'raw_data');
});

test('bad input: exit 2, the message names the file or argument, nothing written', () => {
  const out = join(dir, 'never.onnx');
  const cases = [
    [['inspect', join(dir, 'missing.onnx')], /missing\.onnx/],
    [['inspect', join(dir, 'config.json')], /config\.json: not a valid ONNX model/],
    [['extend', join(dir, 'wrong.onnx'), '--config', join(dir, 'config.json'), '--rows', '-3', '-o', out], /--rows/],
    [['extend', join(dir, 'wrong.onnx'), '-o', out], /--config/],
    [['frobnicate', join(dir, 'wrong.onnx')], /unknown command/],
    [['inspect', join(dir, 'wrong.onnx'), '--bogus'], /--bogus/],
  ];
  for (const [args, message] of cases) {
    const res = sinpeCli(...args);
    assert.equal(res.code, 2, `${args.join(' ')}: exit ${res.code} (${res.err})`);
    assert.match(res.err, message, args.join(' '));
    assert.equal(existsSync(out), false, `${args.join(' ')} wrote nothing`);
  }
  // A model whose data file is missing: names the file and the tensor.
  mkdirSync(join(dir, 'orphan'));
  writeFileSync(join(dir, 'orphan', 'model.onnx'), exact.model);
  const res = sinpeCli('inspect', join(dir, 'orphan', 'model.onnx'), '--config', join(dir, 'config.json'));
  assert.equal(res.code, 2);
  assert.match(res.err, /model\.onnx\.data/);
  assert.match(res.err, /tensor '(scale|cos_cache|sin_cache)'/);
});

// onnxruntime-genai's model folder: genai_config.json beside model.onnx, as the
// builder writes it (src/python/py/models/builders/base.py, make_genai_config:
// model.context_length and search.max_length both the context length, every
// other key its own; json.dump indent 4). extend writes one next to the output
// with both set to the new row count and every other key as it was.
test('extend: a genai_config.json beside the model is written next to the output with model.context_length and search.max_length = the new rows, every other key kept; the extended folder runs in onnxruntime-node past the old length, its old rows byte-identical', async () => {
  const genai = {
    model: {
      bos_token_id: 128000,
      context_length: 256,
      decoder: {
        session_options: { log_id: 'onnxruntime-genai', provider_options: [] },
        filename: 'model.onnx',
        head_size: 16,
        hidden_size: 64,
        inputs: { input_ids: 'input_ids', attention_mask: 'attention_mask', position_ids: 'position_ids', past_key_names: 'past_key_values.%d.key', past_value_names: 'past_key_values.%d.value' },
        outputs: { logits: 'logits', present_key_names: 'present.%d.key', present_value_names: 'present.%d.value' },
        num_attention_heads: 4,
        num_hidden_layers: 1,
        num_key_value_heads: 4,
      },
      eos_token_id: [128001, 128008, 128009],
      pad_token_id: 128001,
      type: 'llama',
      vocab_size: 128256,
    },
    search: {
      diversity_penalty: 0.0,
      do_sample: true,
      early_stopping: true,
      length_penalty: 1.0,
      max_length: 256,
      min_length: 0,
      no_repeat_ngram_size: 0,
      num_beams: 1,
      num_return_sequences: 1,
      past_present_share_buffer: true,
      repetition_penalty: 1.0,
      temperature: 0.6,
      top_k: 50,
      top_p: 0.9,
    },
  };
  const folder = join(dir, 'genai');
  mkdirSync(folder);
  writeFileSync(join(folder, 'model.onnx'), exact.model);
  writeFileSync(join(folder, exact.location), exact.data);
  const original = JSON.stringify(genai, null, 4);
  writeFileSync(join(folder, 'genai_config.json'), original);
  const out = join(dir, 'genai-out', 'model.onnx');
  const res = sinpeCli('extend', join(folder, 'model.onnx'), '--config', join(dir, 'config.json'), '--rows', '4096', '-o', out);
  assert.equal(res.code, 0, res.err);
  const written = JSON.parse(readFileSync(join(dir, 'genai-out', 'genai_config.json'), 'utf8'));
  const expected = structuredClone(genai);
  expected.model.context_length = 4096;
  expected.search.max_length = 4096;
  assert.deepEqual(written, expected);
  assert.deepEqual(Object.keys(written.model), Object.keys(genai.model), 'the keys keep their order');
  assert.match(res.out, /genai-out[/\\]genai_config\.json \(model\.context_length and search\.max_length 4096\)/);
  assert.equal(readFileSync(join(folder, 'genai_config.json'), 'utf8'), original, "the model's own is untouched");
  // The extended folder as onnxruntime-genai would load it: its old 256 rows are the original's bytes,
  // and onnxruntime-node runs it at positions past them (the original refuses those).
  const extended = await readModel(out);
  const baked = bake('exact', 256, r, o, 'float16');
  for (const which of ['cos', 'sin']) {
    const t = extended.proto.graph.initializer.find((x) => x.name === `${which}_cache`);
    const bits = new Uint16Array(new Uint8Array(await extended.tensorBytes(t)).buffer);
    assert.equal(bits.length, 4096 * (r / 2));
    assert.ok(baked[which].every((b, i) => bits[i] === b), `${which}_cache: the first 256 rows byte-identical`);
  }
  const positions = [256, 1000, 4095];
  const x = Float64Array.from({ length: positions.length * 64 }, (_, i) => Math.fround(Math.cos(0.3 * i)));
  const x16 = round(x, 'float16');
  const xs = Float64Array.from(x16, halfValue);
  const session = await ort.InferenceSession.create(out);
  const run = await session.run({ input: new ort.Tensor('float16', x16, [1, positions.length, 64]), position_ids: new ort.Tensor('int64', BigInt64Array.from(positions, BigInt), [1, positions.length]) });
  const got = Array.from(run.rotated.data, halfValue);
  const want = ropeRotate(xs, positions, r, o);
  const mags = pairMagnitudes(xs, r, r, 'half');
  got.forEach((v, i) => assert.ok(Math.abs(v - want[i]) <= 2 ** -9 * mags[i], `value ${i} at position ${positions[Math.floor(i / 64)]}: ${v} vs ${want[i]}`));
  // Into the model's own folder: its genai_config.json stays the model's, and says so.
  const same = sinpeCli('extend', join(folder, 'model.onnx'), '--config', join(dir, 'config.json'), '--rows', '512', '-o', join(folder, 'longer.onnx'));
  assert.equal(same.code, 0, same.err);
  assert.match(same.out, /genai_config\.json beside the model not changed/);
  assert.equal(readFileSync(join(folder, 'genai_config.json'), 'utf8'), original);
  // A folder that has one already: refused, nothing written there.
  const taken = join(dir, 'genai-taken');
  mkdirSync(taken);
  writeFileSync(join(taken, 'genai_config.json'), '{}');
  const refused = sinpeCli('extend', join(folder, 'model.onnx'), '--config', join(dir, 'config.json'), '-o', join(taken, 'model.onnx'));
  assert.equal(refused.code, 2, refused.err);
  assert.match(refused.err, /^sinpe: .*genai-taken[/\\]genai_config\.json exists: not overwriting a genai_config\.json\n$/);
  assert.equal(existsSync(join(taken, 'model.onnx')), false);
  // One that is not JSON: bad input naming it, nothing written.
  const broken = join(dir, 'genai-broken');
  mkdirSync(broken);
  writeFileSync(join(broken, 'model.onnx'), exact.model);
  writeFileSync(join(broken, exact.location), exact.data);
  writeFileSync(join(broken, 'genai_config.json'), '{ "model": ');
  const bad = sinpeCli('extend', join(broken, 'model.onnx'), '--config', join(dir, 'config.json'), '-o', join(dir, 'genai-never', 'model.onnx'));
  assert.equal(bad.code, 2, bad.err);
  assert.match(bad.err, /^sinpe: .*genai-broken[/\\]genai_config\.json: not JSON \(/);
  assert.equal(existsSync(join(dir, 'genai-never')), false);
});
