#!/usr/bin/env bash
# Packs this package with `npm pack` and installs the tarball into a new empty
# project. Prints the project's folder on stdout (the caller removes it).
# Usage: scripts/pack-into-project.sh [project-type: module|commonjs]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
type="${1:-module}"
project="$(mktemp -d "${TMPDIR:-/tmp}/sinpe-consumer.XXXXXX")"
tarball="$(cd "$root" && npm pack --silent --pack-destination "$project" 2>/dev/null | tail -n 1)"
cat > "$project/package.json" <<JSON
{ "name": "sinpe-consumer", "version": "1.0.0", "private": true, "type": "$type" }
JSON
(cd "$project" && npm install --silent --no-audit --no-fund --offline "./$tarball" >/dev/null)
echo "$project"
