// SPDX-License-Identifier: Apache-2.0
// redisbloom_sizing.hpp -- how RedisBloom sizes a filter, for the filters
// of the RedisBloom hash kind (BLOOM_HASH_REDISBLOOM), so that one moved
// out of RedisBloom grows its next stages exactly as RedisBloom would have,
// and saving it back in RedisBloom's encoding gives what RedisBloom reads.
//
// A sub-filter for n keys at error e: bits per key b = -ln(e) / ln(2)^2,
// m = floor(n b) rounded up to a multiple of 64 (at least 64), k = ceil(ln(2) b),
// with RedisBloom's own 15-digit constants for ln(2) and ln(2)^2, since one
// ulp of b moves m. A scalable chain's stage i holds n0 g^i keys (g an
// integer, its EXPANSION) at p 2^-(i+1): each stage halves the previous
// rate, the first is p / 2 (RedisBloom's ERROR_TIGHTENING_RATIO 0.5; the
// library's tightening r = 0.5 gives the same p (1 - r) r^i). A NONSCALING
// filter is one sub-filter at p itself.
#pragma once

#include <cstdint>

#include "kinds/scalable_sizing.hpp"

namespace bloom::core {

// RedisBloom's tightening ratio, which scalable filters of its hash kind use.
inline constexpr double kRedisBloomTightening = 0.5;

struct RedisBloomShape {
  uint64_t bits;
  uint32_t hashes;
  double bits_per_key;  // RedisBloom's bpe, which its headers record
};

// m and k of one sub-filter; throws OVERFLOW past 2^40 bits or 64 hashes.
RedisBloomShape redisbloom_shape(uint64_t entries, double error);

// Stage `index` of a scalable chain (capacity n0, rate p, integral growth).
StageShape redisbloom_stage_shape(uint64_t capacity, double fp_rate, double growth, uint32_t index);

}  // namespace bloom::core
