#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `bloom build --threads` under TSan: the reading thread, the worker threads
# and their queue (tools/parallel_adder.cpp), both strategies, every kind.
# Reuses 20-tsan's build directory, so only the tool is compiled here (the
# library objects are already built); the suite itself takes about 30 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build-tsan
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLOOM_SANITIZE=thread \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DBLOOM_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build "$build" -j2 --target bloom_cli
# A data race makes the tool exit 66, which the tests' exit-status checks catch.
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1"
run=()
if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
  run=(setarch "$(uname -m)" -R)
fi
echo "25-tsan-cli-threads: tests/cli/test_threads.py against the TSan build of bloom"
BLOOM_CLI="$PWD/$build/tools/bloom" "${run[@]}" /usr/bin/python3 -B tests/cli/test_threads.py
