#!/usr/bin/env bash
# `npm test`: sets up what is missing, builds, runs every suite grouped by
# subject, prints a summary. A suite may append one-line counts to the file
# named by $SINPE_SUMMARY; they are printed with the summary.
#
# No suite passes by running nothing: each reports how many tests (or files,
# fuzz runs, checked benchmark methods, consumer setups) it ran, read from its
# own output, and a suite that ran fewer than its floor below fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh || exit 1
bash scripts/build.sh || exit 1
bash scripts/build-site.sh || exit 1

export SINPE_SUMMARY="$root/build/test-summary.txt"
: >"$SINPE_SUMMARY"
logs="$root/build/test-logs"
rm -rf "$logs"
mkdir -p "$logs"

# The floors: the least count each suite must report (a bit below today's).
declare -A floor=(
  [lint]=215                # files linted (227 today)
  [format]=41               # C++ files checked (44 today)
  [native]=52               # Catch2 test cases (56 today)
  [wasm]=106                # Catch2 test cases, both flavours together (112 today)
  [fuzz]=200                # fuzz runs (executions) after the regression inputs; the rate depends on the load
  [js]=850                  # node --test tests passed (887 today)
  [consumers]=11            # consumer setups passed (12 today)
  [bench]=60                # sinpe methods whose values were checked (64 today)
  [web]=115                 # node --test tests passed (122 today)
  [browser]=62              # node --test tests passed, quick form (67 today, with the full form's smoke; the full form: npm run test:browser:full)
  [webkit]=6                # WebKitGTK checks passed (7 today, with the smoke of test:webkit: the esbuild app, one more lesson)
  [faults]=2                # injected faults caught (quick form)
  [smokes]=2                # full forms started on one case here (sanitizers, mutation; browser and WebKit smokes are in their suites)
)
declare -A unit=(
  [lint]="files linted" [format]="files checked" [native]="Catch2 test cases" [wasm]="Catch2 test cases"
  [fuzz]="fuzz runs" [js]="tests" [consumers]="consumer setups"
  [bench]="methods checked" [web]="tests" [browser]="tests" [webkit]="checks" [faults]="faults caught"
  [smokes]="full forms started"
)

# The count a suite reported, from its log; empty when it reported none.
add_up() { awk '{ s += $1 } END { if (NR) print s }'; }
count_of() {
  local key="$1" log="$2"
  case "$key" in
    lint) grep -oP '^eslint: \K[0-9]+(?= files linted)' "$log" | tail -1 ;;
    format) grep -oP '^check-format: \K[0-9]+(?= files formatted)' "$log" | tail -1 ;;
    native | wasm) grep -oP '^catch2 count: \K[0-9]+' "$log" | add_up ;;
    fuzz) grep -oP '^fuzz: \K[0-9]+(?= executions)' "$log" | tail -1 ;;
    # node --test: "ℹ pass N" (spec reporter) or "# pass N" (tap), once per run.
    js | web | browser) grep -aoP '^(ℹ|#) pass \K[0-9]+' "$log" | add_up ;;
    consumers) grep -oP '^consumers: \K[0-9]+(?=/[0-9]+ passed)' "$log" | tail -1 ;;
    bench) grep -oP '^bench: \K[0-9]+(?= sinpe methods checked)' "$log" | tail -1 ;;
    webkit) grep -oP '^WebKitGTK.*?: \K[0-9]+(?=/[0-9]+ checks passed)' "$log" | tail -1 ;;
    faults) grep -oP '^faults: \K[0-9]+(?= of [0-9]+ injected faults caught)' "$log" | tail -1 ;;
    smokes) grep -oP '^smokes: \K[0-9]+(?= of [0-9]+ full forms ran one case)' "$log" | tail -1 ;;
  esac
}

# Catch2 through ctest: ctest shows a passing test's output only in its log,
# Testing/Temporary/LastTest.log, where each Catch2 binary ends with
# "All tests passed (A assertions in N test cases)" (coloured under Node);
# prints N per binary.
catch2_ctest() {
  local preset="$1" last="$root/build/$1/Testing/Temporary/LastTest.log"
  rm -f "$last"
  ctest --preset "$preset" || return 1
  [ -f "$last" ] || { echo "ctest wrote no log ($last)"; return 1; }
  sed 's/\x1b\[[0-9;]*m//g' "$last" | grep -oP 'All tests passed \(\K[0-9]+ assertions? in [0-9]+ test cases?' |
    while read -r a _ _ n _; do echo "catch2 count: $n test cases ($a assertions)"; done
}

