// Package hygiene: what `npm pack` publishes, and whether package.json tells
// the truth about it. Reads the real tarball (unpacked) and the package as
// installed from it into a fresh project: scripts/pack-into-project.sh, or the
// project given with --project DIR (tests/consumers/run.mjs shares its own).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { newUrlAssets } from './esbuild-new-url.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? null : process.argv[i + 1];
};
const SUMMARY = arg('--summary') ?? (process.env.SINPE_SUMMARY || null);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
let checks = 0;
const ok = (cond, msg) => {
  assert.ok(cond, msg);
  checks++;
};

let project = arg('--project');
const unpacked = mkdtempSync(join(tmpdir(), 'sinpe-tarball-'));
const ownProject = project === null;
if (ownProject) project = execFileSync('bash', [join(root, 'scripts/pack-into-project.sh')], { encoding: 'utf8' }).trim().split('\n').pop();
process.on('exit', () => {
  rmSync(unpacked, { recursive: true, force: true });
  if (ownProject) rmSync(project, { recursive: true, force: true });
});
const tarballs = readdirSync(project).filter((f) => f.endsWith('.tgz'));
assert.equal(tarballs.length, 1, `one tarball in ${project}: ${tarballs}`);
execFileSync('tar', ['-xzf', join(project, tarballs[0]), '-C', unpacked]);
const shipped = join(unpacked, 'package');
const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [relative(shipped, join(dir, e.name))]));

const [info] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }));
const files = info.files.map((f) => f.path).sort();

// 1. Only what users need: the entry and every file it loads, its types, the
// licence, readme and manifest; nothing the entry cannot reach. The files it
// loads are followed from the shipped js/sinpe.js by esbuild (static and
// dynamic imports, and each `new URL('…', import.meta.url)` asset).
async function entryGraph(entry = 'js/sinpe.js', external = ['node:*']) {
  try {
    return await esbuild.build({
      absWorkingDir: shipped,
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      splitting: true,
      platform: 'neutral',
      outdir: 'graph',
      external,
      loader: { '.wasm': 'file' },
      plugins: [newUrlAssets],
      logLevel: 'silent',
    });
  } catch (e) {
    throw new Error(`the shipped entry cannot load all it needs from the tarball:\n${e.errors?.map((x) => x.text).join('\n') ?? e}`, { cause: e });
  }
}
const graph = await entryGraph();
const loaded = Object.keys(graph.metafile.inputs).sort();
// The ./onnx subpath and the sinpe command (package.json "bin") ship too, with
// every file they load; their one dependency (onnx-buf, @bufbuild/protobuf)
// stays outside the tarball.
const ONNX_DEPS = ['onnx-buf', '@bufbuild/protobuf'];
const onnxLoaded = Object.keys((await entryGraph('js/onnx/index.js', ['node:*', ...ONNX_DEPS])).metafile.inputs);
const cliLoaded = Object.keys((await entryGraph('js/cli.js', ['node:*', ...ONNX_DEPS])).metafile.inputs);
const expected = [...new Set([...loaded, ...onnxLoaded, ...cliLoaded, 'js/sinpe.d.ts', 'dist/sinpe-vocabulary.d.ts', 'js/onnx/index.d.ts', 'LICENSE', 'README.md', 'package.json'])].sort();
assert.deepEqual(files, expected, `packed files:\n${files.join('\n')}\nexpected (the entry's import graph + types, licence, readme, manifest):\n${expected.join('\n')}`);
checks++;
// Both flavours (glue and binary) and the vocabulary generated from the core are among them.
for (const f of ['dist/sinpe-simd.mjs', 'dist/sinpe-simd.wasm', 'dist/sinpe-baseline.mjs', 'dist/sinpe-baseline.wasm', 'dist/sinpe-vocabulary.js'])
  ok(loaded.includes(f) && files.includes(f), `${f} is loaded by the entry and shipped (entry loads: ${loaded.join(', ')})`);
