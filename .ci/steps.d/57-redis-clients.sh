#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Redis module through the clients users run, in both protocols:
# node-redis from npm (RESP2 and RESP3: its bf.* helpers see RedisBloom's
# booleans and BF.INFO map), redis-py's r.bf() helpers (RESP2: Debian's
# python3-redis 4.3 has no RESP3) and redis-cli -2/-3 for the reply shapes;
# and the example of several Node.js processes sharing one window filter.
# npm packages are cached between runs in $BLOOM_NPM_CACHE.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
module="$PWD/build/redis/bloom_redis.so"
[ -f "$module" ] || { echo "57: FAIL: $module not built"; exit 1; }

if ! command -v npm >/dev/null; then
  echo "57: installing npm"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
cache=${BLOOM_NPM_CACHE:-$HOME/.cache/bloom-ci-npm}
clients="$cache/redis-clients"
mkdir -p "$clients"
if ! [ -f "$clients/node_modules/redis/package.json" ]; then
  echo "57: npm install redis@5 (node-redis) into $clients"
  [ -f "$clients/package.json" ] || (cd "$clients" && npm init -y >/dev/null)
  (cd "$clients" && npm_config_cache="$cache/npm" npm install --silent --no-audit --no-fund redis@5)
fi
echo "57: node $(node --version), node-redis $(node -p "require('$clients/node_modules/redis/package.json').version")"

work=$(mktemp -d)
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() {
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
redis-server --port "$port" --bind 127.0.0.1 --dir "$work" --save '' --loadmodule "$module" >"$work/server.log" 2>&1 &
for _ in $(seq 1 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done

echo "57: node-redis, RESP2 and RESP3"
REDIS_PORT="$port" NODE_PATH="$clients/node_modules" node redis/tests/node_client_test.js

# examples/node_window_dedup.js: 4 processes de-duplicate 20,000 clicks
# (5,000 a second, ~7 s) through one window filter: no repeat may pass.
echo "57: examples/node_window_dedup.js --check"
NODE_PATH="$clients/node_modules" node examples/node_window_dedup.js --port "$port" --check

echo "57: redis-py r.bf() helpers (RESP2) and redis-cli -2/-3 shapes"
export BLOOM_REDIS_MODULE="$module"
/usr/bin/python3 redis/tests/test_single_node.py SingleNode.test_redis_py_helpers
/usr/bin/python3 redis/tests/test_redisbloom_parity.py Parity.test_redis_cli_resp3_shapes \
  Parity.test_add_exists_answer_booleans_in_resp3
echo "57: done in $(( $(date +%s) - start )) s"
