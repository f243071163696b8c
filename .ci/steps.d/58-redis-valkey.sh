#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Redis module's test suites (ctest label `redis`) again, on Valkey 8
# (Debian 12's bookworm-backports, scripts/packages.d/valkey.txt): the same
# module file, loaded into valkey-server, driven through valkey-cli for the
# cluster and reply-shape tests. About a minute on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valkey-server >/dev/null || { echo "58: FAIL: valkey-server not installed (scripts/setup.sh)"; exit 1; }
[ -f build/redis/bloom_redis.so ] || { echo "58: FAIL: build/redis/bloom_redis.so not built"; exit 1; }
echo "58: $(valkey-server --version)"
BLOOM_REDIS_SERVER=valkey-server BLOOM_REDIS_CLI=valkey-cli \
  ctest --test-dir build -L redis -j2 --output-on-failure
