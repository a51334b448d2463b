// Reads StrykerJS's incremental results (tests/mutation/stryker-incremental.json,
// the mutation-testing-report-schema JSON that stryker.config.mjs keeps) and
// prints, per mutated file, the mutants, killed, survived, timeout and no
// coverage counts and the score ((killed + timeout) / (all − ignored − compile
// errors)), then each survivor (line:column, mutator, replacement).
//   node scripts/mutation-report.mjs [--file js/X.js] [--markdown]
//   node scripts/mutation-report.mjs --retest js/X.js [--timeouts]
// --retest drops the file's survivors (and no-coverage mutants; with
// --timeouts, its timeouts too, e.g. after a run on a loaded machine) from
// the results, so the next `npm run test:mutation -- --mutate js/X.js` tests them
// again (after new tests) and reuses every other result.
import { readFileSync, writeFileSync } from 'node:fs';

const FILE = 'tests/mutation/stryker-incremental.json';
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const report = JSON.parse(readFileSync(FILE, 'utf8'));
const LEFT = new Set(['Survived', 'NoCoverage']);

const retest = opt('--retest');
if (retest !== undefined) {
  const entry = report.files[retest];
  if (!entry) {
    console.error(`mutation-report: no results for ${retest} in ${FILE}`);
    process.exit(2);
  }
  const before = entry.mutants.length;
  const drop = args.includes('--timeouts') ? new Set([...LEFT, 'Timeout']) : LEFT;
  entry.mutants = entry.mutants.filter((m) => !drop.has(m.status));
  writeFileSync(FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`${retest}: ${before - entry.mutants.length} survivors dropped; the next run tests them again`);
  process.exit(0);
}

const only = opt('--file');
const markdown = args.includes('--markdown');
const rows = [];
for (const [file, { mutants }] of Object.entries(report.files).sort()) {
  if (only && file !== only) continue;
  const count = (s) => mutants.filter((m) => m.status === s).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const valid = mutants.length - count('Ignored') - count('CompileError') - count('RuntimeError');
  const score = valid ? (100 * (killed + timeout)) / valid : NaN;
  rows.push({ file, mutants: mutants.length, killed, survived, timeout, noCoverage, score });
  if (!markdown) {
    console.log(`${file}: ${score.toFixed(1)} % of ${mutants.length} mutants (killed ${killed}, survived ${survived}, timeout ${timeout}, no coverage ${noCoverage})`);
    for (const m of mutants.filter((x) => LEFT.has(x.status)).sort((a, b) => a.location.start.line - b.location.start.line))
      console.log(`  ${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? '')}`);
  }
}
if (markdown) {
  console.log('| file | score | mutants | killed | survived | timeout | no coverage |\n|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| \`${r.file}\` | ${r.score.toFixed(1)} % | ${r.mutants} | ${r.killed} | ${r.survived} | ${r.timeout} | ${r.noCoverage} |`);
}
