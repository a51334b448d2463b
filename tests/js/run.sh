#!/usr/bin/env bash
# Runs the package API tests against the packed tarball installed in a fresh
# temporary project, so they see exactly what users get from `npm install`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
project="$(bash "$root/scripts/pack-into-project.sh")"
trap 'rm -rf "$project"' EXIT
mkdir -p "$project/test"
cp "$root"/tests/js/*.test.mjs "$root"/tests/js/reference.mjs "$project/test/"
cd "$project"
node --test --test-reporter=spec test/*.test.mjs
