// SPDX-License-Identifier: Apache-2.0
// blocked_view_api.cpp -- bloom_get_blocked_view: where a blocked filter's
// bits are, for the header-only probe (include/bloom/bloom_probe.h) and for
// bindings that probe and add in their own language (bloom_view_added).
#include "blocked_bits.hpp"
#include "bloom/bloom.h"
#include "error.hpp"
#include "guard.hpp"
#include "handle.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
using bloom::capi::to_core;

extern "C" {

bloom_status bloom_get_blocked_view(const bloom_filter *f, bloom_blocked_view *out) {
  return guarded("bloom_get_blocked_view", [&] {
    require_arg(f, "filter");
    require_arg(out, "out");
    if (out->struct_size < sizeof(bloom_blocked_view))
      bloom::core::fail(bloom::core::Status::kInvalidArg,
                        "out->struct_size is smaller than this library's bloom_blocked_view");
    const auto bits = bloom::core::blocked_bits(*to_core(f));
    if (!bits)
      bloom::core::fail(bloom::core::Status::kUnsupported,
                        "only blocked filters hashing with xxh3 (format 1.1 and later) have a blocked view");
    out->words = bits->words;
    out->lines = bits->lines;
    out->seed = bits->seed;
    out->multipliers = bits->multipliers;
    out->hashes = bits->hashes;
    out->split = bits->split ? 1 : 0;
  });
}

}  // extern "C"
