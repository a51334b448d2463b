#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the package and the lesson
# site, and serves the site on http://localhost:${PORT:-8080}.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh
bash scripts/build.sh
bash scripts/build-site.sh
port="${PORT:-8080}"
echo "Serving the lessons on http://localhost:${port}/ (Ctrl+C stops)"
# vite preview sends the same Content-Security-Policy header as the page's <meta> tag.
exec node node_modules/vite/bin/vite.js preview --config web/vite.config.js --host 127.0.0.1 --strictPort --port "$port"
