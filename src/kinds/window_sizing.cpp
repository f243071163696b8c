// SPDX-License-Identifier: Apache-2.0
#include "kinds/window_sizing.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bloom/bloom.h"
#include "error.hpp"

namespace bloom::core {

namespace {

// The smallest l with window_bits_per_key(k, l) <= bound, or 0 if none.
uint32_t least_l_within(uint32_t k, double bound) {
  const double room = bound * std::log(2.0) - k;  // k^2 / l <= room
  if (room <= 0) return 0;
  const double l = std::ceil(static_cast<double>(k) * k / room - 1e-9);
  return l < 1 ? 1 : (l > kMaxWindowSlices ? 0 : static_cast<uint32_t>(l));
}

// The largest l (k + l <= kMaxWindowSlices) whose design rate meets p, or 0:
// the rate only rises with l, so it is bisected.
uint32_t most_l_meeting(uint32_t k, double p) {
  if (k + 1 > kMaxWindowSlices || window_design_rate(k, 1) > p) return 0;
  uint32_t lo = 1, hi = kMaxWindowSlices - k;
  if (window_design_rate(k, hi) <= p) return hi;
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    (window_design_rate(k, mid) <= p ? lo : hi) = mid;
  }
  return lo;
}

// k below log2(1/p) cannot meet p (one window of k half-full slices alone
// is 2^-k); the best k lies within a few of it.
uint32_t first_k(double p) { return std::max(1u, static_cast<uint32_t>(std::floor(-std::log2(p)))); }
constexpr uint32_t kKSpan = 16;

}  // namespace

double run_probability(const double *x, size_t n, uint32_t k) {
  // state[r] = P(no run of k yet, and the last r slices are set).
  std::vector<double> state(k, 0.0), next(k, 0.0);
  state[0] = 1.0;
  double hit = 0.0;
  for (size_t i = 0; i < n; ++i) {
    std::fill(next.begin(), next.end(), 0.0);
    for (uint32_t r = 0; r < k; ++r) {
      if (state[r] == 0.0) continue;
      next[0] += state[r] * (1.0 - x[i]);
      if (r + 1 == k)
        hit += state[r] * x[i];
      else
        next[r + 1] += state[r] * x[i];
    }
    state.swap(next);
  }
  return hit;
}

double window_design_rate(uint32_t k, uint32_t l) {
  std::vector<double> x(k + l);
  for (uint32_t i = 0; i < k + l; ++i) x[i] = 1.0 - std::exp2(-static_cast<double>(std::min(i + 1, k)) / k);
  return run_probability(x.data(), x.size(), k);
}

double window_bits_per_key(uint32_t k, uint32_t l) {
  return static_cast<double>(k + l) * k / (static_cast<double>(l) * std::log(2.0));
}

namespace {
// most_l_meeting(k, p) for k = first_k(p) + i, i < kKSpan + 1 (0: none).
std::vector<uint32_t> most_ls(double p) {
  std::vector<uint32_t> ls;
  const uint32_t k0 = first_k(p);
  for (uint32_t k = k0; k <= std::min<uint32_t>(BLOOM_MAX_HASHES, k0 + kKSpan); ++k)
    ls.push_back(most_l_meeting(k, p));
  return ls;
}

double least_bits(double p, const std::vector<uint32_t> &ls) {
  double best = INFINITY;
  for (size_t i = 0; i < ls.size(); ++i)
    if (ls[i] != 0) best = std::min(best, window_bits_per_key(first_k(p) + static_cast<uint32_t>(i), ls[i]));
  return best;
}
}  // namespace

double window_min_bits_per_key(double p) { return least_bits(p, most_ls(p)); }

double window_shape_rate(const WindowShape &s) {
  std::vector<double> x(s.k + s.l);
  const double log_keep = std::log1p(-1.0 / static_cast<double>(s.m));
  for (uint32_t i = 0; i < s.k + s.l; ++i) {
    const double keys = static_cast<double>(std::min(i + 1, s.k)) * static_cast<double>(s.g);
    x[i] = -std::expm1(keys * log_keep);
  }
  return run_probability(x.data(), x.size(), s.k);
}

WindowShape window_shape(uint64_t W, double p) {
  const std::vector<uint32_t> ls = most_ls(p);
  const double least = least_bits(p, ls);
  if (!std::isfinite(least))
    fail(BLOOM_E_INVALID_ARG, "no window shape (k <= 64, k + l <= 1024) meets fp_rate " + std::to_string(p));
  const double bound = least * kMemorySlack;
  WindowShape best;
  double best_probes = INFINITY, best_bits = INFINITY;
  const uint32_t k0 = first_k(p);
  for (uint32_t k = k0; k <= std::min<uint32_t>(BLOOM_MAX_HASHES, k0 + kKSpan); ++k) {
    const uint32_t hi = ls[k - k0];
    const uint32_t lo = least_l_within(k, bound);
    if (hi == 0 || lo == 0 || lo > hi) continue;
    const double probes = 2.0 * (k + lo) / k;
    const double bits = window_bits_per_key(k, lo);
    if (probes < best_probes || (probes == best_probes && bits < best_bits)) {
      best_probes = probes;
      best_bits = bits;
      best.k = k;
      best.l = lo;
    }
  }
  best.g = W / best.l + (W % best.l != 0 ? 1 : 0);
  // m = k g / ln 2 in whole words; grown a word at a time while rounding
  // ((1 - 1/m)^n fills a little more than e^(-n/m) in small slices) leaves
  // the exact rate above p.
  const double design = std::ceil(static_cast<double>(best.k) * static_cast<double>(best.g) / std::log(2.0));
  if (design > static_cast<double>(BLOOM_MAX_BITS))
    fail(BLOOM_E_OVERFLOW, "a window of " + std::to_string(W) + " keys needs more than 2^40 bits");
  best.m = (static_cast<uint64_t>(design) + 63) / 64 * 64;
  for (int i = 0; i < 64 && window_shape_rate(best) > p; ++i) best.m += 64;
  const uint64_t slices = best.k + best.l;
  if (best.m > BLOOM_MAX_BITS / slices)
    fail(BLOOM_E_OVERFLOW, "a window of " + std::to_string(W) + " keys at fp_rate " + std::to_string(p) +
                               " needs " + std::to_string(slices) + " slices of " + std::to_string(best.m) +
                               " bits, more than 2^40 bits");
  return best;
}

}  // namespace bloom::core
