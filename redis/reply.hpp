// SPDX-License-Identifier: Apache-2.0
// reply.hpp -- RESP3 reply shapes with RESP2 fallbacks, as RedisBloom
// answers: booleans for the add/exists answers and maps for BF.INFO.
//
// RedisModule_ReplyWithBool and RedisModule_ReplyWithMap (Redis 7.0) send
// RESP3 types to a RESP3 client (HELLO 3) and an integer 1/0 or a flat
// array of key, value, ... to a RESP2 one, so callers need not look at the
// protocol. On a server without them (before 7.0) the module sends the
// RESP2 shape itself.
#pragma once

#include "redis_module_api.h"

namespace bloom_redis {

inline int reply_bool(RedisModuleCtx *ctx, bool b) {
  if (RedisModule_ReplyWithBool != nullptr) return RedisModule_ReplyWithBool(ctx, b ? 1 : 0);
  return RedisModule_ReplyWithLongLong(ctx, b ? 1 : 0);
}

// A map of `pairs` key/value pairs (the caller replies with 2 * pairs items).
inline int reply_map(RedisModuleCtx *ctx, long pairs) {
  if (RedisModule_ReplyWithMap != nullptr) return RedisModule_ReplyWithMap(ctx, pairs);
  return RedisModule_ReplyWithArray(ctx, 2 * pairs);
}

// Whether the client speaks RESP3 (HELLO 3).
inline bool client_resp3(RedisModuleCtx *ctx) {
  return (RedisModule_GetContextFlags(ctx) & REDISMODULE_CTX_FLAGS_RESP3) != 0;
}

}  // namespace bloom_redis
