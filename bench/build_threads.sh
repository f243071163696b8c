#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bloom build --threads 1 vs 2 (and vs the concurrent-flag strategy) on one
# generated key file: median wall seconds over REPS interleaved runs, keys
# per second, the speed-up over 1 thread, and the machine. Every run's
# file is compared with the 1-thread file (cmp), so a speed-up is only
# printed for identical bytes.
#
#   bench/build_threads.sh BLOOM [KEYS] [REPS] [KINDS]
#   bench/build_threads.sh build/tools/bloom 10000000 5 "classic blocked"
set -euo pipefail
bloom=${1:?usage: $0 BLOOM [KEYS] [REPS] [KINDS]}
keys=${2:-10000000}
reps=${3:-5}
kinds=${4:-classic blocked}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

seq 1 "$keys" | sed 's/^/user-/' >"$dir/keys.txt"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs available," \
  "load $(cut -d' ' -f1-3 /proc/loadavg); $("$bloom" --version 2>/dev/null | head -1)" \
  "($(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "$keys keys ($(du -m "$dir/keys.txt" | cut -f1) MB of text), p = 0.01, median of $reps runs;" \
  "'-n' rows give the capacity (one read), the others count first (two reads)"

# label strategy threads extra-args...
configs=("1 thread|per-thread|1" "2 threads|per-thread|2" "2 threads, shared filter|shared|2")
declare -A times
for rep in $(seq 1 "$reps"); do
  for kind in $kinds; do
    for count in "" "-n $keys"; do
      for cfg in "${configs[@]}"; do
        IFS='|' read -r label strategy threads <<<"$cfg"
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        BLOOM_BUILD_STRATEGY=$strategy "$bloom" build "$dir/keys.txt" -o "$dir/out.bloom" --kind "$kind" \
          -p 0.01 --threads "$threads" $count -q
        end=$(date +%s.%N)
        if [ "$threads" = 1 ]; then
          cp "$dir/out.bloom" "$dir/one.bloom"
        elif ! cmp -s "$dir/out.bloom" "$dir/one.bloom"; then
          echo "FAIL: $kind $label $count: the file differs from the 1-thread file" >&2
          exit 1
        fi
        key="$kind|${count:+-n}|$label"
        times[$key]="${times[$key]:-} $(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b - a}')"
      done
    done
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# The speed-up is taken inside each repetition (1 thread / this path, runs
# seconds apart), then the median and range over repetitions: the host's
# load drifts over minutes (the same run took 16 s and 83 s in one sitting).
ratios() {
  paste <(echo "$1" | tr ' ' '\n' | grep -v '^$') <(echo "$2" | tr ' ' '\n' | grep -v '^$') |
    awk '{printf "%.3f ", $1 / $2}'
}
printf '\n%-8s %-3s %-26s %9s %9s %9s %14s   %s\n' kind -n path "median s" "M keys/s" speed-up "(range)" "runs (s)"
for kind in $kinds; do
  for n in "" "-n"; do
    base_runs=${times[$kind|$n|1 thread]}
    for cfg in "${configs[@]}"; do
      IFS='|' read -r label _ _ <<<"$cfg"
      runs=${times[$kind|$n|$label]}
      m=$(echo "$runs" | median)
      r=$(ratios "$base_runs" "$runs")
      rm=$(echo "$r" | median)
      lo=$(echo "$r" | tr ' ' '\n' | grep -v '^$' | sort -g | head -1)
      hi=$(echo "$r" | tr ' ' '\n' | grep -v '^$' | sort -g | tail -1)
      awk -v kind="$kind" -v n="${n:--}" -v label="$label" -v m="$m" -v keys="$keys" -v rm="$rm" \
        -v lo="$lo" -v hi="$hi" -v runs="$runs" 'BEGIN{printf "%-8s %-3s %-26s %9.2f %9.2f %8.2fx %6.2f-%.2fx   %s\n",
        kind, n, label, m, keys / m / 1e6, rm, lo, hi, runs}'
    done
  done
done
echo "every multi-thread file equals the 1-thread file byte for byte"
