// SPDX-License-Identifier: Apache-2.0
// filter_type.hpp -- the Redis data type "bloomfltr": persistence (RDB,
// DUMP/RESTORE, AOF rewrite), memory accounting, COPY and DEBUG DIGEST.
#pragma once

#include "filter_value.hpp"
#include "redis_module_api.h"

namespace bloom_redis {

// RDB encoding version of the type. 1: an unsigned state (0 = live filter,
// 1 = restore in progress), then for a live filter its serialized image as
// one string; for a restore the declared total size and the bytes so far.
inline constexpr int kFilterTypeEncoding = 1;

// Registers the type into g_filter_type. Returns REDISMODULE_OK or _ERR.
int register_filter_type(RedisModuleCtx *ctx);

// The methods both data types share, for values in either form:
// AOF rewrite (as BF.LOADCHUNK commands of bloom's image), MEMORY USAGE,
// DEBUG DIGEST-VALUE, free, free effort and COPY.
void set_shared_type_methods(RedisModuleTypeMethods *tm);

// What a key stores for the live value v: its compact form when it has one
// (v is then freed), else v (compact_filter.hpp).
StoredValue *stored_form(FilterValue *v);

// Registers RedisBloom's data type "MBbloom--" (encoding 4) into g_rb_type:
// redisbloom_type.cpp.
int register_redisbloom_type(RedisModuleCtx *ctx);

}  // namespace bloom_redis
