#!/usr/bin/env bash
# Installs what this project needs and is missing: Debian packages (Emscripten,
# Catch2, Chromium, Firefox ESR, WebKitGTK's WebDriver with Xvfb for its
# MiniBrowser, clang for fuzzing, clang-format, Python 3 with numpy for the
# independent RoPE reference), xsimd 13
# headers, npm packages.
# Idempotent and quiet when everything is there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The npm packages install while apt works: both mostly wait on downloads.
npm_log="$(mktemp)"
trap 'rm -f "$npm_log"' EXIT
npm_pid=
# npm packages: the dev tools, and onnx-buf (the one dependency, of the sinpe.wasm/onnx subpath).
# --ignore-scripts: onnxruntime-node's install script would download GPU
# binaries from outside the npm registry; its CPU binary ships in the package.
# deno's install script only links the binary its optional platform package
# (@deno/<os>-<arch>-glibc) ships; bun's copies the one @oven/bun-<os>-<arch>
# ships, or downloads it when that package is missing. tests/consumers/clients.mjs
# runs both binaries from their platform packages.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package.json -nt "$stamp" ] || { [ -f package-lock.json ] && [ package-lock.json -nt "$stamp" ]; }; then
  echo "setup: npm install"
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error >"$npm_log" 2>&1 &
  npm_pid=$!
fi

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in emscripten catch2 chromium firefox-esr webkit2gtk-driver xvfb cmake g++ make clang libclang-rt-14-dev clang-format python3 python3-numpy; do
  have_pkg "$pkg" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

bash "$root/scripts/fetch-xsimd.sh"

if [ -n "$npm_pid" ]; then
  wait "$npm_pid" || { cat "$npm_log"; echo "setup: npm install failed" >&2; exit 1; }
  cat "$npm_log"
fi

# The suites that install the packed tarball into a new project (consumers,
# package API, faults, WebKitGTK) do so offline, from npm's cache. `npm
# install` above fetched the dependencies' tarballs by the lockfile's
# addresses but not their registry documents, which resolving the tarball's
# own ranges ("onnx-buf": "^1.20.0-1") needs: on a machine whose cache never
# saw them the offline install fails (ENOTCACHED). `npm cache add` fetches
# both for the package's own dependencies (those package-lock.json does not
# mark dev), once per lockfile.
primed=node_modules/.sinpe-cache-primed
if [ ! -f "$primed" ] || [ package-lock.json -nt "$primed" ]; then
  mapfile -t runtime < <(node -e '
    const lock = require("./package-lock.json");
    for (const [path, p] of Object.entries(lock.packages))
      if (path.startsWith("node_modules/") && !p.dev && !p.optional) console.log(`${path.slice(path.lastIndexOf("node_modules/") + 13)}@${p.version}`);
  ')
  if [ ${#runtime[@]} -gt 0 ]; then
    echo "setup: npm cache add ${runtime[*]}"
    npm cache add "${runtime[@]}" --loglevel=error
  fi
  touch "$primed"
fi
