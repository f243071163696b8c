#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Configures, builds and runs an out-of-tree CMake project that uses
# find_package(bloom CONFIG REQUIRED) against the install in PREFIX.
#   cmake_consumer.sh CMAKE PREFIX PROJECT_DIR WORKDIR C_COMPILER CXX_COMPILER [PROGRAM ARGS...]...
set -eu
CMAKE=$1 PREFIX=$2 SRC=$3 WORK=$4 CC=$5 CXX=$6
shift 6
rm -rf "$WORK"
unset LD_LIBRARY_PATH || true
"$CMAKE" -S "$SRC" -B "$WORK" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON
"$CMAKE" --build "$WORK" -j2
grep -q "bloom_DIR:PATH=$PREFIX" "$WORK/CMakeCache.txt" || { echo "FAIL: bloom found outside $PREFIX"; grep bloom_DIR "$WORK/CMakeCache.txt"; exit 1; }
for program in "$@"; do
  echo "=== $program"
  "$WORK/$program" "$WORK"
done
