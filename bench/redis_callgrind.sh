#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Instructions per pipelined write of a Redis module, under callgrind:
#
#   bench/redis_callgrind.sh MODULE.so [PORT]
#
# Starts redis-server with MODULE under valgrind --tool=callgrind, builds
# the filters bench/redis_bench.py uses (f: 1 M / 1 % filled with 1 M items;
# g: NONSCALING 10 M / 1 % with 1 M), then for each write zeroes the
# counters, runs redis-benchmark (-c 20 -P 16, random items of 10^6:
# 200,000 BF.ADD to f, 200,000 BF.ADD to g, 20,000 BF.MADD of 10 to f) and
# prints per request: the whole server's instructions (cron work included,
# which varies a little between runs), those inside Redis's module command
# dispatcher (the command itself, its key, its reply), and those in module
# command filters, which Redis runs before every command. Counts are
# deterministic where the shared machine's timings are not; compare
# modules with the same script (RedisBloom's .so works too).
set -euo pipefail
module=$(realpath "$1")
port=${2:-6492}
for tool in valgrind callgrind_annotate callgrind_control redis-server redis-benchmark redis-cli; do
  command -v "$tool" >/dev/null || { echo "needs $tool (Debian: valgrind, redis-server, redis-tools)"; exit 1; }
done
work=$(mktemp -d)
pid=
cleanup() {
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
  [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
valgrind --tool=callgrind --callgrind-out-file="$work/cg" --dump-instr=no \
  redis-server --port "$port" --bind 127.0.0.1 --dir "$work" --save '' --loadmodule "$module" \
  >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.3; done
/usr/bin/python3 - "$port" <<'PY'
import sys
import redis
r = redis.Redis(port=int(sys.argv[1]), socket_timeout=600)
r.execute_command("BF.RESERVE", "f", 0.01, 1000000)
r.execute_command("BF.RESERVE", "g", 0.01, 10000000, "NONSCALING")
for key in ("f", "g"):
    p = r.pipeline(transaction=False)
    for i in range(0, 1000000, 1000):
        p.execute_command("BF.MADD", key, *["item:%d" % j for j in range(i, i + 1000)])
        if i % 50000 == 0:
            p.execute()
    p.execute()
PY
item=item:__rand_int__
run() {  # run LABEL REQUESTS COMMAND...
  local label=$1 n=$2
  shift 2
  callgrind_control -z "$pid" >/dev/null 2>&1
  redis-benchmark -p "$port" -n "$n" -c 20 -P 16 -r 1000000 -q "$@" >/dev/null
  callgrind_control -d "$label" "$pid" >/dev/null 2>&1
  local dump
  dump=$(ls -t "$work"/cg.* | head -1)  # the dump just written
  callgrind_annotate --inclusive=yes --threshold=100 "$dump" 2>/dev/null | awk -v n="$n" -v label="$label" '
    { gsub(",", "", $1) }
    /PROGRAM TOTALS/ { total = $1 }
    /RedisModuleCommandDispatcher/ && !d { disp = $1; d = 1 }
    /moduleCallCommandFilters/ && !f { filt = $1; f = 1 }
    END { printf "%-18s server %6d  dispatcher %6d  command filters %4d  (per request)\n",
                 label, total / n, disp / n, filt / n }'
}
echo "$(redis-server --version | cut -d' ' -f1-3); module $module"
run BF.ADD 200000 BF.ADD f "$item"
run BF.ADD_NONSCALING 200000 BF.ADD g "$item"
run BF.MADD_x10 20000 BF.MADD f $item $item $item $item $item $item $item $item $item $item
