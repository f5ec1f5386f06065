#!/usr/bin/env bash
# Installs promptfoo for tests/inputs/test_formats_promptfoo_run.py, which runs a real
# `promptfoo eval` offline (an `echo` provider and a local script provider) and reads
# its output. `make tools` runs this; the test skips, saying why, where it cannot run.
#
# Pinned to 0.121.20: the last promptfoo line that accepts Node 20 (0.122 and later
# declare node >= 22.22). npm from the public registry; about 2 minutes and 1.4 GB of
# node_modules under .tools/ (ignored by git, never in the action image).
set -euo pipefail
version=0.121.20
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/.tools/promptfoo-$version"
if [ -x "$dest/node_modules/.bin/promptfoo" ]; then exit 0; fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "install-promptfoo: node and npm not found; the promptfoo run test will skip" >&2
  exit 0
fi
major="$(node -p 'process.versions.node.split(".")[0]')"
minor="$(node -p 'process.versions.node.split(".")[1]')"
if [ "$major" -lt 20 ] || { [ "$major" -eq 20 ] && [ "$minor" -lt 20 ]; }; then
  echo "install-promptfoo: node $(node --version) is older than 20.20, which promptfoo $version needs; the promptfoo run test will skip" >&2
  exit 0
fi
mkdir -p "$dest"
echo "install-promptfoo: npm install promptfoo@$version into $dest (about 2 minutes)" >&2
(cd "$dest" && npm init -y >/dev/null && \
  npm install "promptfoo@$version" --no-audit --no-fund --loglevel=error >/dev/null)
