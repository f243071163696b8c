// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>

#include "bloom/bloom.h"
#include "error.hpp"
#include "kinds/split_block.hpp"

namespace bloom::core::split_block {

namespace {
constexpr uint64_t kMaxBlocks = BLOOM_MAX_BITS / kBlockBits;
}  // namespace

// The Poisson sum over the keys c of the query's block, terms from the mode
// outwards until they fall below 1e-30 of the total (the summand is at most
// 1, so the tail beyond is smaller still).
double model_fp_rate(double n, uint64_t blocks) {
  if (blocks == 0) return std::nan("");
  const double lambda = n / static_cast<double>(blocks);
  if (lambda <= 0) return 0.0;
  const double miss = std::log1p(-1.0 / 32.0);  // ln(31/32)
  auto term = [&](double c) {
    const double weight = std::exp(c * std::log(lambda) - lambda - std::lgamma(c + 1.0));
    return weight * std::pow(-std::expm1(c * miss), static_cast<double>(kProbes));
  };
  const double mode = std::floor(lambda);
  double rate = 0.0;
  for (double c = mode;; c += 1.0) {
    const double t = term(c);
    rate += t;
    if (c > lambda && t < 1e-30 * rate) break;
  }
  for (double c = mode - 1.0; c >= 0.0; c -= 1.0) {
    const double t = term(c);
    rate += t;
    if (t < 1e-30 * rate) break;
  }
  return std::min(1.0, rate);
}

uint64_t smallest_blocks(uint64_t n, double p) {
  auto meets = [&](uint64_t blocks) { return model_fp_rate(static_cast<double>(n), blocks) <= p; };
  // Doubling from one block, then bisection; the rate falls as blocks grow.
  uint64_t hi = 1;
  while (!meets(hi)) {
    if (hi >= kMaxBlocks) fail(Status::kOverflow, "capacity and fp_rate need more than 2^40 bits");
    hi = std::min(kMaxBlocks, hi * 2);
  }
  uint64_t lo = hi / 2;  // fails (or is 0)
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (meets(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace bloom::core::split_block
