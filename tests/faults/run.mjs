// Fault injection: builds the project with each fault of faults.mjs and runs
// the suites expected to catch it; a fault is caught when one of them fails.
// The faults are injected into a copy of the tracked files (build/faults/tree,
// kept between runs so rebuilds are incremental), never into the work tree.
// Before any fault, the same suites run on the unmodified copy and must pass:
// a fault "caught" by a suite that fails anyway proves nothing.
//
// Usage: node tests/faults/run.mjs [--quick] [fault-id ...]
//   --quick: only the faults marked quick (npm test runs this form)
// Every form first checks every fault's anchor (its file exists, its text
// occurs there exactly once), so a file renamed or an anchor edited away
// fails npm test, not only the full run.
// Exit status 0 only when every fault run was caught.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAULTS } from './faults.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tree = path.join(root, 'build/faults/tree');
const logs = path.join(root, 'build/faults/logs');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => !a.startsWith('--'));

for (const id of only) if (!FAULTS.some((f) => f.id === id)) fail(`no fault named ${id} in tests/faults/faults.mjs`);
const faults = FAULTS.filter((f) => (only.length ? only.includes(f.id) : !quick || f.quick));
if (faults.length === 0) fail('no fault selected');

function fail(message) {
  console.error(`faults: ${message}`);
  process.exit(1);
}

// The suites, as commands run in the copy. Each returns the first failing test's name when it can tell.
const SUITES = {
  native: {
    name: 'Catch2, native',
    run: () => [
      ['bash', ['scripts/cmake-build.sh', 'native']],
      ['build/native/sinpe_tests', []],
    ],
    firstFailure: (out) => {
      // Catch2's console reporter: a line of dashes, the test case name (wrapped
      // over several lines when long), its sections (indented), dashes, the
      // file:line, dots, then "FAILED:".
      const lines = out.split('\n');
      const at = lines.findIndex((l) => /FAILED:\s*$/.test(l));
      if (at < 0) return undefined;
      const dashes = (i) => /^-{20,}$/.test(lines[i] ?? '');
      let close = at;
      while (close > 0 && !dashes(close)) close--;
      let open = close - 1;
      while (open > 0 && !dashes(open)) open--;
      if (open <= 0) return undefined;
      const name = lines.slice(open + 1, close).filter((l) => !/^\s/.test(l));
      return name.length ? name.join(' ').trim() : undefined;
    },
  },
  wasm: {
    name: 'Catch2, wasm',
    run: () => [
      ['bash', ['scripts/build.sh']],
      ['ctest', ['--preset', 'wasm', '--output-on-failure']],
    ],
    firstFailure: (out) => SUITES.native.firstFailure(out),
  },
  package: {
    name: 'package (tests/js against the packed tarball)',
    run: (fault) => [
      ...(fault && !fault.file.startsWith('js/') ? [['bash', ['scripts/build.sh']]] : []),
      ['bash', ['tests/js/run.sh', ...(fault?.files ?? [])]],
    ],
    firstFailure: (out) => out.match(/^\s*not ok \d+ - (.+)$/m)?.[1] ?? out.match(/^✖ (.+?)(?: \(\d|$)/m)?.[1],
  },
  web: {
    name: 'site model (tests/web)',
    run: () => [['node', ['--test', 'tests/web/']]],
    firstFailure: (out) => out.match(/^\s*not ok \d+ - (.+)$/m)?.[1],
  },
};

// Copies every tracked file that differs into the tree (only those get a new
// mtime, so builds stay incremental), and removes from it the files an earlier
// run copied that are tracked no more: a file renamed or split away must not
// live on in the tree (where an old fault's anchor would still find it).
function syncTree() {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root }).toString().split('\0').filter(Boolean);
  if (files.length < 50) fail(`git ls-files listed only ${files.length} files`);
  const manifest = path.join(tree, '.faults-tracked');
  const kept = new Set(files.filter((f) => fs.existsSync(path.join(root, f))));
  let removed = 0;
  if (fs.existsSync(manifest)) {
    for (const f of fs.readFileSync(manifest, 'utf8').split('\0').filter(Boolean)) {
      if (kept.has(f) || !fs.existsSync(path.join(tree, f))) continue;
      fs.rmSync(path.join(tree, f));
      removed++;
    }
  }
  let copied = 0;
  for (const f of files) {
    const from = path.join(root, f);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet in git
    const to = path.join(tree, f);
    const data = fs.readFileSync(from);
    if (fs.existsSync(to) && fs.readFileSync(to).equals(data)) continue;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, data);
    fs.chmodSync(to, fs.statSync(from).mode);
    copied++;
  }
  for (const dir of ['node_modules', 'third_party']) {
    const link = path.join(tree, dir);
    if (!fs.existsSync(link)) fs.symlinkSync(path.join(root, dir), link);
  }
  // The package's built modules, for faults of the JS layer (core faults rebuild them in the tree).
  if (fs.existsSync(path.join(root, 'dist'))) fs.cpSync(path.join(root, 'dist'), path.join(tree, 'dist'), { recursive: true });
  fs.writeFileSync(manifest, [...kept].join('\0'));
  return { files: files.length, tracked: kept, copied, removed };
}

