#!/usr/bin/env bash
# Makes the local base image the container test builds on, once, and reuses it after.
#
# Where no registry is reachable (../CONTAINER.md), python:3.12-slim cannot be pulled;
# this builds a Debian bookworm root with Python 3.11 by debootstrap (about 75-100 s)
# and imports it into podman's store as $LEADERBOARD_BASE_IMAGE. The root filesystem is
# cached under $LEADERBOARD_BASE_CACHE so that a lost image store costs only the import.
#
# Usage: scripts/container-base.sh   (prints the image name on the last line)
set -euo pipefail
image="${LEADERBOARD_BASE_IMAGE:-localhost/leaderboard-action-base:bookworm}"
cache="${LEADERBOARD_BASE_CACHE:-/var/tmp/leaderboard-action-base}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if podman image exists "$image"; then
  echo "$image"
  exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9  # two test processes at once: the second waits for the first
if podman image exists "$image"; then
  echo "$image"
  exit 0
fi
if [ ! -f "$cache/rootfs/.complete" ]; then
  rm -rf "$cache/rootfs-tmp"
  debootstrap --variant=minbase \
    --include=python3,python3-venv,python3-pip,ca-certificates \
    bookworm "$cache/rootfs-tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
    tail -20 "$cache/debootstrap.log" >&2
    exit 1
  }
  rm -rf "$cache/rootfs"
  mv "$cache/rootfs-tmp" "$cache/rootfs"
  touch "$cache/rootfs/.complete"
fi
tar --exclude=./.complete -C "$cache/rootfs" -c . | podman import - "$image" >/dev/null
echo "$image"
