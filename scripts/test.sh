#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's second command: install every package list (the tests'
# dependencies: GoogleTest, clang, valgrind, redis, ...), build the whole
# tree in build/ (RelWithDebInfo: the build type CI uses; the quick start
# builds Release in its own build-release/, so neither rebuilds the other)
# and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
