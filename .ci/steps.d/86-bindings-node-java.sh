#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Node.js and Java bindings against the library this CI run built,
# installed to a temporary prefix and found with pkg-config, as a user
# would: each binding's own tests (the conformance suite required, its
# images saved), `npm pack` installed into an empty project and required,
# then the cross-language round trip: every case's file from Node and from
# Java byte-identical, hashing to the case's sha256, and answered as
# expected by the installed `bloom query`.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# BLOOM_BINDINGS_PREFIX: an installed bloom to use instead (a developer's
# run without a build tree, e.g. /opt/bloom-dev).
prefix=${BLOOM_BINDINGS_PREFIX:-}
if [ -z "$prefix" ]; then
  echo "86: installing the build tree's library to a temporary prefix"
  prefix="$work/prefix"
  cmake --install build --prefix "$prefix" >/dev/null
fi
pc=$(dirname "$(find "$prefix" -name bloom.pc | head -n1)")
export PKG_CONFIG_PATH="$pc"
cases=${BLOOM_CONFORMANCE_CASES:-tests/conformance/cases.json}

# Debian's npm pulls node-gyp and libnode-dev (Node's headers: no download).
if ! command -v npm >/dev/null || ! [ -f /usr/include/node/common.gypi ]; then
  echo "86: installing npm (node-gyp, libnode-dev)"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
echo "86: node $(node --version), npm $(npm --version), $(javac -version 2>&1)"

# The suite is found through one variable; a missing one fails the tests.
export BLOOM_SOURCE_DIR="$PWD"
mkdir -p "$work/out/node" "$work/out/java"

echo "86: Node binding: build and test"
(
  cd bindings/node
  npm run --silent build >"$work/node-build.log" 2>&1 || { cat "$work/node-build.log"; exit 1; }
  BLOOM_CONFORMANCE_OUT="$work/out/node" npm test
)

echo "86: Node binding: npm pack, install the tarball into an empty project, require it"
(
  cd bindings/node
  npm pack --silent --pack-destination "$work" >/dev/null
  mkdir -p "$work/consumer"
  cd "$work/consumer"
  npm init -y >/dev/null
  npm install --silent --no-audit --no-fund "$work"/bloomkit-*.tgz
  node -e "
    const { Filter, version } = require('bloomkit');
    const f = new Filter({ capacity: 100 });
    f.add('packed');
    if (!f.has('packed')) { console.error('installed bloomkit lost a key'); process.exit(1); }
    f.close();
    console.log('86: npm-installed bloomkit works against libbloomfilter ' + version);"
)

echo "86: Java binding: jar, Javadoc, tests"
BLOOM_CONFORMANCE_OUT="$work/out/java" bindings/java/build.sh test

echo "86: cross-language round trip"
python3 bindings/cross_language_check.py "$cases" --cli "$prefix/bin/bloom" \
  node="$work/out/node" java="$work/out/java"

echo "86-bindings-node-java: passed in $(($(date +%s) - start)) s"
