// SPDX-License-Identifier: Apache-2.0
// blocked_sizing.hpp -- the false-positive model of a blocked filter and the
// search for the smallest (lines, k) that keeps a promised rate.
//
// Putze, Sanders & Singler (2007): keys fall into lines like balls into bins,
// so the number of keys i in a query's line is Poisson with
// lambda = n / lines, and a line holding i keys behaves like a tiny classic
// filter of 512 bits:
//     FPR = sum_i Poisson(i; lambda) * fpr_line(i, k).
// fpr_line is not the textbook (1 - (1 - 1/512)^(ki))^k here: in 512 bits the
// k probes of one query repeat a bit with noticeable probability (k = 12:
// 12%), and the bits of one small line are visibly negatively correlated.
// So the model conditions on the number d of distinct probed bits
// (occupancy distribution of k draws over 512) and sums the Poisson mixture
// in closed form by inclusion-exclusion (blocked_sizing.cpp), exact for
// uniform positions; where that alternating sum loses precision (k > 30, or
// a rate below ~1e-9, i.e. sparsely loaded lines and large k: its rounding
// error is bounded and checked), it falls back to the upper bound
// sum_i Poisson(i) sum_d P(d) q_i^d,
// q_i = 1 - (1 - 1/512)^(k i). Measured rates follow the exact form within
// binomial noise (n = 10^6, p = 10^-4, 43,028 lines, k = 12: model 0.99996e-4,
// measured 0.950e-4 over 4*10^6 absent keys, sigma 0.05e-4; with 43,549
// lines the model says 0.916e-4 and 0.873e-4 was measured, where the q^d
// upper bound says 1.00e-4, 9% high).
// Uneven line loads are what cost memory over a classic filter: the heavy
// lines dominate the rate.
#pragma once

#include <cstdint>

#include "bloom/bloom.h"
#include "filter_config.hpp"
#include "options.hpp"

namespace bloom::core::blocked {

// The model's rate for n keys in `lines` lines of 512 bits with k probes.
double model_fp_rate(double n, uint64_t lines, uint32_t k);

// P(a query with k probes has all probed bits set) in a line with c of its
// 512 bits set, positions uniform: sum_d P(d distinct) * C(c, d) / C(512, d).
double line_fp_rate(uint32_t set_bits, uint32_t k);

struct BlockedShape {
  uint64_t lines;
  uint32_t hashes;
};

// The smallest number of lines (and the k that minimises the rate there)
// with model_fp_rate <= p at n keys. fixed_k != 0 pins k. Throws
// Error(OVERFLOW) past BLOOM_MAX_BITS, Error(INVALID_ARG) for n == 0 or p
// outside (0, 1).
BlockedShape blocked_shape(uint64_t n, double p, uint32_t fixed_k);

// The k in [1, 64] minimising model_fp_rate for n keys in `lines` lines.
uint32_t best_hashes(uint64_t n, uint64_t lines);

// configure()'s step for the blocked kind: m and k from (capacity, fp_rate)
// by blocked_shape, or an explicit m (a multiple of 512, else
// Error(INVALID_ARG)) with an explicit k or best_hashes.
void size_blocked(const Options &o, FilterConfig &c);

}  // namespace bloom::core::blocked
