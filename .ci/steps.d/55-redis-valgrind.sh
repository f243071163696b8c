#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# redis-server itself under valgrind, driven through the module's commands
# that replace, copy, dump and restore values. ASan (50-redis-asan.sh) checks
# the module's own code, but Redis allocates with jemalloc and is not
# instrumented, so a Redis function reading a value the module already freed
# (BF.MERGE naming its destination as a source did) shows only here.
set -euo pipefail
module="$PWD/build/redis/bloom_redis.so"
[ -f "$module" ] || { echo "FAIL: $module not built"; exit 1; }
work=$(mktemp -d)
port=6399
cleanup() {
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
valgrind --error-exitcode=9 --suppressions=.ci/redis-valgrind.supp --log-file="$work/valgrind.log" \
  redis-server --port "$port" --bind 127.0.0.1 --dir "$work" --save '' --enable-debug-command local \
  --loadmodule "$module" \
  >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.5; done
cli() { redis-cli -p "$port" "$@"; }
expect() {  # expect WANT CMD...: the reply must be WANT
  local want=$1; shift
  local got; got=$(cli "$@")
  [ "$got" = "$want" ] || { echo "FAIL: $* -> '$got', expected '$want'"; exit 1; }
}
expect 1 BF.ADD a x
expect 1 BF.ADD b y
expect OK BF.MERGE a a b
expect OK BF.MERGE a b a
expect OK BF.MERGE b b
expect OK BF.MERGE c a b
expect "$(printf '1\n1\n0')" BF.MEXISTS c x y never-added
expect OK BF.RESERVE s 0.01 10
for i in $(seq 1 100); do cli BF.ADD s "k$i" >/dev/null; done
cli DUMP s >/dev/null
expect OK RENAME s t
expect 1 COPY t u
expect 1 DEL t
expect OK DEBUG RELOAD
expect 1 BF.EXISTS u k50
cli BF.DEBUG u >/dev/null
expect 1 DEL a
# A small filter's compact form: copied, dumped, read as a live filter,
# refused a first chunk, then made live for good by the add that grows a
# stage (the key's value replaced in place, its TTL kept).
expect OK BF.RESERVE small 0.01 100
expect 1 BF.ADD small x
expect 1 COPY small small2
cli DUMP small >/dev/null
cli BF.INFO small >/dev/null
cli BF.SCANDUMP small 0 >/dev/null
cli BF.LOADCHUNK small 1 header >/dev/null
expect 1 EXPIRE small 1000
for i in $(seq 1 3); do cli BF.MADD small $(seq -f "g$i-%g" 1 50) >/dev/null; done
expect "$(printf '1\n1\n0')" BF.MEXISTS small x g3-50 never-added
expect "$(printf '1\n0')" BF.MEXISTS small2 x g1-1
# RedisBloom's paths: a reply ended at the first full item, RESP3 replies,
# CONFIG SET/GET through the name filter and the string config the module
# keeps, COMMAND DOCS from the module's descriptions.
expect OK BF.RESERVE n 0.01 2 NONSCALING
expect "$(printf '1\n1\nERR non scaling filter is full')" BF.MADD n p q r s
expect "(true)" -3 BF.ADD r3 x
cli -3 BF.INFO r3 >/dev/null
cli -3 BF.INFO r3 SIZE >/dev/null
expect OK CONFIG SET bf-error-rate 0.002
expect "$(printf 'bf.error-rate\n0.002')" CONFIG GET bf-error-rate
expect OK CONFIG SET bf-error-rate 0.01
cli COMMAND DOCS bf.insert >/dev/null
# RedisBloom's data (redis/tests/fixtures/redisbloom): its DUMP value
# restored, saved back in its encoding through a reload, and answering.
fx=redis/tests/fixtures/redisbloom/f2_cap100_p0.001_exp2_n2000
expect OK -x RESTORE rb 0 <"$fx.dump"
expect OK DEBUG RELOAD
expect MBbloom-- TYPE rb
expect 1997 BF.CARD rb
expect "$(printf '1\n1\n0')" BF.MEXISTS rb item:0 item:999 absent:0
cli FLUSHALL >/dev/null
cli shutdown nosave >/dev/null 2>&1 || true
status=0
wait "$server" || status=$?
if [ "$status" -ne 0 ] || ! grep -q 'ERROR SUMMARY: 0 errors' "$work/valgrind.log"; then
  echo "FAIL: valgrind found errors in redis-server (exit $status):"
  grep -E -A12 'Invalid|uninitialised|ERROR SUMMARY' "$work/valgrind.log" | head -60
  exit 1
fi
echo "redis-server under valgrind: no errors"
