// SPDX-License-Identifier: Apache-2.0
// filter_type.hpp -- the Redis data type "bloomfltr": persistence (RDB,
// DUMP/RESTORE, AOF rewrite), memory accounting, COPY and DEBUG DIGEST.
#pragma once

#include "redis_module_api.h"

namespace bloom_redis {

// RDB encoding version of the type. 1: an unsigned state (0 = live filter,
// 1 = restore in progress), then for a live filter its serialized image as
// one string; for a restore the declared total size and the bytes so far.
inline constexpr int kFilterTypeEncoding = 1;

// Registers the type into g_filter_type. Returns REDISMODULE_OK or _ERR.
int register_filter_type(RedisModuleCtx *ctx);

}  // namespace bloom_redis
