#!/usr/bin/env bash
# The test command StrykerJS runs once per mutant (stryker.config.mjs). It runs
# in Stryker's sandbox, a copy of the repository whose js/ is mutated; the suites
# import `sinpe.wasm` by name, which Node resolves to the sandbox's own
# js/sinpe.js through the package's self-reference ("name" and "exports" in
# package.json), so the mutated files are what the tests load. The suites run
# one after another and stop at the first failure, so a killed mutant costs
# only the suites up to the one that caught it; the messages suite goes first
# because it raises every status through the API, which reaches most of js/.
# Usage: scripts/mutation-tests.sh [suite.test.mjs ...]   (default: the list below)
# Size knobs (smaller than npm test's): SINPE_PROPERTY_VALID, SINPE_PROPERTY_INVALID,
# SINPE_HOSTILE_RUNS.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
[ -f dist/sinpe-vocabulary.js ] || { echo "mutation-tests: dist/ is missing (bash scripts/build.sh)" >&2; exit 1; }
export SINPE_PROPERTY_VALID="${SINPE_PROPERTY_VALID:-300}"
export SINPE_PROPERTY_INVALID="${SINPE_PROPERTY_INVALID:-300}"
export SINPE_HOSTILE_RUNS="${SINPE_HOSTILE_RUNS:-4}"
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(messages api prepare reentry hostile properties rope)
for s in "${suites[@]}"; do
  s="$(basename "$s" .test.mjs)"
  node --test --test-reporter=dot "tests/js/$s.test.mjs" >/dev/null 2>&1 || { echo "mutation-tests: $s failed" >&2; exit 1; }
done
