#!/usr/bin/env bash
# Builds the native core and tests, the two wasm flavours and their tests.
# Incremental: a no-op build takes a second or two.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$root/build"
bash "$root/scripts/cmake-build.sh" native >"$root/build/native-build.log" 2>&1 || { cat "$root/build/native-build.log"; exit 1; }
bash "$root/scripts/build-wasm.sh" >"$root/build/wasm-build.log" 2>&1 || { cat "$root/build/wasm-build.log"; exit 1; }
echo "build: native core, wasm simd + baseline -> dist/"
