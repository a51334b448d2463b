// The `sinpe` command's arguments and output (README "npx sinpe", docs/onnx.md
// "CLI"): run as users run it, through node_modules/.bin/sinpe (the link npm
// made from package.json "bin") in the project the packed tarball is
// installed in. Bad input is exit code 2 with a message on stderr naming the
// argument or file, and nothing written; --help (or -h) is the usage on
// stdout, exit 0; no arguments at all, the usage and exit 2. inspect prints a
// table (or the report with --json); extend writes the model and copies the
// external data files next to it when it goes to another folder, refusing to
// overwrite the model or a data file. A progress bar on stderr only when
// stderr is a terminal. (onnx-cli.test.mjs: exit codes 0/1, extend and
// inspect end to end.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join, relative } from 'node:path';
import { spawnSync, execFile } from 'node:child_process';
import { ropeInvFreq } from './rope-reference.mjs';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel, makeInvFreqModel } from './fixtures/make-genai-model.mjs';

const r = ROTARY_DIM;
const dir = mkdtempSync(join(tmpdir(), 'sinpe-cli-args-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const bin = join(process.cwd(), 'node_modules', '.bin', 'sinpe');

function sinpeCli(args, { cwd } = {}) {
  const res = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120000, cwd });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

// The same, without waiting: the command run in parallel (up to 4 at a time).
function sinpeCliAsync(args) {
  return new Promise((done) => {
    execFile(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120000 }, (error, out, err) => done({ code: error ? error.code : 0, out, err }));
  });
}

// Bad input, each of `cases` ([args, message]): exit 2, one line on stderr
// starting `sinpe: ` and matching `message`, nothing on stdout; no file
// written in `watch` (a folder) by any.
async function refused(cases, watch = dir) {
  const before = readdirSync(watch, { recursive: true }).sort();
  const results = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const k = next++;
      results[k] = await sinpeCliAsync(cases[k][0]);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  cases.forEach(([args, message], k) => {
    const res = results[k];
    const what = args.join(' ');
    assert.equal(res.code, 2, `${what}: exit ${res.code} (${res.err})`);
    assert.match(res.err, /^sinpe: [^\n]*\n$/, `${what}: one line on stderr, no stack (${res.err})`);
    assert.match(res.err, message, what);
    assert.equal(res.out, '', `${what}: nothing on stdout`);
  });
  assert.deepEqual(readdirSync(watch, { recursive: true }).sort(), before, 'nothing written');
}

const o = OPTIONS.llama31.default;
const config = join(dir, 'config.json');
writeFileSync(config, JSON.stringify(CONFIGS.llama31));
writeFileSync(join(dir, 'broken.json'), '{ "rope_theta": ');
// An exact float16 cache of 256 rows (max_position_embeddings 1024: short), its data in model.onnx.data.
const exact = makeGenaiModel({ caches: { default: { ...bake('exact', 256, r, o, 'float16'), rows: 256 } }, dtype: 'float16', external: true });
mkdirSync(join(dir, 'm'));
const model = join(dir, 'm', 'model.onnx');
writeFileSync(model, exact.model);
writeFileSync(join(dir, 'm', exact.location), exact.data);
// Gemma 3: a global (linear ×8) and a local cache, float32, inline, read with
// interleaved = 0 (modeling_gemma3.py rotate_half rotates halves; the builder's default).
const gemma = makeGenaiModel({
  caches: {
    global: { ...bake('exact', 1024, r, OPTIONS.gemma3.global, 'float32'), rows: 1024 },
    local: { ...bake('exact', 1024, r, OPTIONS.gemma3.local, 'float32'), rows: 1024 },
  },
  dtype: 'float32',
  interleaved: false,
});
writeFileSync(join(dir, 'gemma.onnx'), gemma.model);
writeFileSync(join(dir, 'gemma.json'), JSON.stringify(CONFIGS.gemma3));

test('usage: --help and -h print it on stdout with exit 0; no arguments print it with exit 2', () => {
  for (const flag of ['--help', '-h']) {
    const res = sinpeCli([flag]);
    assert.equal(res.code, 0, flag);
    assert.equal(res.err, '');
    assert.match(res.out, /^usage:\n {2}sinpe inspect MODEL\.onnx \[--config CONFIG\.json\] \[--data FILE \.\.\.\] \[--json\]\n {2}sinpe extend MODEL\.onnx --config CONFIG\.json \[--rows N\] \[--recipe exact\|float32\] -o OUT\.onnx\n/);
    assert.match(res.out, /exit codes: 0 everything matches, 1 a mismatch was found, 2 bad input, 3 an internal error\.\n$/);
  }
  // --help wins over anything else on the line.
  assert.equal(sinpeCli(['extend', 'nothing.onnx', '--help']).code, 0);
  const none = sinpeCli([]);
  assert.equal(none.code, 2);
  assert.match(none.out, /^usage:/);
});

