#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Redis module's tests with the module built under ASan+UBSan, loaded
# into Debian's (uninstrumented) redis-server with the sanitizer runtimes
# preloaded. Leak checking stays off: it would report redis-server's own
# allocations kept until exit. Any report is written under $logs and fails
# the step; UBSan findings abort the server (-fno-sanitize-recover), which
# fails the test that was talking to it.
set -euo pipefail
build=build-redis-asan
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLOOM_SANITIZE=address -DBLOOM_BUILD_REDIS=ON \
  -DBLOOM_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target bloom_redis bloom_redis_interop

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
logs="$work/logs"
mkdir -p "$logs" "$work/bin"
cat >"$work/bin/redis-server" <<WRAP
#!/bin/sh
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS=detect_leaks=0:log_path=$logs/asan
export UBSAN_OPTIONS=print_stacktrace=1:log_path=$logs/ubsan
exec /usr/bin/redis-server "\$@"
WRAP
chmod +x "$work/bin/redis-server"

export PATH="$work/bin:$PATH"
export BLOOM_REDIS_MODULE="$PWD/$build/redis/bloom_redis.so"
export BLOOM_REDIS_INTEROP="$PWD/$build/redis/tests/bloom_redis_interop"
status=0
/usr/bin/python3 redis/tests/test_single_node.py || status=1
/usr/bin/python3 redis/tests/test_cluster.py || status=1
/usr/bin/python3 redis/tests/test_memory.py || status=1
/usr/bin/python3 redis/tests/test_redisbloom_parity.py || status=1
/usr/bin/python3 redis/tests/test_redisbloom_compat.py || status=1
/usr/bin/python3 redis/tests/test_window.py || status=1
if [ -n "$(ls -A "$logs")" ]; then
  echo "sanitizer reports from redis-server with the module:"
  cat "$logs"/*
  status=1
fi
exit $status
