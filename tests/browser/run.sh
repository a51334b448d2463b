#!/usr/bin/env bash
# Browser tests of the lesson site: builds it if needed, serves build/site
# with the site's CSP (tests/browser/serve.mjs, on a port the system picks
# when the server binds it), runs the given test files (default: every
# tests/browser/*.test.mjs with SINPE_FULL=1; else the quick form: the files
# marked `// npm test: quick form` and one file of the full form as its smoke)
# in headless Chromium, then stops the server.
# Usage: bash tests/browser/run.sh [tests/browser/x.test.mjs …]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
bash scripts/build-site.sh
if [ "$#" -gt 0 ]; then
  files=("$@")
elif [ "${SINPE_FULL:-}" = 1 ]; then
  files=(tests/browser/*.test.mjs)
else
  mapfile -t files < <(grep -lx '// npm test: quick form' tests/browser/*.test.mjs)
  [ "${#files[@]}" -gt 0 ] || { echo "tests/browser: no test file is marked for the quick form" >&2; exit 1; }
  # The smoke of the full form: one file only it runs (a short one), run with
  # the quick files, so a file of the full form cannot rot unseen by npm test.
  smoke=tests/browser/numbers.test.mjs
  [ -f "$smoke" ] && ! grep -qx '// npm test: quick form' "$smoke" ||
    { echo "tests/browser: the full form's smoke $smoke is missing or marked for the quick form; pick another" >&2; exit 1; }
  echo "tests/browser: quick form, ${#files[@]} of $(ls tests/browser/*.test.mjs | wc -l) files, and $smoke of the full form as its smoke (SINPE_FULL=1 runs all)"
  files+=("$smoke")
fi
# The server prints its URL once it holds the port; read that one line.
exec 3< <(exec node tests/browser/serve.mjs build/site)
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
if ! read -r -t 60 url <&3 || [[ "$url" != http://127.0.0.1:* ]]; then
  echo "site server did not start" >&2
  exit 1
fi
SITE_URL="$url" node --test --test-concurrency=1 "${files[@]}"
