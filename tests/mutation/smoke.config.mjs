// The Stryker configuration of npm test's smoke of `npm run test:mutation`
// (tests/mutation/smoke.mjs): the project's own (stryker.config.mjs: the same
// command runner, sandbox, ignore patterns and timeouts), with the results
// neither read from nor written to tests/mutation/stryker-incremental.json,
// and reports of its own under build/mutation-smoke/.
import config from '../../stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...config,
  incremental: false,
  reporters: ['json'],
  jsonReporter: { fileName: 'build/mutation-smoke/mutation.json' },
  tempDirName: 'build/stryker-smoke-tmp',
};
