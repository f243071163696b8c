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

# One data file per series ("<kind> single", "<kind> batch", "floor ..."),
# rows "bytes ns_per_key", from the XXH3 negative-query benchmarks. Errored
# rows (kinds this build lacks: "n/a") have no numbers and are left out.
awk -F, -v dir="$tmp" '
  NR == 1 { for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); col[h] = i }; next }
  {
    name = $col["name"]; gsub(/"/, "", name)
    if ($col["error_occurred"] ~ /true/ || $col["sec_per_key"] == "") next
    n = split(name, p, "/")
    ns = $col["sec_per_key"] * 1e9
    if (p[1] == "floor" && (p[2] ~ /xxh3_128/ || p[2] ~ /^rmw/)) next
    if (p[1] == "floor") { series = (p[2] == "single") ? "floor (hash + 1 line)" : "floor, prefetched x32"; bytes = p[3] }
    else if (p[3] != "xxh3") next
    else if (p[1] == "query_miss") { series = p[2] " single"; bytes = p[4] }
    else if (p[1] == "query_batch_miss") { series = p[2] " batch"; bytes = p[4] }
    else next
    file = dir "/" series ".dat"; gsub(/ /, "_", file)
    if (!(file in seen)) { seen[file] = 1; print file "\t" series > (dir "/series.list") }
    print bytes, ns > file
  }' "$micro"
[ -s "$tmp/series.list" ] || { echo "$0: no usable rows in $micro" >&2; exit 1; }

plot_cmd=""
while IFS=$'\t' read -r file title; do
  sort -n "$file" -o "$file"
  case "$title" in
    floor*prefetched*) style="lw 3 dt 2 lc rgb 'black'" ;;
    floor*) style="lw 3 lc rgb 'black'" ;;
    *batch) style="lw 2 dt 2" ;;
    *) style="lw 2" ;;
  esac
  plot_cmd+="${plot_cmd:+, }'$file' using (\$1/1048576):2 with linespoints $style title '$title'"
done < "$tmp/series.list"

gnuplot <<GP
set terminal pngcairo size 1000,640 font ',11'
set output '$out/query-vs-size.png'
set title 'Negative query (XXH3, 3-15 byte keys): ns per key vs filter size'
set xlabel 'filter size (MiB, log scale)'
set ylabel 'ns per query (CPU time, mean over the run)'
set logscale x 2
set logscale y 2
set grid
set key top left
plot $plot_cmd
GP

# The blocked kind's adds and queries, single and batch, beside the floors
# of a read (queries) and of a read-modify-write (adds), one at a time and
# prefetched in blocks of 32: where each path stands against what the
# memory allows, from L1 to DRAM.
awk -F, -v dir="$tmp" '
  NR == 1 { for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); col[h] = i }; next }
  {
    name = $col["name"]; gsub(/"/, "", name)
    if ($col["error_occurred"] ~ /true/ || $col["sec_per_key"] == "") next
    n = split(name, p, "/")
    ns = $col["sec_per_key"] * 1e9
    if (p[1] == "floor") {
      if (p[2] == "single") series = "floor: hash + read"
      else if (p[2] == "prefetch32") series = "floor: hash + read, prefetched x32"
      else if (p[2] == "rmw_single") series = "floor: hash + read-modify-write"
      else if (p[2] == "rmw_prefetch32") series = "floor: hash + read-modify-write, prefetched x32"
      else next
      bytes = p[3]; file = dir "/blocked_floor_" p[2] ".dat"
    } else if (p[2] == "blocked" && p[3] == "xxh3") {
      if (p[1] == "add") series = "add"
      else if (p[1] == "add_batch") series = "add, batch"
      else if (p[1] == "query_hit") series = "query+"
      else if (p[1] == "query_miss") series = "query-"
      else if (p[1] == "query_batch_hit") series = "query+, batch"
      else if (p[1] == "query_batch_miss") series = "query-, batch"
      else next
      bytes = p[4]; file = dir "/blocked_" p[1] ".dat"
    } else next
    if (!(file in seen)) { seen[file] = 1; print file "\t" series > (dir "/blocked.list") }
    print bytes, ns > file
  }' "$micro"
if [ -s "$tmp/blocked.list" ]; then
  blocked_cmd=""
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
    blocked_cmd+="${blocked_cmd:+, }'$file' using (\$1/1048576):2 with linespoints $style title '$title'"
  done < "$tmp/blocked.list"
  gnuplot <<GP
set terminal pngcairo size 1000,640 font ',11'
set output '$out/blocked-vs-size.png'
set title 'Blocked kind (XXH3, 3-15 byte keys): ns per key vs filter size, beside the floors'
set xlabel 'filter size (MiB, log scale)'
set ylabel 'ns per key (CPU time, mean over the run)'
set logscale x 2
set logscale y 2
set grid
set key top left
plot $blocked_cmd
GP
  blocked_png=" $out/blocked-vs-size.png"
else
  blocked_png=""
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
