// SPDX-License-Identifier: Apache-2.0
// view_added_api.cpp -- bloom_view_added: counts the adds a filter's owner
// made by setting bits through its blocked or classic view.
#include "blocked_bits.hpp"
#include "bloom/bloom.h"
#include "classic_bits.hpp"
#include "error.hpp"
#include "guard.hpp"
#include "handle.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
using bloom::capi::to_core;

extern "C" {

// A blocked or classic filter's plain add (bloom_add's installed path) is
// "set the key's bits, then ++keys_added": no other state to mirror, so
// the caller's own bit setting plus this count is exactly n bloom_add
// calls. A concurrent filter's writers lock, which writes through the view
// would skip; a mapping is read-only.
bloom_status bloom_view_added(bloom_filter *f, uint64_t n) {
  return guarded("bloom_view_added", [&] {
    require_arg(f, "filter");
    bloom::core::Filter &filter = *to_core(f);
    if (!bloom::core::blocked_bits(filter) && !bloom::core::classic_bits(filter))
      bloom::core::fail(bloom::core::Status::kUnsupported,
                        "only blocked (format 1.1 and later) and classic filters hashing with xxh3 take adds "
                        "through their view");
    if (filter.config().concurrent())
      bloom::core::fail(bloom::core::Status::kUnsupported,
                        "a concurrent filter takes adds only through bloom_add (its writers lock)");
    if (filter.read_only())
      bloom::core::fail(bloom::core::Status::kUnsupported, "add: the filter is a read-only mapping");
    filter.set_keys_added(filter.keys_added() + n);
  });
}

}  // extern "C"
