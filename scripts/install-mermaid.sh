#!/usr/bin/env bash
# Installs mermaid (the JavaScript library GitHub renders ```mermaid blocks with, in the
# browser) for tests/render/test_render_trend_layout.py, which renders the comment's
# trend chart in headless Chromium from mermaid's own dist/mermaid.min.js.
# `make tools` runs this; the test skips, saying why, where it cannot run.
#
# Pinned to 11.17.2, the newest 11.x (mermaid 12 declares node >= 22.12; only the
# browser bundle is used, never node). npm from the public registry; about 30 seconds
# and 154 MB of node_modules under .tools/ (ignored by git, never in the action image).
set -euo pipefail
version=11.17.2
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/.tools/mermaid-$version"
if [ -f "$dest/node_modules/mermaid/dist/mermaid.min.js" ]; then exit 0; fi
if ! command -v npm >/dev/null 2>&1; then
  echo "install-mermaid: npm not found; the trend chart's browser test will skip" >&2
  exit 0
fi
mkdir -p "$dest"
echo "install-mermaid: npm install mermaid@$version into $dest" >&2
(cd "$dest" && npm init -y >/dev/null && \
  npm install "mermaid@$version" --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null)
