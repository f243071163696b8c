#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages bloom needs on a fresh Debian 12 machine.
# Each component lists its packages in scripts/packages.d/<name>.txt (one
# per line, # comments allowed).
#   scripts/setup.sh               every list: build and test everything (CI)
#   scripts/setup.sh quickstart    only the named lists (scripts/quickstart.sh)
# Idempotent; needs root (or sudo) for apt-get. Waits up to 10 minutes for
# the dpkg lock, which unattended-upgrades often holds on a freshly booted
# machine, instead of failing at once (apt-get's exit 100).
set -euo pipefail
cd "$(dirname "$0")"

lists=()
if [ $# -eq 0 ]; then
  lists=(packages.d/*.txt)
else
  for name in "$@"; do
    [ -f "packages.d/$name.txt" ] || { echo "setup: no package list packages.d/$name.txt" >&2; exit 2; }
    lists+=("packages.d/$name.txt")
  done
fi

mapfile -t packages < <(cat "${lists[@]}" | sed 's/#.*//' | tr -s ' \t' '\n' | grep -v '^$' | sort -u)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
lock_wait=(-o DPkg::Lock::Timeout=600)
echo "setup: installing ${missing[*]}"
# Extra apt sources (apt-sources.d/*.sources): Debian 12's backports for
# valkey-server 8, which bookworm itself does not have. Only on bookworm;
# later releases have those packages in their main suite.
if grep -q '^VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null; then
  for src in apt-sources.d/*.sources; do
    [ -e "$src" ] || continue
    dest=/etc/apt/sources.list.d/$(basename "$src")
    cmp -s "$src" "$dest" || $SUDO cp "$src" "$dest"
  done
fi
# `apt-get update` takes the lists lock, which DPkg::Lock::Timeout does not
# cover on every apt version: retry it for the same 10 minutes.
for attempt in $(seq 60); do
  $SUDO apt-get "${lock_wait[@]}" update -qq && break
  [ "$attempt" -lt 60 ] || { echo "setup: apt-get update kept failing" >&2; exit 1; }
  echo "setup: apt-get update failed (lock held?); retrying in 10 s" >&2
  sleep 10
done
$SUDO apt-get "${lock_wait[@]}" install -y -qq --no-install-recommends "${missing[@]}"
