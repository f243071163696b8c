// SPDX-License-Identifier: Apache-2.0
#include "sizing.hpp"

#include <cmath>
#include <limits>

#include "bloom/bloom.h"
#include "error.hpp"

namespace bloom::core {

namespace {
constexpr double kLn2 = 0.693147180559945309417232121458176568;
}

Shape optimal_shape(uint64_t n, double p) {
  if (n == 0) fail(Status::kInvalidArg, "capacity must be at least 1");
  if (!(p > 0.0 && p < 1.0)) fail(Status::kInvalidArg, "fp_rate must lie strictly between 0 and 1");
  // long double keeps ceil() honest when n |ln p| / ln^2 2 is within an ulp
  // of an integer (n = 10^6, p = 10^-4 gives 19170116.75...).
  const long double m =
      std::ceil(static_cast<long double>(n) * std::fabs(std::log(static_cast<long double>(p))) /
                (static_cast<long double>(kLn2) * kLn2));
  if (!(m <= static_cast<long double>(BLOOM_MAX_BITS)))
    fail(Status::kOverflow, "capacity and fp_rate need more than 2^40 bits");
  const auto bits = static_cast<uint64_t>(m);
  if (std::round(static_cast<double>(m / static_cast<long double>(n)) * kLn2) <= BLOOM_MAX_HASHES)
    return {bits, optimal_hashes(n, bits)};
  // Below p ~ 5e-20 the best k passes 64: with k held at 64, the formula's m
  // would miss p (p = 1e-25 got 2.9e-25), so m grows until the rate
  // (1 - (1 - 1/m)^(64 n))^64 is p: 1/m = 1 - (1 - p^(1/64))^(1 / (64 n)).
  const long double kmax = BLOOM_MAX_HASHES;
  const long double fill = std::pow(static_cast<long double>(p), 1.0L / kmax);
  const long double m64 =
      std::ceil(-1.0L / std::expm1(std::log1p(-fill) / (kmax * static_cast<long double>(n))));
  if (!(m64 <= static_cast<long double>(BLOOM_MAX_BITS)))
    fail(Status::kOverflow, "capacity and fp_rate need more than 2^40 bits");
  return {static_cast<uint64_t>(m64), BLOOM_MAX_HASHES};
}

uint32_t optimal_hashes(uint64_t n, uint64_t m) {
  if (n == 0) return 1;
  const double k = std::round(static_cast<double>(m) / static_cast<double>(n) * kLn2);
  if (k < 1.0) return 1;
  if (k > BLOOM_MAX_HASHES) return BLOOM_MAX_HASHES;
  return static_cast<uint32_t>(k);
}

double classic_fp_rate(double n, uint64_t m, uint32_t k) {
  if (m == 0 || k == 0) return std::numeric_limits<double>::quiet_NaN();
  // No keys, no set bits. (With m = 1 the formula below would be
  // exp(0 * log1p(-1)) = exp(0 * -inf) = NaN.)
  if (!(n > 0)) return 0.0;
  // (1 - 1/m)^(kn) = exp(kn * log1p(-1/m)), accurate for huge m as well.
  const double zero_fraction =
      std::exp(static_cast<double>(k) * n * std::log1p(-1.0 / static_cast<double>(m)));
  return std::pow(1.0 - zero_fraction, static_cast<double>(k));
}

double estimate_distinct(uint64_t set_bits, uint64_t m, uint32_t k) {
  if (m == 0 || k == 0) return 0.0;
  if (set_bits >= m) return std::numeric_limits<double>::infinity();
  const double x = static_cast<double>(set_bits);
  const double md = static_cast<double>(m);
  return -(md / k) * std::log1p(-x / md);
}

}  // namespace bloom::core
