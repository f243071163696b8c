// SPDX-License-Identifier: Apache-2.0
// sizing.hpp -- the textbook false-positive math.
//
// For n keys in m bits with k hash functions the false-positive rate of a
// classic filter is (Bloom 1970; Broder & Mitzenmacher 2004)
//     P = (1 - (1 - 1/m)^(k n))^k  ~  (1 - e^(-k n / m))^k,
// minimised by k = (m / n) ln 2, where P = 2^-k ~ 0.6185^(m/n). Solving for
// m at a target P gives m = n |ln P| / (ln 2)^2 and k = log2(1/P) (the
// formulas of Almeida et al. 2007 that the original C++ program used).
#pragma once

#include <cstdint>

namespace bloom::core {

struct Shape {
  uint64_t bits;
  uint32_t hashes;
};

// m = ceil(n |ln p| / ln^2 2), k = round((m / n) ln 2), at least 1. Where
// that k would pass 64 (p below about 5e-20), k = 64 and m is the least
// that meets p with it.
// Throws Error(INVALID_ARG) for n == 0 or p outside (0, 1) and
// Error(OVERFLOW) when m exceeds BLOOM_MAX_BITS.
Shape optimal_shape(uint64_t n, double p);

// k = round((m / n) ln 2) clamped to [1, BLOOM_MAX_HASHES].
uint32_t optimal_hashes(uint64_t n, uint64_t m);

// (1 - (1 - 1/m)^(k n))^k; NaN when m or k is 0.
double classic_fp_rate(double n, uint64_t m, uint32_t k);

// Swamidass & Baldi (2007): n* = -(m / k) ln(1 - X / m) for X bits set.
// Infinity when every bit is set.
double estimate_distinct(uint64_t set_bits, uint64_t m, uint32_t k);

}  // namespace bloom::core
