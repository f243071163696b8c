#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# TSan build of the unit tests, running the ones that exercise threads:
# every test whose name contains "Concurren" or "Thread" (the naming
# convention is the label; see docs/hardening.md). About 3 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build-tsan
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLOOM_SANITIZE=thread \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DBLOOM_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build "$build" -j2 --target bloom_unit_tests
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
# TSan needs a fixed memory layout; some kernels' high mmap randomisation
# breaks it ("unexpected memory mapping"), so run without ASLR when possible.
run=()
if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
  run=(setarch "$(uname -m)" -R)
fi
filter="${BLOOM_TSAN_FILTER:-*Concurren*:*Thread*}"
count=$("$build/tests/bloom_unit_tests" --gtest_list_tests --gtest_filter="$filter" | grep -c '^  ' || true)
[ "$count" -gt 0 ] || { echo "20-tsan: no test matches $filter" >&2; exit 1; }
echo "20-tsan: running $count thread-related tests under TSan"
"${run[@]}" "$build/tests/bloom_unit_tests" --gtest_filter="$filter" --gtest_brief=1
