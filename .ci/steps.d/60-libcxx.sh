#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The library built with clang and LLVM's libc++, as on systems whose C++
# standard library is libc++: it must compile warning-free, and its library,
# CLI and Python package must work from an install through pkg-config and
# find_package (consumer_* tests: C, C++ and C-only CMake projects, static
# and shared). The GoogleTest and Google Benchmark programs are not built:
# Debian compiles those libraries against libstdc++, so they cannot link
# into a libc++ program; the main suite covers the same code with GCC.
# clang-14, libc++-14-dev and libc++abi-14-dev come from
# scripts/packages.d/hardening.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=build-libcxx
flags=-stdlib=libc++
CC=clang-14 CXX=clang++-14 cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLOOM_WARNINGS_AS_ERRORS=ON \
  -DBLOOM_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  -DCMAKE_SHARED_LINKER_FLAGS="$flags" -DCMAKE_MODULE_LINKER_FLAGS="$flags" -DBLOOM_PYTHON_SOURCE_PATHS=OFF
# Every installed target (the consumer tests install the build), and the
# examples; not `all`, which holds the GoogleTest programs.
targets=(bloom_shared bloom_static bloom_cli use_cases_c use_cases_cpp)
available=$(cmake --build "$dir" --target help)  # (not piped into grep -q: pipefail)
if grep -q '^\.\.\. bloom_redis$' <<<"$available"; then targets+=(bloom_redis); fi
# The man pages are installed with the tool (cli component): built when help2man is there.
if grep -q '^\.\.\. bloom_man_pages$' <<<"$available"; then targets+=(bloom_man_pages); fi
# So is the Python package's C extension (python component), when built.
if grep -q '^\.\.\. bloomkit_cext$' <<<"$available"; then targets+=(bloomkit_cext); fi
cmake --build "$dir" -j2 --target "${targets[@]}"
grep -q 'libc++.so' <(ldd "$dir/src/libbloomfilter.so") || { echo "FAIL: not linked against libc++"; exit 1; }
# The tests that need nothing but what was built (the Python package finds
# the library through BLOOM_LIBRARY, which ctest sets).
(cd "$dir" && ctest --output-on-failure -j2 -R '^(consumer_|cli_|python_system$|example_use_cases_c)')
