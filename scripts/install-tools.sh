#!/usr/bin/env bash
# Installs the system tools the container test needs (podman, buildah, debootstrap and
# Debian's archive keyring, which Ubuntu lacks), where we can: root and apt-get.
# Elsewhere the container test skips and says why. `make tools` runs this.
set -euo pipefail
need=()
for tool in podman buildah debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
# debootstrap checks the Debian release's signature with this keyring.
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || need+=(debian-archive-keyring)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-tools: missing ${need[*]} and cannot install them (need root and apt-get); container tests will skip" >&2
  exit 0
fi
echo "install-tools: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
