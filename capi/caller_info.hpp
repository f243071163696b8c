// SPDX-License-Identifier: Apache-2.0
// caller_info.hpp -- filling a caller's bloom_info of whatever size it has.
//
// The caller sets struct_size; the core fills an Info, which becomes a full
// bloom_info (c_info.hpp), and only the bytes the caller's struct covers are
// copied back, so callers compiled against an older, shorter bloom_info keep
// working when members are appended.
#pragma once

#include <algorithm>
#include <cstring>

#include "bloom/bloom.h"
#include "c_info.hpp"
#include "error.hpp"

namespace bloom::capi {

template <typename Fill>
void fill_caller_info(bloom_info *out, Fill &&fill) {
  if (out->struct_size < sizeof(size_t))
    core::fail(core::Status::kInvalidArg, "info.struct_size is not set; set it to sizeof(bloom_info)");
  // Zeroed bytewise, padding included: whatever the caller's struct_size
  // covers is copied out, and no byte of it is left unspecified.
  core::Info info{};
  fill(info);
  bloom_info full;
  std::memset(&full, 0, sizeof full);
  full.struct_size = sizeof full;
  to_c_info(info, full);
  const size_t caller_size = std::min(out->struct_size, sizeof full);
  std::memcpy(out, &full, caller_size);
  out->struct_size = caller_size;
}

}  // namespace bloom::capi
