// npm test's smoke of `npm run test:mutation`: StrykerJS with the project's
// configuration (tests/mutation/smoke.config.mjs) on one line of js/errors.js,
// the one that fills a message's placeholders, tested by the messages suite
// alone. Each of its mutants must be killed: that proves the config loads, the
// sandbox is made, and the suites the command runner starts test the
// sandbox's mutated js/ (a sandbox whose suites loaded the work tree's js/
// would let them all survive). The line is found by its text, so an edit of
// js/errors.js moves the smoke with it; a line no longer there fails it.
// Prints one count line (appended to $SINPE_SUMMARY too); exit 1 on failure.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FILE = 'js/errors.js';
const LINE = '    if (values[key] !== undefined) return values[key];';
const SUITE = 'messages';
const REPORT = path.join(root, 'build/mutation-smoke/mutation.json');

function fail(message) {
  console.log(`mutation smoke: ${message}`);
  process.exit(1);
}

const lines = readFileSync(path.join(root, FILE), 'utf8').split('\n');
const at = lines.flatMap((l, i) => (l === LINE ? [i + 1] : []));
if (at.length !== 1) fail(`the line ${JSON.stringify(LINE.trim())} occurs ${at.length} times in ${FILE} (must be once); update tests/mutation/smoke.mjs`);
const target = `${FILE}:${at[0]}-${at[0]}`;

rmSync(REPORT, { force: true });
const t0 = performance.now();
const run = spawnSync('npx', ['stryker', 'run', 'tests/mutation/smoke.config.mjs', '--mutate', target], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, SINPE_MUTATION_SUITES: SUITE },
});
const seconds = ((performance.now() - t0) / 1000).toFixed(1);
if (run.error || run.status !== 0) {
  console.log(`${run.stdout ?? ''}${run.stderr ?? ''}`);
  fail(`stryker run --mutate ${target} exited with ${run.error ?? run.status} after ${seconds} s`);
}
let mutants;
try {
  mutants = JSON.parse(readFileSync(REPORT, 'utf8')).files[FILE]?.mutants ?? [];
} catch (e) {
  console.log(`${run.stdout}${run.stderr}`);
  fail(`no report at ${path.relative(root, REPORT)} (${e.message})`);
}
for (const m of mutants) console.log(`  ${m.status.padEnd(8)} ${m.location.start.line}:${m.location.start.column} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? '')}`);
const killed = mutants.filter((m) => m.status === 'Killed');
if (mutants.length === 0) fail(`Stryker made no mutant of ${target}`);
if (killed.length !== mutants.length) fail(`${mutants.length - killed.length} of ${mutants.length} mutants of ${target} not killed by the ${SUITE} suite: is the sandbox's js/ what the suites load?`);
const line = `mutation smoke: ${killed.length} of ${mutants.length} mutants of ${target} killed by the ${SUITE} suite (StrykerJS, the project's config, ${seconds} s)`;
console.log(line);
if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `${line}\n`);
