// SPDX-License-Identifier: Apache-2.0
#include "kinds/window_sizing.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "bloom/bloom.h"
#include "error.hpp"
#include "kinds/window_blocked.hpp"

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

// One slice of the run-length recursion: state[r] = P(no run of k yet, and
// the last r slices are set); a slice of fill x moves it on, into hit when
// a run completes.
void run_step(std::vector<double> &state, std::vector<double> &next, double x, double &hit) {
  const size_t k = state.size();
  std::fill(next.begin(), next.end(), 0.0);
  for (size_t r = 0; r < k; ++r) {
    if (state[r] == 0.0) continue;
    next[0] += state[r] * (1.0 - x);
    if (r + 1 == k)
      hit += state[r] * x;
    else
      next[r + 1] += state[r] * x;
  }
  state.swap(next);
}

// The smallest n with P(Poi(mu) <= n) >= u.
uint32_t poisson_quantile(double mu, double u) {
  double pmf = std::exp(-mu), cdf = pmf;
  uint32_t n = 0;
  while (cdf < u && n < 1000000) {
    ++n;
    pmf *= mu / n;
    cdf += pmf;
  }
  return n;
}

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
    fail(Status::kInvalidArg, "no window shape (k <= 64, k + l <= 1024) meets fp_rate " + std::to_string(p));
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
    fail(Status::kOverflow, "a window of " + std::to_string(W) + " keys needs more than 2^40 bits");
  best.m = (static_cast<uint64_t>(design) + 63) / 64 * 64;
  for (int i = 0; i < 64 && window_shape_rate(best) > p; ++i) best.m += 64;
  const uint64_t slices = best.k + best.l;
  if (best.m > BLOOM_MAX_BITS / slices)
    fail(Status::kOverflow, "a window of " + std::to_string(W) + " keys at fp_rate " + std::to_string(p) +
                                " needs " + std::to_string(slices) + " slices of " + std::to_string(best.m) +
                                " bits, more than 2^40 bits");
  return best;
}

std::string window_shape_error(const WindowShape &s, uint64_t capacity, double p) {
  if (capacity == 0) return "capacity (the window) is 0";
  if (s.k == 0 || s.l == 0) return "k or l is 0";
  const uint64_t g = capacity / s.l + (capacity % s.l != 0 ? 1 : 0);
  if (s.g != g)
    return "g = " + std::to_string(s.g) + " insertions per generation disagrees with the capacity " +
           std::to_string(capacity) + " over l = " + std::to_string(s.l) + " generations (" +
           std::to_string(g) + ")";
  // Rounding up to whole words and growing a word at a time adds at most
  // 65 words to the design; the blocked layout adds a few percent more.
  const double design = std::ceil(static_cast<double>(s.k) * static_cast<double>(g) / std::log(2.0));
  if (static_cast<double>(s.m) > 2.0 * design + 65.0 * 64.0)
    return "slices of m = " + std::to_string(s.m) + " bits are far more than " + std::to_string(s.k) +
           " generations of " + std::to_string(g) + " keys need";
  // The same computation that sized the shape; the margin covers a libm
  // that rounds its last bit differently.
  if (!(p > 0) || window_shape_rate(s) > p * (1.0 + 1e-6))
    return "slices of m = " + std::to_string(s.m) + " bits for " + std::to_string(g) +
           " keys a generation do not meet the false-positive rate " + std::to_string(p);
  return "";
}

