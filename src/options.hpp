// SPDX-License-Identifier: Apache-2.0
// options.hpp -- what a caller asks of a new filter, as the core reads it.
//
// configure() (configure.hpp) turns Options into a FilterConfig. The members
// and their defaults are the C API's options struct and the defaults bloom.h
// documents; the C boundary copies a caller's struct into an Options member
// by member and fills the C defaults from a default Options
// (capi/c_options.hpp), so the defaults are written once, here.
#pragma once

#include <cstdint>

#include "bloom/bloom.h"

namespace bloom::core {

struct Options {
  int32_t kind = BLOOM_KIND_CLASSIC;
  uint64_t capacity = 1000000;  // n; scalable: the first stage's
  double fp_rate = 0.01;        // p, in (0, 1)
  int32_t hash = BLOOM_HASH_XXH3;
  uint64_t seed = 0;
  uint32_t flags = 0;         // BLOOM_FLAG_* (kKnownFlags)
  uint64_t bits = 0;          // explicit m; 0 = from (capacity, fp_rate)
  uint32_t hashes = 0;        // explicit k; 0 = optimal for m and capacity
  double growth = 2.0;        // scalable: capacity factor per stage
  double tightening = 0.85;   // scalable: error factor per stage
  uint32_t counter_bits = 4;  // counting: 4 or 8
  uint64_t window_ms = 0;     // window: 0 = count window, else time window
};

}  // namespace bloom::core
