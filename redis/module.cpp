// SPDX-License-Identifier: Apache-2.0
// module.cpp -- the entry point Redis calls on --loadmodule / MODULE LOAD.
#include <bloom/bloom.h>

#include <string>

#include "commands.hpp"
#include "filter_params.hpp"
#include "filter_type.hpp"
#include "redis_module_api.h"
#include "server_allocator.hpp"

namespace {

struct Command {
  const char *name;
  RedisModuleCmdFunc fn;
  const char *flags;
  int first_key, last_key, key_step;  // how Redis Cluster finds the keys
};

const Command kCommands[] = {
    {"BF.RESERVE", bloom_redis::cmd_reserve, "write deny-oom", 1, 1, 1},
    {"BF.ADD", bloom_redis::cmd_add, "write deny-oom", 1, 1, 1},
    {"BF.MADD", bloom_redis::cmd_madd, "write deny-oom", 1, 1, 1},
    {"BF.INSERT", bloom_redis::cmd_insert, "write deny-oom", 1, 1, 1},
    {"BF.EXISTS", bloom_redis::cmd_exists, "readonly fast", 1, 1, 1},
    {"BF.MEXISTS", bloom_redis::cmd_mexists, "readonly fast", 1, 1, 1},
    {"BF.CARD", bloom_redis::cmd_card, "readonly fast", 1, 1, 1},
    {"BF.INFO", bloom_redis::cmd_info, "readonly", 1, 1, 1},
    {"BF.SCANDUMP", bloom_redis::cmd_scandump, "readonly", 1, 1, 1},
    {"BF.LOADCHUNK", bloom_redis::cmd_loadchunk, "write deny-oom", 1, 1, 1},
    // Every argument after the command is a key: dst and all sources.
    {"BF.MERGE", bloom_redis::cmd_merge, "write deny-oom", 1, -1, 1},
};

}  // namespace

extern "C" __attribute__((visibility("default"))) int RedisModule_OnLoad(RedisModuleCtx *ctx,
                                                                         RedisModuleString **argv, int argc) {
  // Registered as "bf", the name clients look for in MODULE LIST.
  if (bloom_redis_api_init(ctx, "bf", static_cast<int>(bloom_version_number())) != REDISMODULE_OK)
    return REDISMODULE_ERR;
  RedisModule_SetModuleOptions(ctx, REDISMODULE_OPTIONS_HANDLE_IO_ERRORS);
  // Before any filter exists (the library refuses a change after).
  if (!bloom_redis::install_server_allocator()) {
    RedisModule_Log(ctx, "warning", "bloom: cannot install Redis's allocator: %s", bloom_last_error());
    return REDISMODULE_ERR;
  }
  std::string error;
  if (!bloom_redis::apply_module_args(argv, argc, &error)) {
    RedisModule_Log(ctx, "warning", "bloom: %s", error.c_str());
    return REDISMODULE_ERR;
  }
  if (bloom_redis::register_filter_type(ctx) != REDISMODULE_OK) {
    RedisModule_Log(ctx, "warning", "bloom: cannot register the data type");
    return REDISMODULE_ERR;
  }
  // RedisBloom's type, for its RDB and DUMP data; not fatal when taken (by
  // RedisBloom itself, loaded beside this module).
  if (bloom_redis::register_redisbloom_type(ctx) != REDISMODULE_OK)
    RedisModule_Log(ctx, "warning",
                    "bloom: the data type MBbloom-- is taken: RedisBloom's RDB data will not load");
  for (const Command &c : kCommands) {
    if (RedisModule_CreateCommand(ctx, c.name, c.fn, c.flags, c.first_key, c.last_key, c.key_step) !=
        REDISMODULE_OK) {
      RedisModule_Log(ctx, "warning", "bloom: cannot register %s", c.name);
      return REDISMODULE_ERR;
    }
  }
  RedisModule_Log(ctx, "notice", "bloom %s: BF.* commands ready", bloom_version_string());
  return REDISMODULE_OK;
}
