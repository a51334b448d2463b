#!/usr/bin/env bash
# Browser tests of the lesson site: builds it if needed, serves build/site on
# a free loopback port, runs tests/browser/*.test.mjs in headless Chromium,
# then stops the server.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
bash scripts/build-site.sh
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
node node_modules/vite/bin/vite.js preview --config web/vite.config.js --host 127.0.0.1 --strictPort --port "$port" >build/site-preview.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/" >/dev/null && break
  sleep 0.1
done
SITE_URL="http://127.0.0.1:$port/" node --test --test-concurrency=1 tests/browser/*.test.mjs