test('bad arguments: exit 2 naming the argument, nothing written', async () => {
  const out = join(dir, 'never.onnx');
  writeFileSync(join(dir, 'bad-theta.json'), JSON.stringify({ ...CONFIGS.llama31, rope_theta: -1 }));
  const cases = [];
  cases.push([['inspect'], /^sinpe: inspect: give the model file\n/]);
  cases.push([['extend', '--config', config], /^sinpe: extend: give the model file\n/]);
  cases.push([['inspect', model, 'extra.onnx'], /^sinpe: unexpected argument extra\.onnx\n/]);
  cases.push([['inspect', join(dir, 'm')], /^sinpe: .*[/\\]m: cannot read the model \(not a file\)\n/]);
  cases.push([['inspect', join(dir, 'nope.onnx')], /^sinpe: .*nope\.onnx: cannot read the model \(ENOENT\)\n/]);
  cases.push([['--json'], /^sinpe: give a command: inspect or extend\n/]);
  cases.push([['Inspect', model], /^sinpe: unknown command "Inspect" \(inspect or extend\)\n/]);
  cases.push([['inspect', model, '-x'], /^sinpe: unknown option -x\n/]);
  // An option's value: missing at the end, or another option in its place.
  for (const opt of ['--config', '--rows', '--recipe', '-o', '--output', '--data']) {
    cases.push([['extend', model, opt], new RegExp(`^sinpe: ${opt} needs a value\\n`)]);
  }
  cases.push([['extend', model, '--config', '--json'], /^sinpe: --config needs a value\n/]);
  // A value that starts with a single dash is a value (a file named so).
  cases.push([['inspect', model, '--config', '-config.json'], /^sinpe: --config -config\.json: cannot read it \(ENOENT\)\n/]);
  // The config: unreadable, not JSON.
  cases.push([['inspect', model, '--config', join(dir, 'none.json')], /^sinpe: --config .*none\.json: cannot read it \(ENOENT\)\n/]);
  cases.push([['inspect', model, '--config', join(dir, 'm')], /^sinpe: --config .*[/\\]m: cannot read it \(EISDIR\)\n/]);
  cases.push([['inspect', model, '--config', join(dir, 'broken.json')], /^sinpe: --config .*broken\.json: not JSON \(/]);
  // extend's own: the config and the output are required.
  cases.push([['extend', model, '-o', out], /^sinpe: extend: --config CONFIG\.json is required\n/]);
  cases.push([['extend', model, '--config', config], /^sinpe: extend: -o OUT\.onnx is required\n/]);
  // --rows: a decimal integer in [1, 2^24], written as digits only.
  // (1e3, ' 12', '12 ' are integers to Number(), not digits only.)
  for (const rows of ['0', '16777217', '1e3', ' 12', '12 '])
    cases.push([['extend', model, '--config', config, '--rows', rows, '-o', out], new RegExp(`^sinpe: --rows must be an integer in \\[1, 16777216\\], got ${rows}\\n`)]);
  // 2^24 itself is in the range: the refusal is the next check's (--recipe), not --rows'.
  cases.push([['extend', model, '--config', config, '--rows', '16777216', '--recipe', 'float16', '-o', out], /^sinpe: --recipe must be exact or float32, got float16\n/]);
  cases.push([['extend', model, '--config', config, '--recipe', 'float16', '-o', out], /^sinpe: --recipe must be exact or float32, got float16\n/]);
  // The output must not be the model, however it is written.
  cases.push([['extend', model, '--config', config, '-o', model], /^sinpe: -o .*model\.onnx: must not overwrite the model\n/]);
  cases.push([['extend', model, '--config', config, '--output', relative(process.cwd(), model)], /must not overwrite the model/]);
  // An output that cannot be written (its "folder" is a file): the system's error, after -o and the path; exit 2, not an internal error.
  cases.push([['extend', model, '--config', config, '-o', join(dir, 'broken.json', 'out.onnx')], /^sinpe: -o .*broken\.json[/\\]out\.onnx: cannot write it \((ENOTDIR|EEXIST): /]);
  // A config the package refuses (a ConfigError): exit 2 naming the key, "sinpe: " said once.
  cases.push([['extend', model, '--config', join(dir, 'bad-theta.json'), '-o', out], /^sinpe: (?!sinpe:)[^\n]*rope_theta/]);
  cases.push([['inspect', model, '--config', join(dir, 'bad-theta.json')], /^sinpe: (?!sinpe:)[^\n]*rope_theta/]);
  await refused(cases);
  assert.equal(existsSync(out), false);
});

test('extend: to another folder copies the data file, refuses to overwrite one there; in the same folder copies nothing; --rows 1 and --recipe float32', async () => {
  // Another folder holding a model.onnx.data already: refused, nothing written.
  mkdirSync(join(dir, 'taken'));
  writeFileSync(join(dir, 'taken', exact.location), 'not mine');
  const taken = join(dir, 'taken', 'out.onnx');
  await refused([[['extend', model, '--config', config, '-o', taken], /^sinpe: .*taken[/\\]model\.onnx\.data exists: not overwriting an external data file\n/]], join(dir, 'taken'));
  assert.equal(readFileSync(join(dir, 'taken', exact.location), 'utf8'), 'not mine');
  // The output named as the model's data file, in its folder or another: refused, the data file left as it is.
  mkdirSync(join(dir, 'data-out'));
  await refused(
    [
      [['extend', model, '--config', config, '-o', join(dir, 'm', exact.location)], /^sinpe: -o .*[/\\]m[/\\]model\.onnx\.data: must not overwrite the external data file model\.onnx\.data\n/],
      [['extend', model, '--config', config, '-o', join(dir, 'data-out', exact.location)], /^sinpe: -o .*[/\\]data-out[/\\]model\.onnx\.data: must not overwrite the external data file model\.onnx\.data\n/],
    ],
    join(dir, 'data-out'),
  );
  assert.deepEqual(readFileSync(join(dir, 'm', exact.location)), Buffer.from(exact.data));
  // The same folder: the output reads the model's own data file, which is left as it is.
  const before = readdirSync(join(dir, 'm')).sort();
  const same = join(dir, 'm', 'one-row.onnx');
  const res = sinpeCli(['extend', model, '--config', config, '--rows', '1', '--recipe', 'float32', '--output', same]);
  assert.equal(res.code, 0, res.err);
  assert.equal(res.err, '', 'no progress bar when stderr is not a terminal');
  assert.equal(res.out, `cos_cache / sin_cache: 256 → 1 rows (float16, float32)\nwrote ${same}\n`);
  assert.deepEqual(readdirSync(join(dir, 'm')).sort(), [...before, 'one-row.onnx'].sort());
  assert.deepEqual(readFileSync(join(dir, 'm', exact.location)), Buffer.from(exact.data));
  const check = sinpeCli(['inspect', same, '--config', config, '--json']);
  assert.equal(check.code, 0, check.err);
  const site = JSON.parse(check.out).sites[0];
  assert.equal(site.rows, 1);
  assert.ok(site.verdict === 'float32' || site.matchesBoth, site.message);
  // Without --rows: max_position_embeddings rows; --recipe exact, the default, given.
  mkdirSync(join(dir, 'full'));
  const full = join(dir, 'full', 'model.onnx');
  const res2 = sinpeCli(['extend', model, '--config', config, '--recipe', 'exact', '-o', full]);
  assert.equal(res2.code, 0, res2.err);
  assert.equal(res2.out, `cos_cache / sin_cache: 256 → 1024 rows (float16, exact)\nwrote ${full}\n`);
  assert.deepEqual(readFileSync(join(dir, 'full', exact.location)), Buffer.from(exact.data));
});

test('extend -o into folders that do not exist yet: they are made (mkdir -p), the data file copied there', () => {
  const to = join(dir, 'made', 'deeper', 'out.onnx');
  assert.equal(existsSync(join(dir, 'made')), false);
  const res = sinpeCli(['extend', model, '--config', config, '--rows', '300', '-o', to]);
  assert.equal(res.code, 0, res.err);
  assert.equal(res.out, `cos_cache / sin_cache: 256 → 300 rows (float16, exact)\nwrote ${to}\n`);
  assert.deepEqual(readFileSync(join(dir, 'made', 'deeper', exact.location)), Buffer.from(exact.data));
  const check = sinpeCli(['inspect', to, '--config', config, '--json']);
  assert.equal(check.code, 0, check.err);
  assert.equal(JSON.parse(check.out).sites[0].rows, 300);
});

test('extend into another folder: an external data file in a subfolder of the model folder is copied into the same subfolder there', () => {
  const nested = makeGenaiModel({ caches: { default: { ...bake('exact', 256, r, o, 'float16'), rows: 256 } }, dtype: 'float16', external: 'weights/rope.bin' });
  mkdirSync(join(dir, 'nested', 'weights'), { recursive: true });
  const from = join(dir, 'nested', 'model.onnx');
  writeFileSync(from, nested.model);
  writeFileSync(join(dir, 'nested', 'weights', 'rope.bin'), nested.data);
  mkdirSync(join(dir, 'nested-out'));
  const to = join(dir, 'nested-out', 'model.onnx');
  const res = sinpeCli(['extend', from, '--config', config, '--rows', '512', '-o', to]);
  assert.equal(res.code, 0, res.err);
  assert.equal(res.out, `cos_cache / sin_cache: 256 → 512 rows (float16, exact)\nwrote ${to}\n`);
  assert.deepEqual(readFileSync(join(dir, 'nested-out', 'weights', 'rope.bin')), Buffer.from(nested.data));
  const check = sinpeCli(['inspect', to, '--config', config, '--json']);
  assert.equal(check.code, 0, check.err);
  assert.equal(JSON.parse(check.out).sites[0].rows, 512);
});

test('an internal error (no code, not bad input): exit 3, the message then its stack on stderr, nothing on stdout', () => {
  // Simulated: a preload makes fs/promises' writeFile (the output's) throw a plain Error.
  const hook = join(dir, 'fail-write.mjs');
  writeFileSync(
    hook,
    "import { createRequire, syncBuiltinESMExports } from 'node:module';\n" +
      "createRequire(import.meta.url)('node:fs/promises').writeFile = async function failingWrite() { throw new Error('disk on fire'); };\n" +
      'syncBuiltinESMExports();\n',
  );
  const out = join(dir, 'internal.onnx');
  const res = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, bin, 'extend', model, '--config', config, '--rows', '4', '-o', out], { encoding: 'utf8', timeout: 120000 });
  assert.equal(res.status, 3, res.stderr);
  assert.equal(res.stdout, '');
  assert.match(res.stderr, /^sinpe: disk on fire\nError: disk on fire\n {4}at failingWrite /);
  assert.equal(existsSync(out), false);
});

