// StrykerJS mutation testing of the package's JS layer (`npm run test:mutation`).
// Each mutant is tested by scripts/mutation-tests.sh, which runs the node suites
// of tests/js/ against the sandbox's own js/ (the package's self-reference).
// A subset of the files: `npm run test:mutation -- --mutate js/errors.js`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['js/*.js'],
  testRunner: 'command',
  commandRunner: { command: 'bash scripts/mutation-tests.sh' },
  // The sandbox needs the package (package.json, js/), the built wasm modules
  // (dist/, which .gitignore hides from git but not from Stryker) and the
  // node suites; nothing else is copied.
  ignorePatterns: ['/*', '!/package.json', '!/js', '!/dist', '!/scripts', '!/tests', '/tests/*', '!/tests/js'],
  concurrency: 2,
  // A mutant that makes a loop endless is stopped after the normal run time
  // times timeoutFactor plus timeoutMS, and counted as a timeout.
  timeoutMS: 20000,
  timeoutFactor: 1.5,
  tempDirName: 'build/stryker-tmp',
  cleanTempDir: 'always',
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'build/mutation/index.html' },
  jsonReporter: { fileName: 'build/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
};
