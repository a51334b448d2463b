#!/usr/bin/env bash
# Builds one CMake preset (CMakePresets.json: native, wasm, asan, fuzz; build
# folder build/<preset>). Configures first when the folder has not been
# configured with the presets file as it is; otherwise `cmake --build` re-runs
# the configure step by itself when a CMakeLists.txt changed, so a no-op build
# stays fast.
# Usage: scripts/cmake-build.sh PRESET [more `cmake --build` arguments]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
preset="$1"
shift
cd "$root"
mkdir -p build
# One build of a folder at a time: two make runs in one folder corrupt each other's outputs.
exec 9>"build/$preset.lock"
flock 9
stamp="build/$preset/preset-configured.stamp"
if [ ! -f "build/$preset/CMakeCache.txt" ] || [ ! -f "$stamp" ] || [ CMakePresets.json -nt "$stamp" ]; then
  cmake --preset "$preset" >/dev/null
  touch "$stamp"
fi
cmake --build --preset "$preset" -j"$(nproc)" "$@"
