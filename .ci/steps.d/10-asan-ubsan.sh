#!/usr/bin/env bash
# ASan + UBSan (+ LeakSanitizer) build of the whole test suite, in its own
# build directory. Every test runs except those too slow or too big under
# ASan's shadow memory (BLOOM_ASAN_EXCLUDE: the >2^32-bit filter, which
# allocates 1.5 GB). Leaks fail the test that leaked (each ctest test is a
# separate process). About 4-6 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build-asan
exclude="${BLOOM_ASAN_EXCLUDE:-FilterBeyondTwoToTheThirtyTwoBits}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLOOM_SANITIZE=address \
  -DBLOOM_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build "$build" -j2
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$build" --output-on-failure -j2 -E "$exclude"
