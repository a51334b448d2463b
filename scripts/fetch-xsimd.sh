#!/usr/bin/env bash
# Unpacks Debian trixie's header-only libxsimd-dev (13.x, which has the WebAssembly
# backend; bookworm's 8.1.0 does not) into third_party/xsimd, without touching the
# system's apt configuration. The mirror is read from this machine's apt sources,
# so no host name is written into the repository.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/third_party/xsimd"
[ -f "$dest/include/xsimd/xsimd.hpp" ] && exit 0

mirror=""
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  if grep -qE '^Suites:.*\bbookworm\b' "$f"; then
    mirror=$(awk '/^URIs:/ {print $2; exit}' "$f")
    [ -n "$mirror" ] && break
  fi
done
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1=="deb" && $3 ~ /^bookworm$/ {print $2; exit}' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || { echo "fetch-xsimd: no bookworm Debian mirror found in apt sources" >&2; exit 1; }

work=$(mktemp -d)
chmod 755 "$work"  # apt drops to the _apt user for downloads
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/etc"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" > "$work/etc/sources.list"
opts=(-o "Dir::Etc::SourceList=$work/etc/sources.list" -o "Dir::Etc::SourceParts=-"
      -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache"
      -o "Dir::State::Status=/var/lib/dpkg/status" -o "APT::Architecture=amd64" -o Debug::NoLocking=1)
apt-get "${opts[@]}" -qq update
(cd "$work" && apt-get "${opts[@]}" -qq download libxsimd-dev)
deb=$(ls "$work"/libxsimd-dev_*.deb)
mkdir -p "$work/x"
dpkg-deb -x "$deb" "$work/x"
mkdir -p "$dest/include"
cp -r "$work/x/usr/include/xsimd" "$dest/include/"
basename "$deb" > "$dest/VERSION"
echo "fetch-xsimd: $(cat "$dest/VERSION") -> third_party/xsimd"
