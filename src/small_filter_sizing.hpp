// SPDX-License-Identifier: Apache-2.0
// small_filter_sizing.hpp -- exact sizing for filters of a few thousand bits.
//
// The textbook formula (sizing.hpp) treats a query's k probes as k distinct
// bits of a practically endless array. In a filter of tens or hundreds of
// bits they repeat and the set bits are not independent, so a filter sized
// by it runs above p: one key at p = 1% gets m = 10, k = 7 and an expected
// rate of 1.75 p, ten keys 1.09 p; the partitioned kind, whose partitions are
// then one or two bits wide, 12.5 p (measured, and as computed below). Up
// to kExactSizingMaxBits, where that excess can reach 1%, m grows from the
// formula's until the exact expected rate meets p; above it the formula is
// kept, so large filters keep "memory = the formula".
#pragma once

#include <cstdint>

#include "sizing.hpp"

namespace bloom::core {

inline constexpr uint64_t kExactSizingMaxBits = 4096;

// Expected false-positive rate after n keys in m bits with k probes per key,
// each uniform over the m bits and repeats allowed (the classic and counting
// kinds, whose small filters mix their probes): by inclusion-exclusion over
// the d distinct bits a query probes. NaN where long double cannot hold the
// alternating sum to 1e-3 of its value (k above about 20, p below ~1e-6).
double exact_classic_rate(uint64_t n, uint64_t m, uint32_t k);

// The partitioned kind: k partitions, partition i holding bits
// [i m / k, (i + 1) m / k), each probed once per key; exact.
double exact_partitioned_rate(uint64_t n, uint64_t m, uint32_t k);

// From the formula's shape: when its m is at most kExactSizingMaxBits, the
// least m >= it whose exact rate (partitioned or classic model) with k =
// fixed_k, or optimal_hashes(n, m) when fixed_k is 0, is at most p; the
// formula's shape otherwise, or where the exact rate cannot be computed: k
// above 24, i.e. p below about 3e-7, where small filters still run above p
// (one key at 1e-7: m = 34, k = 24, 7.4 p; ten keys at 1e-8: 1.3 p).
Shape fit_small_filter(Shape formula, uint64_t n, double p, uint32_t fixed_k, bool partitioned);

}  // namespace bloom::core
