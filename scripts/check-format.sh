#!/usr/bin/env bash
# Checks that the C++ sources (cpp/, tests/cpp/, the fuzzer, the native
# benchmark) are formatted as .clang-format says, with Debian's clang-format 14.
# Lists the files that are not; `--fix` formats them in place instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cf=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$cf" ] || { echo "check-format: clang-format not found (Debian package clang-format)" >&2; exit 1; }
mapfile -t files < <(find cpp tests/cpp tests/fuzz tests/bench -maxdepth 3 -type f \
  \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.def' \) \
  -not -path 'tests/fuzz/corpus/*' -not -path 'tests/fuzz/regressions/*' | sort)
if [ "${1:-}" = --fix ]; then
  "$cf" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$cf" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: ${#bad[@]} of ${#files[@]} files differ from .clang-format ($("$cf" --version | sed 's/.*version //')):"
  printf '  %s\n' "${bad[@]}"
  echo "check-format: see the changes with '$cf --dry-run FILE'; apply them with 'bash scripts/check-format.sh --fix'"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted as .clang-format says"
