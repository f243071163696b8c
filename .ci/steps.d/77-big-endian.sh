#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Big-endian: the library and its unit tests cross-built for s390x with
# Debian's g++-s390x-linux-gnu and run under qemu-user. The format is
# little-endian on disk; these tests load every golden file (written on
# x86-64), compare the bytes a big-endian build writes with them, and run
# the format, hash, hostile-input and kind tests. The statistical FPR sweeps
# are left to the native run: they test arithmetic, not byte order, and
# take minutes under emulation.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
build=build-s390x
mkdir -p "$build"
cmake -S . -B "$build" -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x.cmake \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLOOM_WARNINGS_AS_ERRORS=ON \
  -DBLOOM_BUILD_CLI=OFF -DBLOOM_BUILD_REDIS=OFF -DBLOOM_BUILD_BENCH=OFF \
  -DBLOOM_INSTALL_PYTHON=OFF -DBLOOM_PYTHON_SOURCE_PATHS=OFF > "$build/configure.log"
cmake --build "$build" -j"$(nproc)" --target bloom_unit_tests bloom_c99_api_test
echo "77-big-endian: running under qemu-s390x"
# The host's own check that the binary really is big-endian.
file "$build/tests/bloom_unit_tests" | grep -q "MSB" || { echo "77-big-endian: not a big-endian binary" >&2; exit 1; }
filter='Golden*:SplitBlock*:*Format*:*format*:Hash*:RedisBloom*:*Xxh3*:Hostile*:*Header*:Scalable*:Counting*:Partitioned*:Classic*:Blocked*:Map*:SavePath*:Probe*:Errors*:*Serializ*:CounterArray*'
exclude='-*Fpr*:*FPR*:*FalsePositive*:*Concurren*:*Thread*'
qemu-s390x -L /usr/s390x-linux-gnu "$build/tests/bloom_unit_tests" \
  --gtest_filter="$filter$exclude" --gtest_brief=1
qemu-s390x -L /usr/s390x-linux-gnu "$build/tests/bloom_c99_api_test" "$build"
echo "77-big-endian: done in $(( $(date +%s) - start )) s"
