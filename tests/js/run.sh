#!/usr/bin/env bash
# Runs the node --test suites of tests/js (*.test.mjs) against the packed
# tarball installed in a fresh temporary project, so they import `sinpe.wasm`
# by name and see exactly what users get from `npm install`. The dev packages
# the suites import (fast-check, onnxruntime-node, onnx-proto,
# @huggingface/transformers for a comparison) are linked from
# this repository's node_modules; the suites' helpers (tests/js/*.mjs) and
# tests/js/fixtures/ are copied next to them.
# Usage: tests/js/run.sh [suite.test.mjs ...]   (default: every suite)
# Size knobs: SINPE_PROPERTY_VALID, SINPE_PROPERTY_INVALID, SINPE_MEMORY_CALLS.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
project="$(bash "$root/scripts/pack-into-project.sh")"
trap 'rm -rf "$project"' EXIT
for pkg in fast-check onnxruntime-node onnx-proto @huggingface/transformers; do
  if [ ! -d "$root/node_modules/$pkg" ]; then
    echo "tests/js: $pkg is not in node_modules (scripts/setup.sh installs it)" >&2
    # Only rope-index-batch.test.mjs imports transformers.js (and fails without it).
    [ "$pkg" = @huggingface/transformers ] && continue
    exit 1
  fi
  mkdir -p "$(dirname "$project/node_modules/$pkg")"
  ln -s "$root/node_modules/$pkg" "$project/node_modules/$pkg"
done
mkdir -p "$project/test"
cp "$root"/tests/js/*.mjs "$project/test/"
if [ -d "$root/tests/js/fixtures" ]; then cp -r "$root/tests/js/fixtures" "$project/test/"; fi
cd "$project"
# Suites that run the repository's own tools (the Python RoPE reference) find them here.
export SINPE_REPO_ROOT="$root"
suites=()
for f in "$@"; do suites+=("test/$(basename "$f")"); done
[ ${#suites[@]} -gt 0 ] || suites=(test/*.test.mjs)
# --expose-gc: the memory suite measures the JS heap after full collections.
node --expose-gc --test --test-reporter=spec "${suites[@]}"