function runSuite(key, fault, label) {
  const suite = SUITES[key];
  let out = '';
  for (const [cmd, argv] of suite.run(fault)) {
    const r = spawnSync(cmd, argv, { cwd: tree, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, SINPE_SUMMARY: '/dev/null' } });
    out += `$ ${cmd} ${argv.join(' ')}\n${r.stdout}${r.stderr}`;
    if (r.error) throw r.error;
    if (r.status !== 0) {
      fs.writeFileSync(path.join(logs, `${label}.${key}.log`), out);
      const isBuild = argv[0]?.startsWith('scripts/');
      return { failed: true, isBuild, test: isBuild ? 'the build' : suite.firstFailure(out) };
    }
  }
  fs.writeFileSync(path.join(logs, `${label}.${key}.log`), out);
  return { failed: false };
}

fs.mkdirSync(tree, { recursive: true });
fs.mkdirSync(logs, { recursive: true });
const synced = syncTree();
console.log(
  `faults: ${faults.length} fault(s) against a copy of ${synced.files} tracked files (${synced.copied} updated, ${synced.removed} no longer tracked removed) in build/faults/tree`,
);

// Every fault's anchor is checked before anything is built, the faults this
// run skips too (the quick form runs two, but a file renamed or an anchor
// edited away fails it all the same): its file must be tracked and its text
// occur exactly once there.
const problems = [];
const ids = new Set();
for (const f of FAULTS) {
  if (ids.has(f.id)) problems.push(`fault ${f.id}: the id is used twice`);
  ids.add(f.id);
  for (const s of f.suites) if (!SUITES[s]) problems.push(`fault ${f.id}: unknown suite ${s}`);
  const file = path.join(tree, f.file);
  if (!synced.tracked.has(f.file) || !fs.existsSync(file)) {
    problems.push(`fault ${f.id}: ${f.file} does not exist (renamed or split? retarget the fault to where its code lives now)`);
    continue;
  }
  const n = fs.readFileSync(file, 'utf8').split(f.find).length - 1;
  if (n !== 1) problems.push(`fault ${f.id}: its text occurs ${n} times in ${f.file} (must be exactly once)`);
}
if (problems.length) fail(`${problems.length} fault(s) of tests/faults/faults.mjs no longer fit the tree; update it:\n  ${problems.join('\n  ')}`);
console.log(`faults: every anchor found exactly once (${FAULTS.length} faults, ${new Set(FAULTS.map((f) => f.file)).size} files)`);

// Control: the suites pass on the unmodified copy.
const used = [...new Set(faults.flatMap((f) => f.suites))];
for (const key of used) {
  // The control runs what the faults will run: every file they name (all, if one names none), built as they need.
  const users = faults.filter((f) => f.suites.includes(key));
  const files = users.some((f) => !f.files) ? undefined : [...new Set(users.flatMap((f) => f.files))];
  const control = { file: users.every((f) => f.file.startsWith('js/')) ? 'js/' : 'cpp/', files };
  const r = runSuite(key, control, 'control');
  if (r.failed) fail(`control: ${SUITES[key].name} fails without any fault (${r.test ?? 'see build/faults/logs/control.' + key + '.log'})`);
  console.log(`control: ${SUITES[key].name} passes on the unmodified copy`);
}

const results = [];
for (const f of faults) {
  const file = path.join(tree, f.file);
  const original = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, original.replace(f.find, () => f.replace));
  let caught = null;
  try {
    for (const key of f.suites) {
      const r = runSuite(key, f, f.id);
      if (r.failed) {
        caught = { suite: SUITES[key].name, test: r.test ?? '(see log)', build: r.isBuild };
        break;
      }
    }
  } finally {
    fs.writeFileSync(file, original);
  }
  results.push({ f, caught });
  console.log(`${caught ? 'CAUGHT' : 'MISSED'}  ${f.id}: ${f.what}${caught ? ` — by ${caught.suite}: ${caught.test}` : ''}`);
}

const missed = results.filter((r) => !r.caught || r.caught.build);
console.log(`\nfault → caught by`);
for (const { f, caught } of results) console.log(`  ${f.id.padEnd(22)} ${caught ? `${caught.suite}: ${caught.test}` : 'NOT CAUGHT'}`);
const line = `faults: ${results.length - missed.length} of ${results.length} injected faults caught${quick ? ' (quick form; npm run test:faults runs all)' : ''}`;
console.log(line);
if (process.env.SINPE_SUMMARY) fs.appendFileSync(process.env.SINPE_SUMMARY, `${line}\n`);
process.exit(missed.length === 0 ? 0 : 1);
