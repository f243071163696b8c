#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ctest's run of one binding's own tests (cargo test / go test: the
# conformance suite, API tests, doc examples) against this build installed
# into the test prefix (fixture bloom_install).
#   run_binding.sh rust|go PREFIX LIBDIR WORK_DIR
# A developer machine without the toolchain skips with a message (exit 77,
# ctest's SKIP_RETURN_CODE: shown as skipped, never as passed). CI installs
# both toolchains (scripts/packages.d/bindings-rust-go.txt), so there they run.
set -eu
lang=$1 prefix=$2 libdir=$3 work=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
PKG_CONFIG_PATH=$libdir/pkgconfig
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The conformance cases and golden files, found through the one variable
# every binding's tests read (bindings/README.md).
BLOOM_SOURCE_DIR=$root
export PKG_CONFIG_PATH LD_LIBRARY_PATH BLOOM_SOURCE_DIR
case $lang in
  rust)
    if ! command -v cargo >/dev/null 2>&1; then
      echo "SKIPPED: cargo is not installed (Debian: apt-get install cargo rustc); CI runs these tests"
      exit 77
    fi
    cd "$root/bindings/rust"
    CARGO_TARGET_DIR=$work/cargo-target exec cargo test --offline
    ;;
  go)
    if ! command -v go >/dev/null 2>&1; then
      echo "SKIPPED: go is not installed (Debian: apt-get install golang-go); CI runs these tests"
      exit 77
    fi
    cd "$root/bindings/go"
    # Go's build cache keys a cgo package on CGO_LDFLAGS but not on what
    # pkg-config printed, so without this it reused a package compiled
    # against another (since deleted) prefix: "cannot find -lbloomfilter".
    CGO_LDFLAGS="-g -O2 -L$libdir" GOFLAGS=-mod=mod GOPROXY=off exec go test -count=1 ./...
    ;;
  *) echo "usage: $0 rust|go PREFIX LIBDIR WORK_DIR" >&2; exit 2 ;;
esac