double window_blocked_rate(const WindowShape &s) {
  // Quantiles per line load: 32 measured within 1% of 256 at p = 0.001.
  constexpr uint32_t kQuantiles = 32;
  const uint32_t slices = s.k + s.l;
  const double per_generation = static_cast<double>(s.g) * 64.0 / static_cast<double>(s.m);
  const double log_keep = std::log1p(-1.0 / 64.0);
  // fill[(a - 1) Q + q]: a slice's word after a generations, at quantile q.
  std::vector<double> fill(static_cast<size_t>(s.k) * kQuantiles);
  for (uint32_t a = 1; a <= s.k; ++a)
    for (uint32_t q = 0; q < kQuantiles; ++q) {
      const uint32_t n = poisson_quantile(a * per_generation, (q + 0.5) / kQuantiles);
      fill[(a - 1) * kQuantiles + q] = -std::expm1(n * log_keep);
    }
  std::vector<double> state(s.k), next(s.k), part(s.k), sum(s.k);
  double worst = 0;
  // The newest slice at each place in the first group and in the last two
  // (where the short group sits): every way the k newest slices and the
  // short group meet the groups' edges.
  std::vector<uint32_t> heads;
  for (uint32_t h = 0; h < std::min(slices, 2 * kWindowSlicesPerLine); ++h) heads.push_back(h);
  for (uint32_t h = slices > 2 * kWindowSlicesPerLine ? slices - 2 * kWindowSlicesPerLine : slices;
       h < slices; ++h)
    if (h >= 2 * kWindowSlicesPerLine) heads.push_back(h);
  for (uint32_t head : heads) {
    std::fill(state.begin(), state.end(), 0.0);
    state[0] = 1.0;
    double hit = 0;
    for (uint32_t i = 0; i < slices;) {
      const uint32_t phys = (head + i) % slices, group = phys / kWindowSlicesPerLine;
      const uint32_t group_end = std::min((group + 1) * kWindowSlicesPerLine, slices);
      const uint32_t len = std::min(group_end - phys, slices - i);
      std::fill(sum.begin(), sum.end(), 0.0);
      double hit_sum = 0;
      for (uint32_t q = 0; q < kQuantiles; ++q) {
        part = state;
        double h = 0;
        for (uint32_t t = 0; t < len; ++t)
          run_step(part, next, fill[(std::min(i + t + 1, s.k) - 1) * kQuantiles + q], h);
        for (uint32_t r = 0; r < s.k; ++r) sum[r] += part[r] / kQuantiles;
        hit_sum += h / kQuantiles;
      }
      state = sum;
      hit += hit_sum;
      i += len;
    }
    worst = std::max(worst, hit);
  }
  return worst;
}

namespace {
// window_blocked_shape's answers, by (W, p): one evaluation of the model
// sums over every slice's age and sizing makes about 8, so a program
// creating many windows of one shape pays once.
std::mutex g_shapes_mutex;
std::map<std::pair<uint64_t, double>, WindowShape> g_shapes;
constexpr size_t kShapesKept = 256;
WindowShape blocked_shape_uncached(uint64_t W, double p);
}  // namespace

WindowShape window_blocked_shape(uint64_t W, double p) {
  {
    const std::lock_guard<std::mutex> lock(g_shapes_mutex);
    const auto it = g_shapes.find({W, p});
    if (it != g_shapes.end()) return it->second;
  }
  const WindowShape s = blocked_shape_uncached(W, p);
  const std::lock_guard<std::mutex> lock(g_shapes_mutex);
  if (g_shapes.size() >= kShapesKept) g_shapes.clear();
  g_shapes.emplace(std::make_pair(W, p), s);
  return s;
}

namespace {
WindowShape blocked_shape_uncached(uint64_t W, double p) {
  WindowShape s = window_shape(W, p);
  if (window_blocked_rate(s) <= p) return s;
  // The rate falls as m grows: up by 4% steps, then bisect to within 0.25%
  // (or a word). The blocked model asks 1-4% more than independent slices.
  const uint64_t slices = s.k + s.l;
  uint64_t lo = s.m, hi = s.m;
  do {
    lo = hi;
    hi = (hi + hi / 25 + 63) / 64 * 64;
    if (hi > BLOOM_MAX_BITS / slices)
      fail(Status::kOverflow, "a window of " + std::to_string(W) + " keys at fp_rate " + std::to_string(p) +
                                  " needs more than 2^40 bits");
    s.m = hi;
  } while (window_blocked_rate(s) > p);
  while (hi - lo > std::max<uint64_t>(64, hi / 400)) {
    s.m = (lo + (hi - lo) / 2) / 64 * 64;
    if (s.m <= lo) break;
    (window_blocked_rate(s) <= p ? hi : lo) = s.m;
  }
  s.m = hi;
  return s;
}
}  // namespace

}  // namespace bloom::core
