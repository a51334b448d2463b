#!/usr/bin/env bash
# `npm test`: sets up what is missing, builds, runs every suite grouped by
# subject, prints a summary. A suite may append one-line counts to the file
# named by $SINPE_SUMMARY; they are printed with the summary.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh || exit 1
bash scripts/build.sh || exit 1

export SINPE_SUMMARY="$root/build/test-summary.txt"
: >"$SINPE_SUMMARY"

passed=0
failed=0
summary=()
# run NAME COMMAND...: one suite; its output streams through.
run() {
  local name="$1"
  shift
  echo
  echo "=== $name: $*"
  local t0=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
    summary+=("  ok    $name ($((SECONDS - t0)) s)")
  else
    failed=$((failed + 1))
    summary+=("  FAIL  $name ($((SECONDS - t0)) s)")
  fi
}

# Source checks
run "lint (ESLint)" npm run --silent lint
run "C++ format (clang-format)" bash scripts/check-format.sh

# C++ core
run "Catch2, native (g++)" ctest --preset native
run "Catch2, wasm (em++ SIMD + baseline, under Node)" ctest --preset wasm
run "Catch2 under ASan + UBSan (clang++)" bash tests/cpp/sanitizers.sh
run "libFuzzer on the core (${SINPE_FUZZ_SECONDS:-30} s)" bash tests/fuzz/fuzz.sh

# The package, installed from its packed tarball
run "package API, properties (fast-check), memory over 1,000,000 calls (node --test)" bash tests/js/run.sh
run "consumers, engines and package hygiene" node tests/consumers/run.mjs

# The benchmark, reduced: every value checked, nothing asserted about time
run "benchmark, quick form" npm run --silent bench -- --quick

# The lesson site
run "site model (node --test)" node --test tests/web/
run "lesson site (headless Chromium; lesson 1 in Firefox ESR)" bash tests/browser/run.sh
run "WebKitGTK (the Vite app from the tarball, both flavours; lessons 1, 2, 9)" node tests/browser/webkit.mjs

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
if [ -s "$SINPE_SUMMARY" ]; then
  echo "--- counts"
  sed 's/^/  /' "$SINPE_SUMMARY"
fi
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
