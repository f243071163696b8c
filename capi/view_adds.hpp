// SPDX-License-Identifier: Apache-2.0
// view_adds.hpp -- what bloom_blocked_view_added and
// bloom_classic_view_added share: the checks that a caller may add through
// a filter's view, then the count.
#pragma once

#include <cstdint>

#include "error.hpp"
#include "filter.hpp"

namespace bloom::capi {

// Records n adds the caller made through f's view. has_view: f has that
// view (else no_view explains why not). A concurrent filter's writers lock,
// which writes through the view would skip; a mapping is read-only.
inline void record_view_adds(core::Filter &f, uint64_t n, bool has_view, const char *no_view) {
  if (!has_view) core::fail(core::Status::kUnsupported, no_view);
  if (f.config().concurrent())
    core::fail(core::Status::kUnsupported,
               "a concurrent filter takes adds only through bloom_add (its writers lock)");
  if (f.read_only()) core::fail(core::Status::kUnsupported, "add: the filter is a read-only mapping");
  f.set_keys_added(f.keys_added() + n);
}

}  // namespace bloom::capi
