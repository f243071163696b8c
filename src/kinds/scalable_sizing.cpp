// SPDX-License-Identifier: Apache-2.0
#include "kinds/scalable_sizing.hpp"

#include <cmath>
#include <string>

#include "bloom/bloom.h"
#include "error.hpp"
#include "sizing.hpp"
#include "small_filter_sizing.hpp"

namespace bloom::core {

namespace {

// The smallest m with classic_fp_rate(n, m, k) <= p, from
// (1 - (1 - 1/m)^(k n))^k <= p  <=>  log1p(-1/m) >= ln(1 - p^(1/k)) / (k n).
uint64_t bits_for_rate(uint64_t n, double p, uint32_t k) {
  const double t = std::log1p(-std::pow(p, 1.0 / k)) / (static_cast<double>(k) * static_cast<double>(n));
  const double m = std::ceil(-1.0 / std::expm1(t));
  if (!(m >= 1.0 && m <= static_cast<double>(BLOOM_MAX_BITS)))
    fail(Status::kOverflow, "a scalable stage for " + std::to_string(n) + " keys would exceed 2^40 bits");
  auto bits = static_cast<uint64_t>(m);
  // Guard against the last ulp of the floating-point solution.
  while (classic_fp_rate(static_cast<double>(n), bits, k) > p && bits < BLOOM_MAX_BITS) ++bits;
  return bits;
}

}  // namespace

StageShape scalable_stage_shape(uint64_t capacity, double fp_rate, double growth, double tightening,
                                uint32_t index) {
  StageShape s;
  const double cap = std::ceil(static_cast<double>(capacity) * std::pow(growth, index));
  if (!(cap >= 1.0 && cap <= 9.0e18))
    fail(Status::kOverflow, "scalable stage " + std::to_string(index) + " capacity overflows");
  s.capacity = static_cast<uint64_t>(cap);
  s.fp_rate = fp_rate * (1.0 - tightening) * std::pow(tightening, index);
  if (!(s.fp_rate >= 1e-300))
    fail(Status::kOverflow, "scalable stage " + std::to_string(index) + " error rate underflows");
  const Shape base = fit_small_filter(optimal_shape(s.capacity, s.fp_rate), s.capacity, s.fp_rate, 0, false);
  s.hashes = base.hashes;
  s.bits = base.bits;
  if (classic_fp_rate(static_cast<double>(s.capacity), s.bits, s.hashes) > s.fp_rate)
    s.bits = bits_for_rate(s.capacity, s.fp_rate, s.hashes);
  return s;
}

}  // namespace bloom::core
