#!/usr/bin/env bash
# Regenerates the tiny Noto Sans SC subsets that draw the language button's
# label "简体中文" on every page (the full Chinese font is loaded only by the
# Chinese page). Each fontsource subset file that holds one of the four
# characters is cut down to just those characters, keeping its file split,
# so style.css can declare them as one family with per-file unicode-ranges.
# Needs fontTools with brotli (Debian: apt-get install python3-fonttools python3-brotli,
# then PYTHON=/usr/bin/python3 if another python3 comes first in PATH).
# Noto Sans SC is under the SIL Open Font License 1.1 (OFL.txt here).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/../../../node_modules/@fontsource/noto-sans-sc/files"
for part in 117 118 119; do
  "${PYTHON:-python3}" -m fontTools.subset "$src/noto-sans-sc-$part-400-normal.woff2" \
    --text='简体中文' --flavor=woff2 --no-hinting --desubroutinize \
    --layout-features='' --name-IDs='*' --name-languages='*' \
    --output-file="$here/lang-zh-$part.woff2"
done
ls -l "$here"/lang-zh-*.woff2
