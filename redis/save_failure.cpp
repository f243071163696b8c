// SPDX-License-Identifier: Apache-2.0
#include "save_failure.hpp"

#include <unistd.h>

#include <cstdlib>

namespace bloom_redis {

namespace {
pid_t g_server_pid = 0;
}  // namespace

void note_server_process() { g_server_pid = getpid(); }

void fail_save(RedisModuleIO *io, const char *type, const std::string &why) {
  const bool child = getpid() != g_server_pid;
  RedisModule_LogIOError(io, "warning",
                         "%s: cannot save a value in a form its load accepts (%s); %s rather than write a "
                         "file that cannot be loaded",
                         type, why.c_str(),
                         child ? "the save fails" : "the server stops, keeping the old RDB file,");
  if (child) _exit(1);
  std::abort();
}

}  // namespace bloom_redis
