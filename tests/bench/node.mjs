// Node runner: both flavours of the package in this one process, every case of
// cases.mjs. Prints the result as JSON on stdout (progress on stderr).
//   node tests/bench/node.mjs [--quiet]
import sinpe from '../../js/sinpe.js';
import { runBench } from './cases.mjs';

const quiet = process.argv.includes('--quiet');
const log = quiet ? () => {} : (m) => process.stderr.write(`[node] ${m}\n`);

const simd = await sinpe({ simd: true });
const baseline = await sinpe({ simd: false });
const { rows, meta } = await runBench({ simd, baseline, now: () => performance.now(), log });
const result = {
  env: 'node',
  runtime: `Node ${process.version} (V8 ${process.versions.v8})`,
  ...meta,
  rows,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