assert.deepEqual(walk(shipped).sort(), files, `the tarball ${tarballs[0]} holds what npm pack --dry-run lists`);
checks++;
for (const f of files) ok(!/^(tests?|build|cpp|web|scripts|third_party|node_modules)\//.test(f) && !f.endsWith('.map'), `${f} should not ship`);

// 2. Licence present, and the one package.json names.
const licence = readFileSync(join(root, 'LICENSE'), 'utf8');
ok(pkg.license === 'MIT' && /^MIT License/m.test(licence) && /Permission is hereby granted, free of charge/.test(licence), 'LICENSE is the MIT text package.json claims');

// 3. Metadata that is true.
ok(pkg.repository === undefined && pkg.homepage === undefined && pkg.bugs === undefined, 'no repository/homepage/bugs URLs (there is none to point to)');
// The runtime dependencies, for the ./onnx subpath only: the main entry's import
// graph (followed above without marking anything external) reaches no package.
// Every package a shipped file imports is declared (a strict install, pnpm's
// hoist: false, finds nothing else: tests/consumers/pnpm.mjs), and nothing else is:
// the packages the onnx subpath and the command import, every bare specifier
// left external by esbuild, reduced to its package name.
const importedPackages = new Set();
for (const entry of ['js/onnx/index.js', 'js/cli.js']) {
  const { metafile } = await esbuild.build({ absWorkingDir: shipped, entryPoints: [entry], bundle: true, write: false, metafile: true, format: 'esm', platform: 'node', packages: 'external', outdir: 'graph', logLevel: 'silent' });
  for (const input of Object.values(metafile.inputs))
    for (const i of input.imports) if (i.external && !i.path.startsWith('node:')) importedPackages.add(i.path.startsWith('@') ? i.path.split('/').slice(0, 2).join('/') : i.path.split('/')[0]);
}
ok(JSON.stringify([...importedPackages].sort()) === JSON.stringify(Object.keys(pkg.dependencies ?? {}).sort()), `the packages the shipped files import (${[...importedPackages].sort()}) are the declared dependencies (${Object.keys(pkg.dependencies ?? {})})`);
ok(JSON.stringify(Object.keys(pkg.dependencies ?? {}).sort()) === JSON.stringify(['@bufbuild/protobuf', 'onnx-buf']), `the runtime dependencies are onnx-buf and @bufbuild/protobuf (for sinpe.wasm/onnx), got ${Object.keys(pkg.dependencies ?? {})}`);
ok(loaded.every((f) => !f.includes('node_modules') && !f.startsWith('js/onnx/') && f !== 'js/cli.js'), `the main entry loads no dependency and not the onnx subpath: ${loaded.join(', ')}`);
ok(typeof pkg.engines?.node === 'string', 'engines.node is set');
const minMajor = Number(/>=\s*(\d+)/.exec(pkg.engines.node)?.[1]);
ok(minMajor >= 18 && Number(process.versions.node.split('.')[0]) >= minMajor, `engines.node ${pkg.engines.node} holds for this Node`);
ok(pkg.type === 'module', 'ESM package');
const dot = pkg.exports['.'];
ok(Object.keys(dot)[0] === 'types', 'the "types" condition comes first (TypeScript requires it)');
for (const target of [dot.types, dot.default, pkg.main, pkg.types, ...Object.values(pkg.exports).filter((v) => typeof v === 'string')])
  ok(files.includes(target.replace(/^\.\//, '')), `${target} (named in package.json) is in the tarball`);
for (const f of pkg.files) ok(existsSync(join(root, f)), `files entry ${f} exists`);
// Nothing machine-specific leaks into what ships.
for (const f of files.filter((f) => /\.(m?js|ts|json)$/.test(f))) {
  const text = readFileSync(join(shipped, f), 'utf8');
  ok(!text.includes(root) && !/\/tmp\/|\/home\//.test(text), `${f} contains no local paths`);
}

// 4. sideEffects: false is correct: importing the entry (by name, as installed
// from the tarball) defines nothing global, loads no wasm and starts no I/O
// until sinpe() is called.
const probe = `
  const before = new Set(Object.getOwnPropertyNames(globalThis));
  let fetched = 0;
  globalThis.fetch = () => { fetched++; throw new Error('fetch during import'); };
  const wasmBefore = WebAssembly.instantiate;
  let instantiated = 0;
  WebAssembly.instantiate = (...a) => { instantiated++; return wasmBefore(...a); };
  const m = await import('sinpe.wasm');
  const added = Object.getOwnPropertyNames(globalThis).filter((k) => !before.has(k));
  console.log(JSON.stringify({ added, fetched, instantiated, exports: Object.keys(m).sort() }));
`;
const seen = JSON.parse(execFileSync('node', ['--input-type=module', '-e', probe], { cwd: project, encoding: 'utf8' }));
ok(seen.added.length === 0 && seen.fetched === 0 && seen.instantiated === 0, `importing has side effects: ${JSON.stringify(seen)}`);
assert.deepEqual(seen.exports, ['default', 'dtypes', 'getRopeIndex', 'halfCodec', 'halfDtypes', 'layouts', 'presets', 'recipes', 'ropeAxes', 'ropeLayouts', 'ropeOptionsFromConfig', 'ropeTypes', 'vocabulary']);
checks++;

// 5. Test and benchmark hooks live in a separate build, never in the package:
// no shipped file (the .wasm binaries included, where Embind keeps the names
// it registers) mentions them...
const HOOKS = ['heapBytes', 'fillInto', 'badIndex', 'sinpe.benchmark'];
for (const f of files) {
  const bytes = readFileSync(join(shipped, f));
  for (const hook of HOOKS) ok(!bytes.includes(hook), `${f} mentions ${hook}`);
}
// ...and neither the module nor a loaded encoder (either flavour) has them.
const hookProbe = `
  const hooks = ${JSON.stringify(HOOKS)};
  const m = await import('sinpe.wasm');
  const found = Object.keys(m).filter((k) => hooks.includes(k)).map((k) => 'export ' + k);
  for (const simd of [true, false]) {
    const pe = await m.default({ simd });
    if (Symbol.for('sinpe.benchmark') in pe) found.push('Symbol.for(sinpe.benchmark) on the simd: ' + simd + ' encoder');
    for (const hook of hooks) if (hook in pe) found.push(hook + ' on the simd: ' + simd + ' encoder');
    for (let o = pe; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o))
      for (const key of Reflect.ownKeys(o)) {
        const name = typeof key === 'symbol' ? String(key.description) : key;
        if (hooks.some((h) => name.includes(h)) || /benchmark/i.test(name)) found.push('own key ' + String(name) + ' (simd: ' + simd + ')');
      }
  }
  console.log(JSON.stringify(found));
`;
const hooksFound = JSON.parse(execFileSync('node', ['--input-type=module', '-e', hookProbe], { cwd: project, encoding: 'utf8' }));
ok(hooksFound.length === 0, `test/bench hooks reachable from the package: ${hooksFound.join(', ')}`);

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const line = `package: ${files.length} files, packed ${kib(info.size)} (unpacked ${kib(info.unpackedSize)}); simd.wasm ${kib(info.files.find((f) => f.path === 'dist/sinpe-simd.wasm').size)}, baseline.wasm ${kib(info.files.find((f) => f.path === 'dist/sinpe-baseline.wasm').size)}`;
console.log(`${line}\n${checks} hygiene checks passed: only runtime files, MIT licence, true metadata, sideEffects: false holds, no test/bench hooks`);
for (const f of info.files) console.log(`  ${String(f.size).padStart(7)}  ${f.path}`);
if (SUMMARY) appendFileSync(SUMMARY, `${line}; ${checks} hygiene checks\n`);
