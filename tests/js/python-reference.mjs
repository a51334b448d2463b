// Runs one of the repository's independent Python references (tests/py/) and
// returns its standard output; a missing repository, script or interpreter, or
// a non-zero exit, fails the calling test. Needs SINPE_REPO_ROOT (tests/js/run.sh
// exports it) and a Python 3 with numpy (SINPE_PYTHON, else Debian's
// /usr/bin/python3, else python3 on PATH).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = process.env.SINPE_REPO_ROOT;
const PYTHON = process.env.SINPE_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

/** Runs tests/py/<name> with args, `input` on its standard input; its standard output. */
export function runPython(name, args, input) {
  assert.ok(ROOT, 'SINPE_REPO_ROOT is not set (tests/js/run.sh sets it to the repository)');
  const script = join(ROOT, 'tests', 'py', name);
  assert.ok(existsSync(script), `${script} is missing`);
  const result = spawnSync(PYTHON, [script, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(result.error, undefined, `running ${PYTHON}: ${result.error?.message}`);
  assert.equal(result.status, 0, `${PYTHON} ${script} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}
