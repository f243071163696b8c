// SPDX-License-Identifier: Apache-2.0
// module.cpp -- the entry point Redis calls on --loadmodule / MODULE LOAD.
#include <bloom/bloom.h>

#include <string>

#include "command_docs.hpp"
#include "commands.hpp"
#include "filter_params.hpp"
#include "filter_type.hpp"
#include "module_config.hpp"
#include "redis_module_api.h"
#include "save_failure.hpp"
#include "server_allocator.hpp"

namespace {

struct Command {
  const char *name;  // lower case, as RedisBloom registers them
  RedisModuleCmdFunc fn;
  const char *flags;
  int first_key, last_key, key_step;  // how Redis Cluster finds the keys
  // ACL categories (Redis 7.2+; "bloom" is added where the server can
  // create it, 7.4+). The flags give read/write/fast on servers that derive
  // categories from them.
  const char *acl;
};

const Command kCommands[] = {
    {"bf.reserve", bloom_redis::cmd_reserve, "write deny-oom fast", 1, 1, 1, "write fast"},
    {"bf.add", bloom_redis::cmd_add, "write deny-oom fast", 1, 1, 1, "write fast"},
    {"bf.madd", bloom_redis::cmd_madd, "write deny-oom fast", 1, 1, 1, "write fast"},
    {"bf.insert", bloom_redis::cmd_insert, "write deny-oom fast", 1, 1, 1, "write fast"},
    {"bf.exists", bloom_redis::cmd_exists, "readonly fast", 1, 1, 1, "read fast"},
    {"bf.mexists", bloom_redis::cmd_mexists, "readonly fast", 1, 1, 1, "read fast"},
    {"bf.card", bloom_redis::cmd_card, "readonly fast", 1, 1, 1, "read fast"},
    {"bf.info", bloom_redis::cmd_info, "readonly fast", 1, 1, 1, "read fast"},
    {"bf.debug", bloom_redis::cmd_debug, "readonly", 1, 1, 1, "read"},
    {"bf.scandump", bloom_redis::cmd_scandump, "readonly fast", 1, 1, 1, "read fast"},
    {"bf.loadchunk", bloom_redis::cmd_loadchunk, "write deny-oom", 1, 1, 1, "write"},
    // Every argument after the command is a key: dst and all sources.
    {"bf.merge", bloom_redis::cmd_merge, "write deny-oom", 1, -1, 1, "write"},
};

// Categories, commands' documentation: refused descriptions are logged, not
// fatal (the commands work without them).
void describe_command(RedisModuleCtx *ctx, const Command &c, bool bloom_category) {
  if (bloom_redis::set_command_docs(ctx, c.name) != REDISMODULE_OK)
    RedisModule_Log(ctx, "warning", "bloom: COMMAND DOCS for %s refused", c.name);
  if (RedisModule_SetCommandACLCategories == nullptr || RedisModule_GetCommand == nullptr) return;
  RedisModuleCommand *cmd = RedisModule_GetCommand(ctx, c.name);
  const std::string categories = std::string(c.acl) + (bloom_category ? " bloom" : "");
  if (cmd == nullptr || RedisModule_SetCommandACLCategories(cmd, categories.c_str()) != REDISMODULE_OK)
    RedisModule_Log(ctx, "warning", "bloom: ACL categories for %s refused", c.name);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int RedisModule_OnLoad(RedisModuleCtx *ctx,
                                                                         RedisModuleString **argv, int argc) {
  // Registered as "bf", the name clients look for in MODULE LIST.
  if (bloom_redis_api_init(ctx, "bf", static_cast<int>(bloom_version_number())) != REDISMODULE_OK)
    return REDISMODULE_ERR;
  RedisModule_SetModuleOptions(ctx, REDISMODULE_OPTIONS_HANDLE_IO_ERRORS);
  bloom_redis::note_server_process();
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
  if (bloom_redis::register_module_config(ctx, &error) != REDISMODULE_OK) {
    RedisModule_Log(ctx, "warning", "bloom: %s", error.c_str());
    return REDISMODULE_ERR;
  }
  // @bloom, as RedisBloom on servers that let modules add categories.
  const bool bloom_category =
      RedisModule_AddACLCategory != nullptr && RedisModule_AddACLCategory(ctx, "bloom") == REDISMODULE_OK;
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
    describe_command(ctx, c, bloom_category);
  }
  RedisModule_Log(ctx, "notice", "bloom %s: BF.* commands ready", bloom_version_string());
  return REDISMODULE_OK;
}
