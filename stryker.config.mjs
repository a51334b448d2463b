// StrykerJS mutation testing of the package's JS layer (`npm run test:mutation`),
// one file at a time: `npm run test:mutation -- --mutate js/errors.js`.
// Each mutant is tested by scripts/mutation-tests.sh with the node suites of
// tests/js/ that exercise the mutated file (scripts/mutation-suites.mjs, picked
// here from the --mutate of the command line, or SINPE_MUTATION_SUITES), run
// against the sandbox's own js/ (the package's self-reference). Results are
// kept in tests/mutation/stryker-incremental.json (incremental mode): a later
// run retests only mutants that are new or whose file changed. See docs/mutation.md.
import { suitesOfThisRun } from './scripts/mutation-suites.mjs';

const suites = suitesOfThisRun();

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['js/**/*.js'],
  testRunner: 'command',
  commandRunner: { command: `bash scripts/mutation-tests.sh ${suites.join(' ')}` },
  // The sandbox needs the package (package.json, js/), the built wasm modules
  // (dist/, which .gitignore hides from git but not from Stryker), the node
  // suites and the Python references two of them run (tests/py); nothing else.
  ignorePatterns: ['/*', '!/package.json', '!/js', '!/dist', '!/scripts', '!/tests', '/tests/*', '!/tests/js', '!/tests/py'],
  // One mutant at a time: the machine it is built on has 2 cores, shared.
  concurrency: 1,
  incremental: true,
  incrementalFile: 'tests/mutation/stryker-incremental.json',
  // A mutant that makes a loop endless is stopped after the normal run time
  // times timeoutFactor plus timeoutMS, and counted as a timeout. Generous: on
  // a loaded shared machine a normal run can take several times the dry run's
  // time, and a mutant stopped for that would count as killed.
  timeoutMS: 90000,
  timeoutFactor: 3,
  tempDirName: 'build/stryker-tmp',
  cleanTempDir: 'always',
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'build/mutation/index.html' },
  jsonReporter: { fileName: 'build/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
};
