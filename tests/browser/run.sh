#!/usr/bin/env bash
# Browser tests of the lesson site: builds it if needed, serves build/site on
# a loopback port the system picks, runs tests/browser/*.test.mjs in headless Chromium,
# then stops the server.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
bash scripts/build-site.sh
# The server binds a port the system picks and prints its URL; the tests get
# that URL, so no port is found free, released and bound again.
url_file="$(mktemp)"
node tests/browser/serve-site.mjs >"$url_file" 2>build/site-preview.log &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$url_file"' EXIT
# Wait (at most 60 s) for the URL line, or for the server to exit.
for _ in $(seq 600); do
  grep -q '^http' "$url_file" && break
  kill -0 "$server" 2>/dev/null || { echo "preview server exited:" >&2; cat build/site-preview.log >&2; exit 1; }
  sleep 0.1
done
url="$(grep -m1 '^http' "$url_file")" || { echo "preview server did not start" >&2; cat build/site-preview.log >&2; exit 1; }
SITE_URL="$url" node --test --test-concurrency=1 tests/browser/*.test.mjs
