#!/usr/bin/env bash
# Configures and builds the wasm flavours and the wasm Catch2 tests, then copies
# the package's modules into dist/. Incremental: fast when nothing changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build/wasm"
# The wasm preset uses Debian's Emscripten toolchain file and puts Debian's node
# modules (acorn, which em++ 3.1.6 runs when linking) on NODE_PATH.
bash "$root/scripts/cmake-build.sh" wasm
mkdir -p "$root/dist"
for f in sinpe-simd.mjs sinpe-simd.wasm sinpe-baseline.mjs sinpe-baseline.wasm sinpe-vocabulary.js sinpe-vocabulary.d.ts; do
  cmp -s "$build/$f" "$root/dist/$f" || cp "$build/$f" "$root/dist/$f"
done
