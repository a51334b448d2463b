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
# Wait (at most 10 s) until the server answers; node's fetch, so curl is not needed.
node -e '
const until = Date.now() + 10000;
(async () => {
  for (;;) {
    try { if ((await fetch(process.argv[1])).ok) return; } catch {}
    if (Date.now() > until) { console.error("preview server did not start"); process.exit(1); }
    await new Promise((r) => setTimeout(r, 100));
  }
})();' "http://127.0.0.1:$port/"
SITE_URL="http://127.0.0.1:$port/" node --test --test-concurrency=1 tests/browser/*.test.mjs
