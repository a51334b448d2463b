#!/usr/bin/env bash
# Fuzzes the C++ core (tests/fuzz/fuzz_core.cpp, libFuzzer + ASan + UBSan, CMake
# preset fuzz, build dir build/fuzz) for a bounded time, after replaying every
# regression input. Each run starts from the same corpus, a fresh temporary
# copy of tests/fuzz/corpus and tests/fuzz/regressions, so one run does not
# depend on what earlier runs on this machine found; new entries are dropped
# with it. A crash is saved in build/fuzz/ and fails the run: copy it to
# tests/fuzz/regressions/ so every later run replays it.
# SINPE_FUZZ_SECONDS overrides the 30 s budget, SINPE_FUZZ_SEED the seed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build/fuzz"
seconds="${SINPE_FUZZ_SECONDS:-30}"
summary="${SINPE_SUMMARY:-/dev/null}"
mkdir -p "$build"
bash "$root/scripts/cmake-build.sh" fuzz >"$build/build.log" 2>&1 || { cat "$build/build.log"; exit 1; }
# One fuzz run at a time: runs share build/fuzz's logs and corpus.
exec 8>"$build/run.lock"
flock 8
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
cd "$build"

# 1. The seeds and every input that ever failed must pass.
regressions=("$root"/tests/fuzz/regressions/*)
"$build/sinpe_fuzz" "${regressions[@]}" >regressions.log 2>&1 || { cat regressions.log; exit 1; }
echo "regressions: ${#regressions[@]} inputs replayed, all pass"

# 2. Bounded fuzzing from a fresh corpus: the seeds and the regressions.
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
cp "$root"/tests/fuzz/corpus/* "$root"/tests/fuzz/regressions/* "$corpus"/
seeded=$(ls "$corpus" | wc -l)
"$build/sinpe_fuzz" "$corpus" -seed="${SINPE_FUZZ_SEED:-0}" -max_total_time="$seconds" \
  -max_len=512 -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$build/" >fuzz.log 2>&1 || {
  grep -v "^#[0-9]" fuzz.log | tail -60
  echo "fuzz: FAILED; reproducer saved as $(ls -t "$build"/crash-* "$build"/leak-* "$build"/timeout-* 2>/dev/null | head -1)"
  exit 1
}
execs=$(awk -F: '/stat::number_of_executed_units/ {gsub(/ /, "", $NF); print $NF}' fuzz.log)
rate=$(awk -F: '/stat::average_exec_per_sec/ {gsub(/ /, "", $NF); print $NF}' fuzz.log)
cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+" fuzz.log | tail -1)
units=$(ls "$corpus" | wc -l)
echo "fuzz: $execs executions in $seconds s ($rate exec/s), $cov, corpus $seeded inputs at the start, $units at the end, no crash"
echo "fuzz: $execs executions in $seconds s ($rate/s, $cov), ${#regressions[@]} regression inputs replayed, no crash, leak or UB" >>"$summary"
