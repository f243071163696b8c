// SPDX-License-Identifier: Apache-2.0
// command_docs.hpp -- what COMMAND DOCS and COMMAND INFO say about each BF.*
// command: summary, complexity, arity, arguments and key specs, given to
// Redis with RedisModule_SetCommandInfo (Redis 7.0).
#pragma once

#include "redis_module_api.h"

namespace bloom_redis {

// Describes the registered command `name` (lower case, e.g. "bf.add").
// Returns REDISMODULE_OK, or REDISMODULE_ERR when Redis refuses the
// description; a server without the API (before 7.0) is left alone (OK).
int set_command_docs(RedisModuleCtx *ctx, const char *name);

}  // namespace bloom_redis
