// SPDX-License-Identifier: Apache-2.0
// save_failure.hpp -- what a save does when a value cannot be written in a
// form its load accepts: it fails, loudly, and never writes the value.
//
// A module cannot make Redis's save fail, and a value the load refuses
// makes the whole RDB unloadable (Redis exits at start-up). admit_filter.hpp
// accepts only values whose save succeeds, so this is reached only when the
// serialization itself cannot allocate. In a save child (BGSAVE, a
// replica's full sync, an AOF rewrite) the child exits with a failure
// status: Redis reports "Background saving error", keeps the old file and,
// by default, refuses writes until a save succeeds. In the server process
// itself (SAVE, SHUTDOWN, DEBUG RELOAD, DUMP) the server aborts with the
// reason in its log, as it does when its own allocations fail: the old RDB
// file is kept, since Redis renames the new one into place only after a
// complete write.
#pragma once

#include <string>

#include "redis_module_api.h"

namespace bloom_redis {

// Records the server's process id (from RedisModule_OnLoad), which tells a
// save child from the server.
void note_server_process();

[[noreturn]] void fail_save(RedisModuleIO *io, const char *type, const std::string &why);

}  // namespace bloom_redis
