#!/usr/bin/env bash
# The native Catch2 suite built with clang++ under AddressSanitizer +
# UndefinedBehaviorSanitizer (CMake preset asan, build dir build/asan), with
# leak detection on. Any report fails the run.
# --smoke (npm test's smoke of this form): the same preset, options and checks
# on one small test file (tests/cpp/test_trig.cpp, target
# sinpe_sanitizers_smoke, built in seconds), and the canaries of
# tests/cpp/sanitizer_canary.cpp, each of which must be stopped by its
# sanitizer's report.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build/asan"
summary="${SINPE_SUMMARY:-/dev/null}"
smoke=0
[ "${1:-}" = --smoke ] && smoke=1
target=sinpe_tests
[ "$smoke" = 1 ] && target=sinpe_sanitizers_smoke
mkdir -p "$build"
bash "$root/scripts/cmake-build.sh" asan --target "$target" >"$build/build.log" 2>&1 || { cat "$build/build.log"; exit 1; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
t0=$(date +%s%N)
out="$("$build/$target" 2>&1)" || { echo "$out"; exit 1; }
# A report that did not stop the run fails it too.
if grep -q "runtime error\|ERROR: AddressSanitizer\|ERROR: LeakSanitizer" <<<"$out"; then echo "$out"; exit 1; fi
line=$(grep -E "^All tests passed" <<<"$out")
ms=$((($(date +%s%N) - t0) / 1000000))
secs="$((ms / 1000)).$(((ms % 1000) / 100))"
if [ "$smoke" = 0 ]; then
  echo "Catch2 under ASan + UBSan + LeakSanitizer (clang++): $line in $secs s"
  echo "sanitizers: Catch2 native suite under ASan+UBSan+LSan: ${line#All tests passed }" >>"$summary"
  exit 0
fi
# The canaries: each deliberate error must stop its run with its report.
canaries=0
for canary in "AddressSanitizer reports a heap read one past the end:ERROR: AddressSanitizer: heap-buffer-overflow" \
  "UndefinedBehaviorSanitizer reports a signed overflow:runtime error: signed integer overflow" \
  "LeakSanitizer reports an allocation never freed:ERROR: LeakSanitizer: detected memory leaks"; do
  name="canary: ${canary%%:*}" report="${canary#*:}"
  if c="$("$build/$target" "$name" 2>&1)"; then
    echo "$c"
    echo "sanitizers smoke: '$name' ran to the end: the build is not instrumented or the options are off"
    exit 1
  fi
  grep -qF "$report" <<<"$c" || { echo "$c"; echo "sanitizers smoke: '$name' failed without the report '$report'"; exit 1; }
  echo "  ok    $name ($report)"
  canaries=$((canaries + 1))
done
echo "sanitizers smoke: test_trig.cpp under ASan + UBSan + LeakSanitizer (clang++): $line in $secs s; $canaries of 3 canaries stopped by their sanitizer"
