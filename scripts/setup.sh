#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test bloom.
# Idempotent; needs root (or sudo) for apt-get.
set -euo pipefail

packages=(build-essential cmake pkg-config libxxhash-dev libgtest-dev libgmock-dev
          libbenchmark-dev zlib1g-dev python3)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}"
fi
