#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Per-call cost of each binding beside the C API, in one run: the C
# baseline (c_per_call.c), then each language's bench doing the same work,
# alternated ROUNDS times so load on the machine hits all alike; each
# program prints the median of its own rounds, and this prints the median
# over the alternations, process CPU ns per key, and the ratio to C.
#   bindings/bench/run.sh            (ROUNDS=3; PKG_CONFIG_PATH for a non-system bloom)
# Languages whose toolchain or build is missing are skipped with a message.
set -euo pipefail
cd "$(dirname "$0")"
ROUNDS=${ROUNDS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

libdir=$(pkg-config --variable=libdir bloom)
# shellcheck disable=SC2046
cc -O2 -std=c99 -Wall -Wextra c_per_call.c $(pkg-config --cflags --libs bloom) -Wl,-rpath,"$libdir" -o "$work/c_per_call"

langs=(c)
run_c() { "$work/c_per_call" 2>/dev/null; }
if command -v node >/dev/null && [ -f ../node/build/Release/bloomkit.node ]; then
  langs+=(node)
  run_node() { node ../node/bench/per_call.js 2>/dev/null; }
else
  echo "node: skipped (no node, or bindings/node not built: npm run build)"
fi
if command -v java >/dev/null && [ -f /usr/share/java/jna.jar ]; then
  ../java/build.sh >/dev/null
  langs+=(java)
  run_java() { ../java/build.sh bench 2>/dev/null | grep -v '^built '; }
else
  echo "java: skipped (no java or no libjna-java)"
fi

for r in $(seq "$ROUNDS"); do
  for l in "${langs[@]}"; do
    "run_$l" | sed "s/^/$l $r /" >>"$work/all"
  done
done

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "process CPU ns per key, median of $ROUNDS alternations (each the median of 5 rounds); 1M keys, classic, p = 1%, batches of 1000"
python3 - "$work/all" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    lang, _, name, ns = line.split()
    rows[(lang, name)].append(float(ns))
med = {k: statistics.median(v) for k, v in rows.items()}
print(f"{'language':8} {'operation':22} {'ns/key':>8} {'C ns/key':>9} {'ratio':>6}")
for (lang, name), ns in sorted(med.items()):
    op = name.rsplit("_", 1)[0] if lang != "c" else name
    c = med.get(("c", op))
    ratio = f"{ns / c:.2f}" if c and lang != "c" else ""
    print(f"{lang:8} {name:22} {ns:8.1f} {c if c else 0:9.1f} {ratio:>6}")
PY
