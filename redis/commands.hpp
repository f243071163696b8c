// SPDX-License-Identifier: Apache-2.0
// commands.hpp -- the BF.* command handlers (RedisModuleCmdFunc each).
#pragma once

#include "redis_module_api.h"

namespace bloom_redis {

int cmd_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_madd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_card(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_debug(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_merge(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int cmd_addat(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);  // window_filter.cpp

}  // namespace bloom_redis
