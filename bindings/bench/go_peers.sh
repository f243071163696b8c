#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Go binding's single calls beside bits-and-blooms/bloom (go_peers/),
# offline: the peer comes from Debian's golang-github-willf-bloom-dev
# (/usr/share/gocode), the binding from this tree, both through a GOPATH
# made for the run.
#   bindings/bench/go_peers.sh [-keys N] [-p P] [-rounds R]
# Needs the library where pkg-config finds it (PKG_CONFIG_PATH for a
# non-system build), as bindings/bench/run.sh does.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gocode=${GOCODE:-/usr/share/gocode}
if [ ! -d "$gocode/src/github.com/bits-and-blooms/bloom" ]; then
  echo "go_peers: skipped (no $gocode/src/github.com/bits-and-blooms/bloom: apt-get install golang-github-willf-bloom-dev)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/bloom/bindings" "$work/src/go_peers"
ln -s "$here/../go" "$work/src/bloom/bindings/go"
cp "$here/go_peers/main.go" "$work/src/go_peers/"
cd "$work/src/go_peers"
GO111MODULE=off GOPATH="$work:$gocode" GOFLAGS= go build -o "$work/go_peers" .
"$work/go_peers" "$@"
