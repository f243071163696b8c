#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# fuzz/run.sh [seconds] -- builds the libFuzzer targets with clang-14
# (ASan + UBSan + coverage) in build-fuzz/ and runs each for `seconds`
# (default 60). Findings (crash-*, leak-*, timeout-*) land in
# build-fuzz/findings/<target>/ and fail the run; the corpus each run grows
# stays in build-fuzz/corpus/<target>/ for the next run.
#
#   fuzz/run.sh          # 60 s per target
#   fuzz/run.sh 600      # a longer local session
#   FUZZ_TARGETS="header" fuzz/run.sh 30
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
targets="${FUZZ_TARGETS:-deserialize header roundtrip api_sequence redis_restore}"
build=build-fuzz
cc="${FUZZ_CC:-clang-14}"
cxx="${FUZZ_CXX:-clang++-14}"

command -v "$cxx" >/dev/null || { echo "fuzz/run.sh: $cxx not found (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 1; }

CC="$cc" CXX="$cxx" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBLOOM_SANITIZE=address -DBLOOM_BUILD_FUZZERS=ON -DBLOOM_BUILD_TESTS=OFF >/dev/null
# Only the fuzz binaries: the shared library cannot link with --no-undefined
# against clang's sanitizer runtimes, and the fuzzers use the static one.
for t in $targets; do
  if ! cmake --build "$build" -j2 --target "bloom_fuzz_$t" >"$build/build-$t.log" 2>&1; then
    tail -60 "$build/build-$t.log" >&2
    echo "fuzz/run.sh: bloom_fuzz_$t did not build" >&2
    exit 1
  fi
done

# Leaks are checked at exit; UBSan findings abort (-fno-sanitize-recover).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
for t in $targets; do
  corpus="$build/corpus/$t"
  findings="$build/findings/$t"
  mkdir -p "$corpus" "$findings"
  echo "=== fuzzing $t for ${seconds}s"
  # Seeds: the golden files (copied by the build) and committed regressions.
  # -rss_limit_mb=2048: a load that asks for gigabytes is a finding.
  if ! "$build/fuzz/bloom_fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
      -max_len=4096 -print_final_stats=1 -artifact_prefix="$findings/" \
      "$corpus" "$build/fuzz/seeds" "fuzz/corpus/$t" 2>"$findings/log.txt"; then
    echo "fuzz target $t FAILED; see $findings/log.txt and the artifacts beside it" >&2
    tail -40 "$findings/log.txt" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$findings/log.txt" | sed "s/^/  $t: /"
    echo "  $t: corpus now $(ls "$corpus" | wc -l) inputs"
  fi
done
exit $status
