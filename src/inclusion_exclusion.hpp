// SPDX-License-Identifier: Apache-2.0
// inclusion_exclusion.hpp -- the expected false-positive rate of probes that
// may repeat, summed over how many distinct bits a query probes. Shared by
// the blocked kind's line model (kinds/blocked_sizing.cpp: 512 bits, a
// Poisson number of keys per line) and the small-filter model
// (small_filter_sizing.cpp: m bits, exactly n keys); each caller supplies
// its own probabilities and judges the result's precision by the magnitude.
#pragma once

#include <cstdint>

namespace bloom::core {

struct AlternatingSum {
  long double rate;
  long double magnitude;  // sum of |term|: the rounding error is about eps times this
};

// sum over d = 1..k of dist[d] * P(d given bits all set), where dist[d] is
// the probability that a query's k probes hit d distinct bits, clear[j]
// (j = 0..k) the probability that j given bits all stay clear, and
//     P(d given bits all set) = sum_j (-1)^j C(d, j) clear[j].
// The alternating sum cancels: see magnitude.
template <typename Real>
AlternatingSum all_probed_bits_set(const Real *dist, const long double *clear, uint32_t k) {
  AlternatingSum sum{0.0L, 0.0L};
  for (uint32_t d = 1; d <= k; ++d) {
    long double all_set = 0.0L, magnitude = 0.0L;
    long double binom = 1.0L;  // C(d, j)
    for (uint32_t j = 0; j <= d; ++j) {
      all_set += ((j & 1) != 0 ? -binom : binom) * clear[j];
      magnitude += binom * clear[j];
      binom = binom * (d - j) / (j + 1);
    }
    sum.rate += static_cast<long double>(dist[d]) * all_set;
    sum.magnitude += static_cast<long double>(dist[d]) * magnitude;
  }
  return sum;
}

}  // namespace bloom::core
