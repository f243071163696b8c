// SPDX-License-Identifier: Apache-2.0
#include "kinds/blocked_sizing.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "bloom/bloom.h"
#include "error.hpp"
#include "inclusion_exclusion.hpp"
#include "kinds/blocked_line.hpp"
#include "kinds/split_block.hpp"
#include "sizing.hpp"

namespace bloom::core::blocked {

namespace {

constexpr uint32_t kMaxK = BLOOM_MAX_HASHES;

// distinct[k][d] = P(k uniform draws from 512 bits hit exactly d distinct
// ones): the occupancy recurrence, computed once.
using DistinctTable = std::array<std::array<double, kMaxK + 1>, kMaxK + 1>;

const DistinctTable &distinct_table() {
  static const DistinctTable table = [] {
    DistinctTable t{};
    t[0][0] = 1.0;
    const double bins = kLineBits;
    for (uint32_t k = 1; k <= kMaxK; ++k)
      for (uint32_t d = 1; d <= k; ++d)
        t[k][d] = t[k - 1][d] * (d / bins) + t[k - 1][d - 1] * ((bins - (d - 1)) / bins);
    return t;
  }();
  return table;
}

// fpr_line(i, k) with the set-bit probability q of a line holding i keys.
double line_rate_for_keys(double i, uint32_t k) {
  const auto &dist = distinct_table()[k];
  const double q = -std::expm1(static_cast<double>(k) * i * std::log1p(-1.0 / kLineBits));
  double rate = 0.0;
  double qd = 1.0;
  for (uint32_t d = 1; d <= k; ++d) {
    qd *= q;
    rate += dist[d] * qd;
  }
  return rate;
}

// lines below which blocked_shape never looks: blocked needs at least the
// classic formula's memory (uneven loads only cost), so half of it is safe.
uint64_t lower_bound_lines(uint64_t n, double p) {
  const Shape s = optimal_shape(n, p);
  return std::max<uint64_t>(1, s.bits / kLineBits / 2);
}

constexpr uint64_t kMaxLines = BLOOM_MAX_BITS / kLineBits;

// The Poisson sum with fpr_line(i, k) = sum_d P(d) q_i^d: an upper bound
// (bits of one line are negatively correlated, so q^d overstates "all d set"),
// used where the exact form below loses precision.
double poisson_bound(double lambda, uint32_t k) {
  // Poisson terms beyond 12 sigma (plus a margin for small lambda) are below
  // 1e-30 of the total.
  const double spread = 12.0 * std::sqrt(lambda) + 25.0;
  const double lo = std::max(0.0, std::floor(lambda - spread));
  const double hi = std::ceil(lambda + spread);
  const double log_lambda = std::log(lambda);
  double rate = 0.0;
  for (double i = lo; i <= hi; i += 1.0) {
    const double weight = std::exp(i * log_lambda - lambda - std::lgamma(i + 1.0));
    rate += weight * line_rate_for_keys(i, k);
  }
  return rate;
}

// Exact under uniform positions: by inclusion-exclusion over which of the d
// probed bits stay clear, and because a Poisson(lambda) number of keys each
// missing j given bits with probability x_j = (1 - j/512)^k leaves all j
// clear with probability E[x_j^I] = exp(-lambda (1 - x_j)),
//     P(all d set) = sum_j (-1)^j C(d, j) exp(-lambda (1 - x_j)).
// The alternating sum cancels. Against 60-digit arithmetic (k = 4-30,
// lambda = 0.5-130) its long double rounding error stayed below
// 1.2 * eps * (the sum of the terms' magnitudes), so `magnitude` says how
// far the result can be trusted: at the sizes of p >= 1e-8 to 1e-6 relative
// or better, at p = 1e-10 to ~1e-3, at p near 1e-12 (lambda ~ 3, k ~ 22) to
// no digit at all.
constexpr uint32_t kExactMaxK = 30;

AlternatingSum inclusion_exclusion(double lambda, uint32_t k) {
  const auto &dist = distinct_table()[k];
  long double clear[kExactMaxK + 1];
  for (uint32_t j = 0; j <= k; ++j) {
    const long double x =
        std::exp(static_cast<long double>(k) * std::log1p(-static_cast<long double>(j) / kLineBits));
    clear[j] = std::exp(-static_cast<long double>(lambda) * (1.0L - x));
  }
  return all_probed_bits_set(dist.data(), clear, k);
}

// The exact form where its error bound (2 eps magnitude, with margin) is
// within 1e-4 of the rate -- far finer than sizing needs, since a line more
// or less moves the rate by more; elsewhere the upper bound, which can only
// size a filter larger. Before this check, p below ~1e-13 read as met by
// filters whose true rate was 3 to 1e11 times p.
double rate_for(double lambda, uint32_t k) {
  if (k > kExactMaxK) return poisson_bound(lambda, k);
  const AlternatingSum s = inclusion_exclusion(lambda, k);
  constexpr long double kEps = std::numeric_limits<long double>::epsilon();
  if (s.rate > 0.0L && 2.0L * kEps * s.magnitude <= 1e-4L * s.rate) return static_cast<double>(s.rate);
  return poisson_bound(lambda, k);
}

}  // namespace

double model_fp_rate(double n, uint64_t lines, uint32_t k) {
  if (lines == 0 || k == 0 || k > kMaxK) return std::nan("");
  const double lambda = n / static_cast<double>(lines);
  if (lambda <= 0) return 0.0;
  return std::min(1.0, rate_for(lambda, k));
}

double line_fp_rate(uint32_t set_bits, uint32_t k) {
  if (k == 0 || k > kMaxK) return std::nan("");
  const auto &dist = distinct_table()[k];
  double rate = 0.0;
  double all_set = 1.0;  // C(c, d) / C(512, d), built one factor at a time
  for (uint32_t d = 1; d <= k; ++d) {
    const double c = static_cast<double>(set_bits) - (d - 1);
    all_set *= c <= 0 ? 0.0 : c / (kLineBits - (d - 1));
    rate += dist[d] * all_set;
  }
  return rate;
}

uint32_t best_hashes(uint64_t n, uint64_t lines) {
  uint32_t best_k = 1;
  double best = model_fp_rate(static_cast<double>(n), lines, 1);
  // The rate falls, then rises with k: stop after it rose twice in a row.
  // Where the model trades its exact form for the bound (rate_for) it jumps
  // up once and may fall again below the minimum so far, so a rise counts
  // against the previous k, not against the best.
  double previous = best;
  for (uint32_t k = 2, rises = 0; k <= kMaxK && rises < 2; ++k) {
    const double r = model_fp_rate(static_cast<double>(n), lines, k);
    if (r < best) {
      best = r;
      best_k = k;
    }
    rises = r > previous ? rises + 1 : 0;
    previous = r;
  }
  return best_k;
}

namespace {

// The smallest number of lines whose model rate with k probes is <= p.
uint64_t smallest_lines(uint64_t n, double p, uint32_t k) {
  auto meets = [&](uint64_t lines) { return model_fp_rate(static_cast<double>(n), lines, k) <= p; };
  // Grow hi by 1/8 until it meets p, then bisect; blocked never needs less
  // than the classic formula, so half of it is a safe start.
  uint64_t lo = lower_bound_lines(n, p);
  uint64_t hi = lo;
  while (!meets(hi)) {
    if (hi >= kMaxLines) return kMaxLines + 1;
    lo = hi;
    hi = std::min(kMaxLines, hi + hi / 8 + 1);
  }
  if (hi == lo) lo = 0;  // the start already meets p (tiny n): search from 1
  while (hi - lo > 1) {  // lo fails (or is 0), hi meets
    const uint64_t mid = lo + (hi - lo) / 2;
    (meets(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

BlockedShape blocked_shape(uint64_t n, double p, uint32_t fixed_k) {
  if (n == 0) fail(Status::kInvalidArg, "capacity must be at least 1");
  if (!(p > 0.0 && p < 1.0)) fail(Status::kInvalidArg, "fp_rate must lie strictly between 0 and 1");
  BlockedShape best{kMaxLines + 1, fixed_k};
  if (fixed_k != 0) {
    best.lines = smallest_lines(n, p, fixed_k);
  } else {
    // Start from the best k at 1.1x the classic size, then walk both ways:
    // the lines k needs fall and then rise with k, so each walk stops after
    // two steps that need more lines than the best so far; steps that need
    // as many go on, since small n have long plateaus (one line fits k = 1
    // to 30). Near the usual p the start is within a step of the best; at
    // p = 1e-20 it was 21 steps away (k = 19 needed 2.9x the lines of
    // k = 40). Ties go to the smallest k within two of the start, as when
    // only k0 +- 2 was searched (so no shape changed where that window held
    // the fewest lines); a k outside it wins only with fewer lines, or on a
    // plateau the smallest k would trade rate for nothing.
    const uint64_t guess = std::max<uint64_t>(1, optimal_shape(n, p).bits * 11 / 10 / kLineBits);
    const uint32_t k0 = best_hashes(n, guess);
    const auto in_window = [k0](uint32_t k) { return k + 2 >= k0 && k <= k0 + 2; };
    const auto consider = [&](uint32_t k) {
      const uint64_t lines = smallest_lines(n, p, k);
      const bool tie_wins =
          lines == best.lines && in_window(k) && (!in_window(best.hashes) || k < best.hashes);
      if (lines < best.lines || tie_wins) best = {lines, k};
      return lines;
    };
    consider(k0);
    for (const int step : {1, -1}) {
      int worse = 0;
      for (int k = static_cast<int>(k0) + step; k >= 1 && k <= static_cast<int>(kMaxK) && worse < 2;
           k += step)
        worse = consider(static_cast<uint32_t>(k)) > best.lines ? worse + 1 : 0;
    }
  }
  if (best.lines > kMaxLines) fail(Status::kOverflow, "capacity and fp_rate need more than 2^40 bits");
  return best;
}

namespace {

// Split blocks (BLOOM_FLAG_SPLIT_BLOCK): k is 8, m a multiple of 256, the
// blocks split_block::smallest_blocks finds for (n, p).
void size_split_block(const Options &o, FilterConfig &c) {
  if (o.hashes != 0 && o.hashes != split_block::kProbes)
    fail(Status::kInvalidArg,
         "split-block filters have k = 8 (one bit per 32-bit word); hashes = " + std::to_string(o.hashes));
  c.hashes = split_block::kProbes;
  if (o.bits == 0) {
    if (o.capacity == 0) fail(Status::kInvalidArg, "capacity must be at least 1");
    c.bits = split_block::smallest_blocks(o.capacity, o.fp_rate) * split_block::kBlockBits;
    c.fp_rate = o.fp_rate;
    return;
  }
  if (o.bits > BLOOM_MAX_BITS)
    fail(Status::kOverflow, "bits = " + std::to_string(o.bits) + " exceeds the 2^40 limit");
  if (o.bits % split_block::kBlockBits != 0)
    fail(Status::kInvalidArg,
         "split-block filters need bits to be a multiple of 256 (one 32-byte block); got " +
             std::to_string(o.bits));
  c.bits = o.bits;
  c.fp_rate = 0;
}

}  // namespace

void size_blocked(const Options &o, FilterConfig &c) {
  if (o.hashes > BLOOM_MAX_HASHES)
    fail(Status::kInvalidArg, "hashes = " + std::to_string(o.hashes) + " exceeds the maximum of 64");
  if ((o.flags & BLOOM_FLAG_SPLIT_BLOCK) != 0) return size_split_block(o, c);
  if (o.bits == 0) {
    const BlockedShape s = blocked_shape(o.capacity, o.fp_rate, o.hashes);
    c.bits = s.lines * kLineBits;
    c.hashes = s.hashes;
    c.fp_rate = o.fp_rate;
    return;
  }
  if (o.bits > BLOOM_MAX_BITS)
    fail(Status::kOverflow, "bits = " + std::to_string(o.bits) + " exceeds the 2^40 limit");
  if (o.bits % kLineBits != 0)
    fail(Status::kInvalidArg, "blocked filters need bits to be a multiple of 512 (one 64-byte line); got " +
                                  std::to_string(o.bits));
  if (o.hashes == 0 && o.capacity == 0)
    fail(Status::kInvalidArg, "with explicit bits, give hashes or a capacity to derive them from");
  c.bits = o.bits;
  c.hashes = o.hashes != 0 ? o.hashes : best_hashes(o.capacity, o.bits / kLineBits);
  c.fp_rate = 0;
}

}  // namespace bloom::core::blocked
