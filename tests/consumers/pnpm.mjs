// The packed tarball installed by pnpm with strict semantics (hoist: false):
// every package sees only what its own package.json declares, so a bare
// import the package makes without declaring it (js/onnx/ imports
// @bufbuild/protobuf) fails here, where npm's flat node_modules hides it.
// Then, in that project: `import 'sinpe.wasm'`, `import 'sinpe.wasm/onnx'`,
// `sinpe --help` and `sinpe inspect` of a small model (which loads the onnx
// subpath from the command).
//
// Offline, as the other consumers: pnpm (a devDependency, pinned) resolves
// from a store and metadata cache of its own, which never saw the registry.
// The dependencies' tarballs come from npm's cache (`npm pack NAME@VERSION
// --offline`, the versions package-lock.json locks; scripts/setup.sh primes
// the cache for them), and the project's pnpm-workspace.yaml `overrides` point
// each dependency name at its tarball — an override replaces the version a
// declared dependency resolves to, it adds no dependency a package does not
// declare. pnpm 11+ reads its settings (hoist, storeDir, overrides) from
// pnpm-workspace.yaml, not .npmrc; hoist=false is written in both, and the
// check reads back from node_modules/.modules.yaml that nothing was hoisted.
//
// Usage: node tests/consumers/pnpm.mjs [--project DIR] [--summary FILE]
//   (--project: a project scripts/pack-into-project.sh made; its tarball is used;
//   SINPE_PNPM: the pnpm binary, default node_modules/.bin/pnpm)
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? null : process.argv[i + 1];
};
const SUMMARY = arg('--summary') ?? (process.env.SINPE_SUMMARY || null);

function run(cmd, args, cwd, { expect = 0 } = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.error) throw r.error;
  if (r.status !== expect) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status} (expected ${expect})\n${r.stdout}\n${r.stderr}`);
  return r;
}

// SINPE_PNPM: another pnpm binary (a node_modules not yet installed since pnpm became a devDependency).
const pnpm = process.env.SINPE_PNPM || join(root, 'node_modules/.bin/pnpm');
if (!existsSync(pnpm)) throw new Error(`${pnpm} is missing: pnpm is a devDependency (scripts/setup.sh installs it)`);

let project = arg('--project');
const ownProject = project === null;
if (ownProject) project = execFileSync('bash', [join(root, 'scripts/pack-into-project.sh')], { encoding: 'utf8' }).trim().split('\n').pop();
const scratch = mkdtempSync(join(tmpdir(), 'sinpe-pnpm-'));
process.on('exit', () => {
  rmSync(scratch, { recursive: true, force: true });
  if (ownProject) rmSync(project, { recursive: true, force: true });
});
const [tarball] = readdirSync(project).filter((f) => f.endsWith('.tgz'));
copyFileSync(join(project, tarball), join(scratch, tarball));

// The package's runtime dependencies, at the versions the lockfile locks, as tarballs from npm's cache.
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const overrides = {};
for (const [path, p] of Object.entries(lock.packages)) {
  if (!path.startsWith('node_modules/') || p.dev || p.optional) continue;
  const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const out = run('npm', ['pack', `${name}@${p.version}`, '--offline', '--silent', '--pack-destination', scratch], scratch).stdout.trim().split('\n').pop();
  overrides[name] = `file:./${out}`;
}
if (Object.keys(overrides).length === 0) throw new Error('package-lock.json locks no runtime dependency');

writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'sinpe-pnpm-consumer', version: '1.0.0', private: true, type: 'module' }));
writeFileSync(join(scratch, '.npmrc'), 'hoist=false\n');
const yaml = [
  'hoist: false',
  `storeDir: ${JSON.stringify(join(scratch, '.pnpm-store'))}`,
  `cacheDir: ${JSON.stringify(join(scratch, '.pnpm-cache'))}`,
  'overrides:',
  ...Object.entries(overrides).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`),
  '',
].join('\n');
writeFileSync(join(scratch, 'pnpm-workspace.yaml'), yaml);
const version = run(pnpm, ['--version'], scratch).stdout.trim();
run(pnpm, ['add', '--offline', `./${tarball}`], scratch);

let checks = 0;
const ok = (cond, msg) => {
  if (!cond) throw new Error(msg);
  checks++;
};
// Strict: nothing hoisted, neither to the root nor to the virtual store's node_modules.
const modules = JSON.parse(readFileSync(join(scratch, 'node_modules/.modules.yaml'), 'utf8'));
ok(Object.keys(modules.hoistedDependencies ?? {}).length === 0 && (modules.hoistPattern ?? []).length === 0, `pnpm hoisted packages: ${JSON.stringify(modules.hoistedDependencies)} (hoistPattern ${JSON.stringify(modules.hoistPattern)})`);
ok(!existsSync(join(scratch, 'node_modules/.pnpm/node_modules')), 'node_modules/.pnpm/node_modules exists: pnpm hoisted into the virtual store');
ok(JSON.stringify(readdirSync(join(scratch, 'node_modules')).filter((f) => !f.startsWith('.')).sort()) === JSON.stringify(['sinpe.wasm']), `the project's node_modules holds only sinpe.wasm: ${readdirSync(join(scratch, 'node_modules'))}`);

const probe = `
  const main = await import('sinpe.wasm');
  const pe = await main.default();
  const onnx = await import('sinpe.wasm/onnx');
  console.log(JSON.stringify({ row: Array.from(pe.table(2, 4)), onnx: Object.keys(onnx).sort() }));
`;
const seen = JSON.parse(run(process.execPath, ['--input-type=module', '-e', probe], scratch).stdout);
ok(seen.row.length === 8 && seen.row[1] === 1 && seen.row[0] === 0, `sinpe.wasm computed ${seen.row}`);
for (const name of ['readModel', 'findRope', 'inspectModel', 'extendModel', 'writeModel']) ok(seen.onnx.includes(name), `sinpe.wasm/onnx exports ${name}: ${seen.onnx}`);

const sinpe = join(scratch, 'node_modules/.bin/sinpe');
const help = run(sinpe, ['--help'], scratch);
ok(/sinpe inspect MODEL\.onnx/.test(help.stdout), `sinpe --help printed ${help.stdout}`);
// inspect loads sinpe.wasm/onnx (and so onnx-buf and @bufbuild/protobuf) from the command.
run(process.execPath, [join(root, 'tests/js/fixtures/make-rotary-model.mjs'), join(scratch, 'rotary.onnx')], scratch);
const inspect = run(sinpe, ['inspect', join(scratch, 'rotary.onnx')], scratch);
ok(/rotary\.onnx: \d+ RoPE site\(s\)/.test(inspect.stdout), `sinpe inspect printed ${inspect.stdout}${inspect.stderr}`);

const line = `pnpm ${version} (hoist: false, offline): sinpe.wasm, sinpe.wasm/onnx and the sinpe command run from a strict install; ${checks} checks`;
console.log(line);
if (SUMMARY) appendFileSync(SUMMARY, `${line}\n`);
