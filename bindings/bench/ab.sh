#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Before/after of the Node and Java bindings' per-call cost in one run: the
# bindings of BEFORE (a commit; its bindings/node and bindings/java are
# exported with git archive and built in a temporary directory) and of the
# working tree, alternated ROUNDS times with the C baseline, so load on the
# machine falls on all alike. Prints, per binding and operation, the median
# ns per key over the rounds, C's median, and the median of the per-round
# ratios to C (each round's binding over the same round's C).
#   bindings/bench/ab.sh a6ae5fd          (ROUNDS=5; PKG_CONFIG_PATH for a non-system bloom)
# Needs node, npm's node-gyp, a JDK, libjna-java, a C compiler: both trees build.
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
before=${1:?usage: ab.sh <commit> (the bindings to compare the working tree with)}
ROUNDS=${ROUNDS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

libdir=$(pkg-config --variable=libdir bloom)
# shellcheck disable=SC2046
cc -O2 -std=c99 -Wall -Wextra c_per_call.c $(pkg-config --cflags --libs bloom) -Wl,-rpath,"$libdir" -o "$work/c_per_call"
(cd "$(git rev-parse --show-toplevel)" && git archive "$before" bindings/node bindings/java) | tar -x -C "$work"
for tree in "$work/bindings" "$here/.."; do
  (cd "$tree/node" && npm run --silent build >"$work/node-build.log" 2>&1) || { cat "$work/node-build.log"; exit 1; }
  "$tree/java/build.sh" >/dev/null
done

run() { # label dir-of-bindings
  node "$2/node/bench/per_call.js" 2>/dev/null | sed "s/^/node_$1 $r /" >>"$work/all"
  "$2/java/build.sh" bench 2>/dev/null | grep -v '^built ' | sed "s/^/java_$1 $r /" >>"$work/all"
}
for r in $(seq "$ROUNDS"); do
  "$work/c_per_call" 2>/dev/null | sed "s/^/c $r /" >>"$work/all"
  run before "$work/bindings"
  run after "$here/.."
  echo "round $r of $ROUNDS done, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "before = $before, after = the working tree; process CPU ns per key, medians of $ROUNDS rounds"
python3 - "$work/all" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    lang, r, name, ns = line.split()
    rows[(lang, name)][r] = float(ns)
c = {name: v for (lang, name), v in rows.items() if lang == "c"}
print(f"{'binding':12} {'operation':20} {'ns/key':>7} {'C':>6} {'ratio':>6}")
for (lang, name), v in sorted(rows.items()):
    if lang == "c":
        continue
    base = c[name.rsplit("_", 1)[0]]
    ratios = [v[r] / base[r] for r in v if r in base]
    print(f"{lang:12} {name:20} {statistics.median(v.values()):7.1f} {statistics.median(base.values()):6.1f} {statistics.median(ratios):6.2f}")
PY
