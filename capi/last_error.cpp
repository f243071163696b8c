// SPDX-License-Identifier: Apache-2.0
#include "last_error.hpp"

#include <cstdio>
#include <string>

namespace bloom::capi {

namespace {
// A fixed buffer: recording an error must not itself need to allocate (the
// error may be that memory ran out).
thread_local char t_last_error[512] = "";
}  // namespace

bloom_status set_error(const char *function, bloom_status status, const char *message) noexcept {
  std::snprintf(t_last_error, sizeof t_last_error, "%s: %s", function, message);
  return status;
}

}  // namespace bloom::capi

extern "C" const char *bloom_last_error(void) { return bloom::capi::t_last_error; }
