#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Filters of other libraries, against those libraries (tests/interop/):
# Guava 31 (Java) and bits-and-blooms/bloom v3 (Go) write filters and their
# answers, and the library must import them with the same answer for every
# key and export the same bytes; Parquet's from its specification and
# parquet-java's fixture. About 15 s (javac, go build, 10 checks of 20,000
# keys). Packages: scripts/packages.d/interop.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -e build/src/libbloomfilter.so ] || cmake --build build -j2 --target bloom_shared
time tests/interop/run_interop.sh build
