#!/usr/bin/env bash
# Installs the system tools the container tests need, where we can (root + apt-get).
# Elsewhere the container tests skip and say why.
set -euo pipefail
need=()
for tool in podman buildah debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-tools: missing ${need[*]} and cannot install them (need root and apt-get); container tests will skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
