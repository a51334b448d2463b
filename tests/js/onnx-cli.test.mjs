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
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from './fixtures/make-genai-model.mjs';

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
