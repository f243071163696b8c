#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Rust and Go bindings against the library as users install it: the
# build tree is installed into a temporary prefix, found through
# PKG_CONFIG_PATH (and LD_LIBRARY_PATH at run time); then cargo test (the
# conformance suite, API tests, doc examples), cargo package, go vet and go
# test (conformance, API tests, the Example), and the cross-language round
# trip: C, Python, Rust and Go each write every conformance image and load
# the previous language's, and the CLI loads all four sets (same bytes, same
# answers). Installs Debian's cargo/rustc/golang-go when missing: in CI this
# step never skips.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
start=$(date +%s)
echo "=== bindings (Rust, Go): toolchains"
missing=()
command -v cargo >/dev/null || missing+=(cargo rustc)
command -v go >/dev/null || missing+=(golang-go)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
cargo --version
rustc --version
go version

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install build --prefix "$work/prefix" >/dev/null
pc=$(find "$work/prefix" -name bloom.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: no bloom.pc in the installed prefix"; exit 1; }
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir bloom)
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "library $(pkg-config --modversion bloom) installed in $libdir"

# Offline: only Debian is reachable, and neither binding has a dependency.
# The cargo target directory is ctest's (bindings_rust), so only what the
# new PKG_CONFIG_PATH touches is rebuilt. Go's build cache is shared too,
# but it keys cgo packages on CGO_LDFLAGS, not on pkg-config's output: the
# prefix goes into CGO_LDFLAGS so Go builds against this install, not
# against ctest's.
export CARGO_TARGET_DIR="$root/build/bindings/cargo-target" CARGO_NET_OFFLINE=true
export GOFLAGS=-mod=mod GOPROXY=off CGO_LDFLAGS="-g -O2 -L$libdir"
# The conformance cases and golden files (bindings/README.md).
export BLOOM_SOURCE_DIR="$root"

echo "=== bindings: cargo test"
(cd bindings/rust && cargo test --offline)
echo "=== bindings: cargo package"
# Verifying bloom's package builds it against bloom-sys as a registry
# would serve it: cargo 1.83+ (cargo package --workspace) serves the
# bloom-sys being packaged; older cargo (Debian 12's 1.63 accepts
# --workspace but packages each crate alone) looks for it on crates.io, so
# there bloom-sys is packaged and verified and bloom packaged unverified.
cargo_minor=$(cargo --version | sed -n 's/^cargo 1\.\([0-9]*\).*/\1/p')
if [ "${cargo_minor:-0}" -ge 83 ]; then
  # A fresh CARGO_HOME: cargo keeps the unpacked bloom-sys of an earlier
  # run under the same name and version and would verify bloom against
  # that stale copy (it missed BLOOM_HASH_REDISBLOOM when the constant was
  # added). The crates need nothing else from CARGO_HOME offline.
  cargo_home=$(mktemp -d)
  (cd bindings/rust && CARGO_HOME="$cargo_home" cargo package --workspace --offline --allow-dirty)
  rm -rf "$cargo_home"
else
  (cd bindings/rust && cargo package -p bloom-sys --offline --allow-dirty)
  (cd bindings/rust && cargo package -p bloom --offline --allow-dirty --no-verify)
  echo "NOTE: cargo 1.${cargo_minor}: the bloom crate was packaged with --no-verify (its verification" \
    "needs bloom-sys from a registry); cargo >= 1.83 verifies both with --workspace"
fi
echo "=== bindings: go vet, go test"
(cd bindings/go && go vet ./... && go test -count=1 ./...)

echo "=== bindings: cross-language round trip"
lib="$libdir/libbloomfilter.so"
ctmp="$work/ctmp"
mkdir -p "$ctmp"
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/python" BLOOM_LIBRARY="$lib" python3 tests/conformance/cross_language.py \
  "$work/prefix/bin/bloom" "$work/cross" \
  "c=$root/build/tests/conformance/bloom_conformance_runner $root/tests/conformance/cases.json $root $ctmp" \
  "python=python3 $root/tests/conformance/run_python.py" \
  "rust=cd $root/bindings/rust && cargo test --offline -q --test conformance" \
  "go=cd $root/bindings/go && go test -count=1 -run TestConformance ."

echo "bindings (Rust, Go) step: $(($(date +%s) - start)) s"
