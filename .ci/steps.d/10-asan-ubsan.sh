#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# ASan + UBSan (+ LeakSanitizer) build of the whole test suite, in its own
# build directory. Every test runs except (BLOOM_ASAN_EXCLUDE) the
# >2^32-bit filter (1.5 GB, too big under ASan's shadow memory) and tests
# that cannot work with an instrumented library: Python loading it through
# ctypes (the ASan runtime must come first in the process; so does
# version_consistency, which reads the library through ctypes) and consumer
# builds linking it with an uninstrumented toolchain. Leaks fail the test that leaked (each ctest test is a
# separate process). -O1 -g1: the usual sanitizer setting, and it compiles
# much faster than -O2 -g. About 6-8 minutes on 2 idle cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build-asan
exclude="${BLOOM_ASAN_EXCLUDE:-FilterBeyondTwoToTheThirtyTwoBits|^python_|_py_|^consumer_|^version_consistency$}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLOOM_SANITIZE=address \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DBLOOM_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build "$build" -j2
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$build" --output-on-failure -j2 -E "$exclude"
