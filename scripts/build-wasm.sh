#!/usr/bin/env bash
# Configures and builds the wasm flavours and the wasm Catch2 tests, then copies
# the package's modules into dist/. Incremental: fast when nothing changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# Debian's emscripten 3.1.6 needs Debian's node modules (acorn) on NODE_PATH.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
build="$root/build/wasm"
if [ ! -f "$build/CMakeCache.txt" ]; then
  emcmake cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"$(nproc)"
mkdir -p "$root/dist"
for f in sinpe-simd.mjs sinpe-simd.wasm sinpe-baseline.mjs sinpe-baseline.wasm; do
  cmp -s "$build/$f" "$root/dist/$f" || cp "$build/$f" "$root/dist/$f"
done
