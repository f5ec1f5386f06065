#!/usr/bin/env bash
# Installs the system tools the tests need, where we can (root and apt-get):
# - the container test: podman, buildah, debootstrap and Debian's archive keyring
#   (which Ubuntu lacks);
# - the comment's layout tests (tests/render/test_render_layout.py): a Chromium and the
#   fonts whose widths stand in for GitHub's (fonts-liberation: Arial's metrics;
#   fonts-noto-color-emoji: 🔴 and ⚠️ in colour, at their real width);
# - GNU time, for the peak memory of the hostile-input tests.
# Elsewhere those tests skip and say why. `make tools` runs this.
set -euo pipefail
need=()
for tool in podman buildah debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
# debootstrap checks the Debian release's signature with this keyring.
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || need+=(debian-archive-keyring)
# GNU time: the hostile-input tests measure each child's own peak memory through it
# (tests/measure.py); a child reaped straight from pytest reports pytest's peak.
[ -x /usr/bin/time ] || need+=(time)
# Any Chromium will do (Playwright drives it by path). Debian's package is a real
# browser; Ubuntu's `chromium` is a snap wrapper that cannot run in a container, so
# there we rely on one already present (GitHub's Ubuntu runners ship one).
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 \
   && ! command -v google-chrome >/dev/null 2>&1; then
  if grep -qx 'ID=debian' /etc/os-release 2>/dev/null; then
    need+=(chromium)
  else
    echo "install-tools: no Chromium and not Debian; the layout tests will skip" >&2
  fi
fi
for font in fonts-liberation fonts-noto-color-emoji; do
  if command -v dpkg-query >/dev/null 2>&1 \
     && ! dpkg-query -W -f='${Status}' "$font" 2>/dev/null | grep -q "ok installed"; then
    need+=("$font")
  fi
done
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-tools: missing ${need[*]} and cannot install them (need root and apt-get); container and layout tests will skip" >&2
  exit 0
fi
echo "install-tools: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
