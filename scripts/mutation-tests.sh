#!/usr/bin/env bash
# The test command StrykerJS runs once per mutant (stryker.config.mjs, which
# passes the suites of the mutated file from scripts/mutation-suites.mjs). It
# runs in Stryker's sandbox, a copy of the repository whose js/ is mutated; the
# suites import `sinpe.wasm` by name, which Node resolves to the sandbox's own
# js/sinpe.js through the package's self-reference ("name" and "exports" in
# package.json), so the mutated files are what the tests load. The `sinpe`
# command (onnx-cli) is run through a node_modules/.bin/sinpe link to the
# sandbox's js/cli.js in a scratch project. The suites run one after another
# and stop at the first failure, so a killed mutant costs only the suites up
# to the one that caught it.
# Usage: scripts/mutation-tests.sh suite[.test.mjs] ...
# Size knobs (smaller than npm test's, not zero): SINPE_PROPERTY_VALID,
# SINPE_PROPERTY_INVALID, SINPE_HOSTILE_RUNS.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
[ -f dist/sinpe-vocabulary.js ] || { echo "mutation-tests: dist/ is missing (bash scripts/build.sh)" >&2; exit 1; }
[ $# -gt 0 ] || { echo "mutation-tests: no suite given" >&2; exit 1; }
export SINPE_PROPERTY_VALID="${SINPE_PROPERTY_VALID:-200}"
export SINPE_PROPERTY_INVALID="${SINPE_PROPERTY_INVALID:-200}"
export SINPE_HOSTILE_RUNS="${SINPE_HOSTILE_RUNS:-4}"
# The Python references (rope-index-batch) are found through it.
export SINPE_REPO_ROOT="$root"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/sinpe-mutation-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/node_modules/.bin"
echo '{ "name": "sinpe-mutation-scratch", "private": true }' >"$scratch/package.json"
ln -s "$root/js/cli.js" "$scratch/node_modules/.bin/sinpe"
# Stryker copies js/cli.js into the sandbox without its executable bit, which
# npx (onnx-cli's --help test) needs to run the link.
chmod +x "$root/js/cli.js"
# Suites that run `node -e "import … from 'sinpe.wasm'"` in a child process
# (engine-args, rules) resolve the package from the scratch project: the sandbox.
ln -s "$root" "$scratch/node_modules/sinpe.wasm"
for s in "$@"; do
  s="$(basename "$s" .test.mjs)"
  [ -f "tests/js/$s.test.mjs" ] || { echo "mutation-tests: no suite tests/js/$s.test.mjs" >&2; exit 1; }
  (cd "$scratch" && node --test --test-reporter=dot "$root/tests/js/$s.test.mjs") >/dev/null 2>&1 || { echo "mutation-tests: $s failed" >&2; exit 1; }
done
