// Node runner: both flavours of the package in this one process, every case of
// cases.mjs. Prints the result as JSON on stdout (progress on stderr).
//   node tests/bench/node.mjs [--quick] [--quiet]
import sinpe from '../../js/sinpe.js';
import { runBench } from './cases.mjs';

const quick = process.argv.includes('--quick');
const quiet = process.argv.includes('--quiet');
const log = quiet ? () => {} : (m) => process.stderr.write(`[node] ${m}\n`);

const simd = await sinpe({ simd: true });
const baseline = await sinpe({ simd: false });
const { rows, skipped, meta } = await runBench({ simd, baseline, now: () => performance.now(), log, quick });
const result = {
  env: 'node',
  runtime: `Node ${process.version} (V8 ${process.versions.v8})`,
  ...meta,
  skipped,
  rows,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
