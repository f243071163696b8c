#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Draws the plots of docs/PERFORMANCE.md from benchmark output (gnuplot,
# Debian gnuplot-nox):
#   query-vs-size.png  ns per query vs filter size, per kind, with the floor
#                      (from bloom_micro_bench --benchmark_format=csv)
#   blocked-vs-size.png  the blocked kind's add, query, single and batch,
#                      vs filter size, with the read and read-modify-write
#                      floors (same CSV; drawn when it has those rows)
#   fpr-vs-bits.png    measured FPR vs bits per key, per kind, against the
#                      classic filter's theoretical optimum
#                      (from seed_table --fpr-sweep)
#
#   bench/plot.sh MICRO_CSV FPR_TSV OUT_DIR
#
# bench/run_all.sh produces both inputs and calls this.
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 MICRO_CSV FPR_TSV OUT_DIR" >&2
  exit 2
fi
micro=$1 fpr=$2 out=$3
command -v gnuplot >/dev/null || { echo "$0: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every usable row of the micro-benchmark CSV as "op kind hasher bytes ns"
# (floors: "floor variant - bytes ns"). Errored rows (kinds this build
# lacks: "n/a") have no numbers and are left out.
awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); col[h] = i }; next }
  {
    name = $col["name"]; gsub(/"/, "", name)
    if ($col["error_occurred"] ~ /true/ || $col["sec_per_key"] == "") next
    split(name, p, "/")
    ns = $col["sec_per_key"] * 1e9
    if (p[1] == "floor") print p[1], p[2], "-", p[3], ns
    else print p[1], p[2], p[3], p[4], ns
  }' "$micro" > "$tmp/rows"

# split_series SELECT LIST: one data file of "bytes ns" rows per series, and
# LIST of "file<TAB>title" lines in the rows' order. SELECT is awk code run
# on each row: it sets title (and key, the series' file name), or skips
# the row with next.
split_series() {
  awk -v dir="$tmp" -v list="$2" "{ $1 }"'
    {
      file = dir "/" key ".dat"
      if (!(file in seen)) { seen[file] = 1; print file "\t" title > list }
      print $4, $5 > file
    }' "$tmp/rows"
}

# plot_series LIST: gnuplot's plot command for LIST's series; floors thick
# (black for a read, gray for a read-modify-write), prefetched and batch
# series dashed.
plot_series() {
  local cmd="" file title style
  while IFS=$'\t' read -r file title; do
    sort -n "$file" -o "$file"
    case "$title" in
      *read-modify-write*prefetched*) style="lw 3 dt 2 lc rgb 'gray40'" ;;
      *read-modify-write*) style="lw 3 lc rgb 'gray40'" ;;
      floor*prefetched*) style="lw 3 dt 2 lc rgb 'black'" ;;
      floor*) style="lw 3 lc rgb 'black'" ;;
      *batch) style="lw 2 dt 2" ;;
      *) style="lw 2" ;;
    esac
    cmd+="${cmd:+, }'$file' using (\$1/1048576):2 with linespoints $style title '$title'"
  done < "$1"
  echo "$cmd"
}

# size_plot PNG TITLE YLABEL LIST: ns per key vs filter size, both log scales.
size_plot() {
  gnuplot <<GP
set terminal pngcairo size 1000,640 font ',11'
set output '$1'
set title '$2'
set xlabel 'filter size (MiB, log scale)'
set ylabel '$3'
set logscale x 2
set logscale y 2
set grid
set key top left
plot $(plot_series "$4")
GP
}

# Negative queries per kind (XXH3), single and batch, beside the floor of a
# hash and a line read, one at a time and prefetched.
split_series '
  if ($1 == "floor" && $2 == "single") title = "floor (hash + 1 line)"
  else if ($1 == "floor" && $2 == "prefetch32") title = "floor, prefetched x32"
  else if ($3 != "xxh3") next
  else if ($1 == "query_miss") title = $2 " single"
  else if ($1 == "query_batch_miss") title = $2 " batch"
  else next
  key = "query_" $1 "_" $2' "$tmp/query.list"
[ -s "$tmp/query.list" ] || { echo "$0: no usable rows in $micro" >&2; exit 1; }
size_plot "$out/query-vs-size.png" 'Negative query (XXH3, 3-15 byte keys): ns per key vs filter size' \
  'ns per query (CPU time, mean over the run)' "$tmp/query.list"

# The blocked kind's adds and queries, single and batch, beside the floors
# of a read (queries) and of a read-modify-write (adds), one at a time and
# prefetched in blocks of 32: where each path stands against what the
# memory allows, from L1 to DRAM.
split_series '
  if ($1 == "floor") {
    if ($2 == "single") title = "floor: hash + read"
    else if ($2 == "prefetch32") title = "floor: hash + read, prefetched x32"
    else if ($2 == "rmw_single") title = "floor: hash + read-modify-write"
    else if ($2 == "rmw_prefetch32") title = "floor: hash + read-modify-write, prefetched x32"
    else next
  } else if ($2 == "blocked" && $3 == "xxh3") {
    if ($1 == "add") title = "add"
    else if ($1 == "add_batch") title = "add, batch"
    else if ($1 == "query_hit") title = "query+"
    else if ($1 == "query_miss") title = "query-"
    else if ($1 == "query_batch_hit") title = "query+, batch"
    else if ($1 == "query_batch_miss") title = "query-, batch"
    else next
  } else next
  key = "blocked_" $1 "_" $2' "$tmp/blocked.list"
blocked_png=""
if [ -s "$tmp/blocked.list" ]; then
  size_plot "$out/blocked-vs-size.png" \
    'Blocked kind (XXH3, 3-15 byte keys): ns per key vs filter size, beside the floors' \
    'ns per key (CPU time, mean over the run)' "$tmp/blocked.list"
  blocked_png=" $out/blocked-vs-size.png"
fi

# FPR plot: one point set per kind; zero counts cannot be drawn on a log axis.
awk -F'\t' -v dir="$tmp" '
  /^#/ || $1 == "kind" { next }
  $4 > 0 { f = dir "/fpr_" $1 ".dat"; if (!(f in seen)) { seen[f] = 1; print f "\t" $1 > (dir "/fpr.list") }; print $3, $4 > f }' "$fpr"
fpr_cmd="exp(-x * log(2)**2) with lines lw 2 lc rgb 'black' title 'classic optimum e^{-b (ln 2)^2}'"
if [ -s "$tmp/fpr.list" ]; then
  while IFS=$'\t' read -r file kind; do
    fpr_cmd+=", '$file' using 1:2 with linespoints pt 7 ps 1.2 title '$kind (measured)'"
  done < "$tmp/fpr.list"
fi
gnuplot <<GP
set terminal pngcairo size 1000,640 font ',11'
set output '$out/fpr-vs-bits.png'
set title 'Measured false-positive rate vs memory'
set xlabel 'bits per key (filter arrays)'
set ylabel 'false-positive rate'
set logscale y
set format y '10^{%L}'
set grid
set key top right
set xrange [2:22]
plot $fpr_cmd
GP
echo "wrote $out/query-vs-size.png$blocked_png and $out/fpr-vs-bits.png"
