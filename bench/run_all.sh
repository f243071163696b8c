#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every benchmark of docs/PERFORMANCE.md and redraws its plots.
#
#   bench/run_all.sh [BUILD_DIR] [OUT_DIR]      (defaults: build, docs/perf)
#
# Writes OUT_DIR/seed_table.txt (+ .tsv), concurrency.txt, micro.csv,
# fpr_sweep.tsv and the three PNGs. About 30 minutes on a 2-core machine (the
# seed table alone, 3 rounds, about 15).
# BLOOM_BENCH_MAX_BYTES=1G extends the size sweep from 256 MiB to 1 GiB.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-docs/perf}
mkdir -p "$out"
b="$build/bench"
[ -x "$b/seed_table" ] || { echo "build first: cmake -S . -B $build && cmake --build $build" >&2; exit 1; }

"$b/seed_table" --tsv "$out/seed_table.tsv" | tee "$out/seed_table.txt"
"$b/concurrency_bench" | tee "$out/concurrency.txt"
"$b/seed_table" --fpr-sweep "$out/fpr_sweep.tsv"
# The size sweep: negative queries, single and batch, every kind, XXH3; the
# blocked kind's adds and positive queries; the floors. Everything else (all
# hashers and operations) runs with no filter.
"$b/bloom_micro_bench" \
  --benchmark_filter='^(query_miss|query_batch_miss)/[a-z]+/xxh3/|^(add|add_batch|query_hit|query_batch_hit)/blocked/xxh3/|^floor/' \
  --benchmark_min_time=0.2 --benchmark_format=csv > "$out/micro.csv"
bench/plot.sh "$out/micro.csv" "$out/fpr_sweep.tsv" "$out"
