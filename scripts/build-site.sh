#!/usr/bin/env bash
# Builds the lesson site (web/) into build/site/ with Vite, unless it is
# already newer than everything it is made from.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# One build at a time (npm test's two lanes may both ask for the site).
mkdir -p build
exec 9>build/site.lock
flock 9
stamp=build/site/index.html
if [ -f "$stamp" ] && [ -z "$(find web js dist package-lock.json -newer "$stamp" -type f -print -quit 2>/dev/null)" ]; then
  echo "site: build/site is up to date"
  exit 0
fi
node node_modules/vite/bin/vite.js build --config web/vite.config.js --logLevel warn
touch "$stamp"
echo "site: built build/site/"
