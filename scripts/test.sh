#!/usr/bin/env bash
# `npm test`: set up what is missing, build, run every suite, print a summary.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh || exit 1
bash scripts/build.sh || exit 1

passed=0
failed=0
failed_names=()
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
    failed_names+=("$name")
    summary+=("  FAIL  $name ($((SECONDS - t0)) s)")
  fi
}

run "Catch2, native (g++)" ctest --test-dir build/native --output-on-failure
run "Catch2, wasm (em++ SIMD + baseline, under Node)" ctest --test-dir build/wasm --output-on-failure
run "package API (node --test, packed tarball)" bash tests/js/run.sh
run "lesson site (headless Chromium)" bash tests/browser/run.sh

# --- hardening (issue 5): each suite appends its numbers to build/hardening-summary.txt
export HARDENING_SUMMARY="$root/build/hardening-summary.txt"
rm -f "$HARDENING_SUMMARY"
run "hardening: Catch2 under ASan + UBSan (clang++)" bash tests/hardening/sanitizers.sh
run "hardening: libFuzzer on the core (${SINPE_FUZZ_SECONDS:-30} s)" bash tests/hardening/fuzz.sh
run "hardening: property tests (fast-check)" node tests/hardening/properties.mjs --valid 10000 --invalid 10000 --summary "$HARDENING_SUMMARY"
run "hardening: memory over 1,000,000 calls" node --expose-gc tests/hardening/memory.mjs --summary "$HARDENING_SUMMARY"
run "consumers, engines and package hygiene" node tests/consumers/run.mjs

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
if [ -s "$HARDENING_SUMMARY" ]; then
  echo "--- hardening"
  sed 's/^/  /' "$HARDENING_SUMMARY"
fi
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
