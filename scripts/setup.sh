#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test bloom.
# Each component lists its Debian packages in scripts/packages.d/*.txt (one
# per line, # comments allowed). Idempotent; needs root (or sudo) for apt-get.
set -euo pipefail
cd "$(dirname "$0")"

mapfile -t packages < <(cat packages.d/*.txt | sed 's/#.*//' | tr -s ' \t' '\n' | grep -v '^$' | sort -u)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
