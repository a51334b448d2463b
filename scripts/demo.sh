#!/usr/bin/env bash
# Packs sinpe.wasm, installs the tarball into an empty temporary project, imports
# it from Node ESM exactly as a user would, and prints pe.table(3, 4) (seed 001).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
project="$(bash "$root/scripts/pack-into-project.sh")"
trap 'rm -rf "$project"' EXIT
cat > "$project/demo.mjs" <<'JS'
import sinpe from 'sinpe.wasm';
const pe = await sinpe();
const t = pe.table(3, 4);
console.log(`sinpe.wasm ${pe.version} (${pe.simd ? 'SIMD' : 'baseline'}) from ${import.meta.resolve('sinpe.wasm')}`);
for (let pos = 0; pos < 3; pos++) console.log(`pos ${pos}:`, Array.from(t.subarray(pos * 4, pos * 4 + 4), (v) => v.toFixed(7)).join('  '));
JS
(cd "$project" && node demo.mjs)
