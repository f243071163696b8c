#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Draws the two plots of docs/PERFORMANCE.md from benchmark output (gnuplot,
# Debian gnuplot-nox):
#   query-vs-size.png  ns per query vs filter size, per kind, with the floor
#                      (from bloom_micro_bench --benchmark_format=csv)
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
    if (p[1] == "floor" && p[2] ~ /xxh3_128/) next
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
echo "wrote $out/query-vs-size.png and $out/fpr-vs-bits.png"
