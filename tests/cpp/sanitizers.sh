#!/usr/bin/env bash
# The native Catch2 suite built with clang++ under AddressSanitizer +
# UndefinedBehaviorSanitizer (CMake preset asan, build dir build/asan), with
# leak detection on. Any report fails the run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build/asan"
summary="${SINPE_SUMMARY:-/dev/null}"
mkdir -p "$build"
bash "$root/scripts/cmake-build.sh" asan >"$build/build.log" 2>&1 || { cat "$build/build.log"; exit 1; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
t0=$(date +%s%N)
out="$("$build/sinpe_tests" 2>&1)" || { echo "$out"; exit 1; }
# A report that did not stop the run fails it too.
if grep -q "runtime error\|ERROR: AddressSanitizer\|ERROR: LeakSanitizer" <<<"$out"; then echo "$out"; exit 1; fi
line=$(grep -E "^All tests passed" <<<"$out")
ms=$((($(date +%s%N) - t0) / 1000000))
secs="$((ms / 1000)).$(((ms % 1000) / 100))"
echo "Catch2 under ASan + UBSan + LeakSanitizer (clang++): $line in $secs s"
echo "sanitizers: Catch2 native suite under ASan+UBSan+LSan: ${line#All tests passed }" >>"$summary"