test('inspect: the table names each cache, its rows, width, dtype, group, layer type, layout, where its bytes are, its readers and the verdict', () => {
  const res = sinpeCli(['inspect', model, '--config', config]);
  assert.equal(res.code, 0, res.err);
  assert.equal(res.err, '');
  const lines = res.out.split('\n');
  assert.equal(lines[0], `${model}: 1 RoPE site(s), match`);
  assert.equal(lines[1], '  cos_cache / sin_cache');
  assert.match(lines[2], /^ {4}256 rows × 8, float16, group default, interleaved 0, external model\.onnx\.data @\d+\+4096$/);
  assert.equal(lines[3], '    read by: RotaryEmbedding /model/layers.5/attn/q_rotary/RotaryEmbedding');
  assert.match(lines[4], /^ {4}EXACT: cos_cache: exact \(bit-identical.*; 256 rows, 1024 expected/);
  assert.equal(lines[5], '');
  assert.equal(lines.length, 6);

  const g = sinpeCli(['inspect', join(dir, 'gemma.onnx'), '--config', join(dir, 'gemma.json')]);
  assert.equal(g.code, 0, g.err);
  assert.match(g.out, /^.*gemma\.onnx: 2 RoPE site\(s\), match\n/);
  assert.match(g.out, /\n {2}cos_cache_global \/ sin_cache_global\n {4}1024 rows × 8, float32, group global \(full_attention\), interleaved 0, raw_data\n/);
  assert.match(g.out, /\n {2}cos_cache_local \/ sin_cache_local\n {4}1024 rows × 8, float32, group local \(sliding_attention\), interleaved 0, raw_data\n/);
  // Without a config: no layer type, not checked.
  const u = sinpeCli(['inspect', join(dir, 'gemma.onnx')]);
  assert.equal(u.code, 0, u.err);
  assert.match(u.out, /^.*gemma\.onnx: 2 RoPE site\(s\), unchecked\n/);
  assert.match(u.out, /group global, interleaved 0, raw_data\n/);
  assert.match(u.out, /\n {4}UNCHECKED: cos_cache_global: 1024 rows × 8, float32 \(no config: not checked; it fits \{"rope_theta":1000000,"rope_scaling":\{"rope_type":"linear","factor":8\}\} with rotary dim 16 \(exact values\)\)\n/);

  // An inv_freq graph: its frequencies, no rows; no layout attribute.
  const inv = join(dir, 'inv.onnx');
  writeFileSync(inv, makeInvFreqModel(new Uint32Array(Float32Array.from(ropeInvFreq(r, o)).buffer)));
  const f = sinpeCli(['inspect', inv, '--config', config]);
  assert.equal(f.code, 0, f.err);
  assert.match(f.out, /\n {2}inv_freq\n {4}8 frequencies, float32, group default, interleaved -, raw_data\n {4}read by: (Cos cos, Sin sin|Sin sin, Cos cos)\n {4}EXACT: inv_freq: the frequencies match/);
});

test('inspect --data: an external data file given by path, found under the name the model gives it', async () => {
  mkdirSync(join(dir, 'alone'));
  mkdirSync(join(dir, 'elsewhere'));
  writeFileSync(join(dir, 'alone', 'model.onnx'), exact.model);
  writeFileSync(join(dir, 'elsewhere', exact.location), exact.data);
  await refused([[['inspect', join(dir, 'alone', 'model.onnx'), '--config', config], /model\.onnx\.data/]]);
  const res = sinpeCli(['inspect', join(dir, 'alone', 'model.onnx'), '--config', config, '--data', join(dir, 'elsewhere', exact.location), '--json']);
  assert.equal(res.code, 0, res.err);
  const report = JSON.parse(res.out);
  assert.equal(report.status, 'match');
  // --json: the report's numbers (offsets, lengths) as JSON numbers.
  const s = report.sites[0].cos.storage;
  assert.deepEqual([s.kind, s.location, typeof s.offset, s.length], ['external', exact.location, 'number', 4096]);
});

test('a progress bar on stderr when it is a terminal: inspect "checking" and extend "extending", filled to done/total, ending full', () => {
  // script(1) (util-linux) runs the command with a pseudo-terminal as its stdin, stdout and stderr.
  const quote = (s) => `'${s.replace(/'/g, "'\\''")}'`;
  const run = (args) => {
    const res = spawnSync('script', ['-qec', [process.execPath, bin, ...args].map(quote).join(' '), '/dev/null'], { encoding: 'utf8', timeout: 120000 });
    assert.equal(res.error, undefined, 'script(1) runs');
    return { code: res.status, out: res.stdout.replace(/\r\n/g, '\n') };
  };
  const i = run(['inspect', join(dir, 'gemma.onnx'), '--config', join(dir, 'gemma.json')]);
  assert.equal(i.code, 0, i.out);
  const bars = [...i.out.matchAll(/\rchecking \[(#*)( *)\] (\d+)\/(\d+)/g)];
  assert.ok(bars.length > 1, i.out);
  const width = bars[0][1].length + bars[0][2].length;
  assert.ok(width >= 10, `a bar ${width} wide`);
  for (const [bar, filled, empty, done, total] of bars) {
    assert.equal(filled.length + empty.length, width, bar);
    assert.equal(filled.length, Math.round((done / total) * width), `the bar is filled to done/total: ${bar}`);
  }
  const last = bars.at(-1);
  assert.equal(last[3], last[4], 'the last bar is done');
  assert.match(i.out, /\rchecking \[#+\] (\d+)\/\1\n/, 'a new line after the full bar only');
  assert.equal(i.out.match(/\] \d+\/\d+\n/g).length, 1, 'one new line, after the last bar');
  assert.match(i.out, /^(\rchecking \[[# ]+\] \d+\/\d+)+\n[^\r]*$/, 'nothing but the bars before the table');
  // extend: one bar a cache, the last one full
  const e = run(['extend', join(dir, 'gemma.onnx'), '--config', join(dir, 'gemma.json'), '--rows', '64', '-o', join(dir, 'gemma-64.onnx')]);
  assert.equal(e.code, 0, e.out);
  const extending = [...e.out.matchAll(/\rextending \[(#*)( *)\] (\d+)\/(\d+)/g)];
  assert.ok(extending.length >= 1, e.out);
  assert.equal(extending.at(-1)[3], extending.at(-1)[4], `the last bar is done: ${e.out}`);
  for (const [bar, filled, empty, done, total] of extending) assert.equal(filled.length, Math.round((done / total) * (filled.length + empty.length)), bar);
});