# The full forms npm test does not run whole, each started on one case so that
# it cannot rot unseen (the browser and WebKitGTK suites run theirs: a file of
# the full form, an app and a lesson of --all's): test:sanitizers on one small
# test file and its canaries, test:mutation on one line of js/errors.js.
full_form_smokes() {
  local n=0 t0
  t0=$SECONDS
  if bash tests/cpp/sanitizers.sh --smoke; then n=$((n + 1)); fi
  echo "(test:sanitizers smoke: $((SECONDS - t0)) s)"
  t0=$SECONDS
  if node tests/mutation/smoke.mjs; then n=$((n + 1)); fi
  echo "(test:mutation smoke: $((SECONDS - t0)) s)"
  echo "smokes: $n of 2 full forms ran one case (npm run test:sanitizers, npm run test:mutation)"
  [ "$n" -eq 2 ]
}

# run NAME KEY COMMAND...: one suite. Its output goes to build/test-logs/KEY.log
# and is printed whole when it ends (the two lanes below run at once, so
# output is never interleaved); its result goes to KEY.result.
run() {
  local name="$1" key="$2"
  shift 2
  local t0=$SECONDS log="$logs/$key.log" ok=1
  "$@" >"$log" 2>&1 || ok=0
  local n
  n="$(count_of "$key" "$log")"
  local line="$key: ${n:-no count of} ${unit[$key]} reported (floor ${floor[$key]})"
  if [ -z "$n" ] || [ "$n" -lt "${floor[$key]}" ]; then
    ok=0
    line="$line: BELOW THE FLOOR"
  fi
  local status=ok
  [ "$ok" -eq 1 ] || status=FAIL
  {
    flock 9
    echo
    echo "=== $name: $* ($((SECONDS - t0)) s)"
    cat "$log"
    echo "$line"
  } 9>"$logs/.print.lock"
  printf '%s\n%s\n' "$(printf '  %-4s  %s (%s s)' "$status" "$name" "$((SECONDS - t0))")" "  $line" >"$logs/$key.result"
}

# Two lanes at once on the 2-core machine: the C++ toolchain's suites (each
# mostly one compiler or one test process) beside the package and site suites
# (mostly one browser or Node process waiting on another). Within a lane the
# suites run in order. Nothing in one lane writes what the other reads: the
# builds both need are done above; the faults and sanitizer builds have their
# own build directories.
lane_core() {
  run "lint (ESLint)" lint npm run --silent lint
  run "C++ format (clang-format)" format bash scripts/check-format.sh
  run "Catch2, native (g++)" native catch2_ctest native
  run "Catch2, wasm (em++ SIMD + baseline, under Node)" wasm catch2_ctest wasm
  run "libFuzzer on the core (${SINPE_FUZZ_SECONDS:-30} s)" fuzz bash tests/fuzz/fuzz.sh
  run "smokes of the full forms (test:sanitizers on one test file and its canaries, test:mutation on one line)" smokes full_form_smokes
  run "site model (node --test)" web node --test tests/web/
  run "WebKitGTK (the Vite app from the tarball, both flavours; the formula, heatmap and rope lessons)" webkit node tests/browser/webkit.mjs
  # The benchmark, reduced: every value checked, nothing asserted about time.
  run "benchmark, quick form" bench node tests/bench/run.mjs --quick
  # Plausible bugs built into a copy of the tree must each fail a suite.
  run "injected faults, quick form (npm run test:faults runs all)" faults node tests/faults/run.mjs --quick
}
lane_package() {
  # The package, installed from its packed tarball
  run "package API, properties (fast-check), memory over 1,000,000 calls (node --test)" js bash tests/js/run.sh
  run "consumers, engines and package hygiene" consumers node tests/consumers/run.mjs
  # The lesson site
  run "lesson site, quick form (headless Chromium; the formula lesson in Firefox ESR; npm run test:browser:full runs all)" browser bash tests/browser/run.sh
}
order=(lint format native wasm fuzz smokes js consumers bench web browser webkit faults)
rm -f "$logs"/*.result
lane_core &
core=$!
lane_package &
package=$!
wait "$core" "$package"

passed=0
failed=0
summary=()
counts=()
for key in "${order[@]}"; do
  if [ ! -f "$logs/$key.result" ]; then
    failed=$((failed + 1))
    summary+=("  FAIL  $key (did not run)")
    continue
  fi
  mapfile -t r <"$logs/$key.result"
  summary+=("${r[0]}")
  counts+=("${r[1]}")
  if [[ "${r[0]}" == "  ok"* ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "--- counts (floors in scripts/test.sh)"
printf '%s\n' "${counts[@]}"
if [ -s "$SINPE_SUMMARY" ]; then
  echo "--- details"
  sed 's/^/  /' "$SINPE_SUMMARY"
fi
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
