// SPDX-License-Identifier: Apache-2.0
// module_config.hpp -- CONFIG GET / CONFIG SET of the module's settings
// (Redis 7.0's module configuration API).
//
// Names: Redis 8 lets a module register unprefixed names, and RedisBloom's
// are bf-error-rate, bf-initial-size and bf-expansion-factor; the module
// registers those (and bf-max-filter-bytes, bf-encoding) when the server
// takes the flag.
// Redis 7 prefixes every module config with the module's name, so there
// they are bf.error-rate, bf.initial-size, bf.expansion-factor and
// bf.max-filter-bytes, and a command filter rewrites RedisBloom's names in
// CONFIG GET / CONFIG SET to them, so `CONFIG SET bf-error-rate 0.001`
// works on both (CONFIG GET then answers under the bf.* name on Redis 7).
#pragma once

#include <string>

#include "redis_module_api.h"

namespace bloom_redis {

// Registers the configs with the current settings (module arguments
// applied) as defaults, then loads the values redis.conf gives. Returns
// REDISMODULE_OK; on a server without the API (before 7.0) it does nothing.
int register_module_config(RedisModuleCtx *ctx, std::string *error);

}  // namespace bloom_redis
