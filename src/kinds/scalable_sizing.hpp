// SPDX-License-Identifier: Apache-2.0
// scalable_sizing.hpp -- the shape of stage i of a scalable filter
// (Almeida, Baquero, Preguica & Hutchison 2007, "Scalable Bloom Filters").
//
// Stage i is sized for capacity_i = ceil(n0 * growth^i) keys at error
//     p_i = p0 * r^i,   p0 = p * (1 - r),
// so the compound false-positive rate of any number of stages is
//     1 - prod_i (1 - p_i)  <=  sum_i p_i  =  p (1 - r) (1 + r + r^2 + ...)
//                           =  p (1 - r^S)  <  p.
// With r = 0.85 and p = 0.01 stage 0 runs at 0.0015 and the first seven
// stages (127 x the initial capacity with growth 2) sum to 0.0068.
//
// Each stage is a classic bit array. Its k = round((m/n) ln 2) is rounded
// and clamped to [1, 64], which can put the stage's exact rate
// (1 - (1 - 1/m)^(k n))^k a few percent above p_i; m is then raised to the
// smallest value that brings it back to <= p_i for that k, so the bound
// above holds for the formula rates, not just approximately.
#pragma once

#include <cstdint>

namespace bloom::core {

// The largest growth factor, RedisBloom's EXPANSION limit. It bounds what
// one new stage may cost against the newest real stage of a loaded file.
constexpr double kScalableMaxGrowth = 32768.0;

struct StageShape {
  uint64_t capacity;  // keys the stage takes before the next is appended
  double fp_rate;     // p_i
  uint64_t bits;      // m_i
  uint32_t hashes;    // k_i
};

// Throws Error(OVERFLOW) when the stage would exceed BLOOM_MAX_BITS or its
// capacity or rate leaves the range of the numbers involved.
StageShape scalable_stage_shape(uint64_t capacity, double fp_rate, double growth, double tightening,
                                uint32_t index);

}  // namespace bloom::core
