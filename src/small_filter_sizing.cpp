// SPDX-License-Identifier: Apache-2.0
#include "small_filter_sizing.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "inclusion_exclusion.hpp"

namespace bloom::core {

namespace {

// k above this: the alternating sum's terms reach 1.5^k times the result
// and long double loses it; such filters (p below ~1e-6) keep the formula.
constexpr uint32_t kExactMaxHashes = 24;

// P(k uniform draws from m bits hit exactly d distinct ones), d = 0..k.
std::vector<long double> distinct_counts(uint64_t m, uint32_t k) {
  std::vector<long double> t(k + 1, 0.0L);
  t[0] = 1.0L;
  const long double bins = static_cast<long double>(m);
  for (uint32_t draw = 1; draw <= k; ++draw) {
    for (uint32_t d = draw; d >= 1; --d) t[d] = t[d] * (d / bins) + t[d - 1] * ((bins - (d - 1)) / bins);
    t[0] = 0.0L;  // after a draw, at least one bit is probed
  }
  return t;
}

}  // namespace

double exact_classic_rate(uint64_t n, uint64_t m, uint32_t k) {
  if (m == 0 || k == 0 || k > kExactMaxHashes) return std::numeric_limits<double>::quiet_NaN();
  if (n == 0) return 0.0;
  const long double draws = static_cast<long double>(k) * static_cast<long double>(n);
  // clear[j] = P(j given bits all stay clear after k n draws) = (1 - j/m)^(kn).
  std::vector<long double> clear(k + 1);
  for (uint32_t j = 0; j <= k; ++j)
    clear[j] = j >= m ? 0.0L : std::exp(draws * std::log1p(-static_cast<long double>(j) / m));
  // (dist[d] is 0 for d > m: k draws cannot hit more distinct bits than m.)
  const std::vector<long double> dist = distinct_counts(m, k);
  const AlternatingSum s = all_probed_bits_set(dist.data(), clear.data(), k);
  constexpr long double kEps = std::numeric_limits<long double>::epsilon();
  if (!(s.rate > 0.0L) || 4.0L * kEps * s.magnitude > 1e-3L * s.rate)
    return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(s.rate);
}

double exact_partitioned_rate(uint64_t n, uint64_t m, uint32_t k) {
  if (m == 0 || k == 0 || k > m) return std::numeric_limits<double>::quiet_NaN();
  long double rate = 1.0L;
  for (uint64_t i = 0; i < k; ++i) {
    const uint64_t size = (i + 1) * m / k - i * m / k;
    // A partition bit is set unless all n keys missed it.
    rate *= -std::expm1(static_cast<long double>(n) * std::log1p(-1.0L / static_cast<long double>(size)));
  }
  return static_cast<double>(rate);
}

Shape fit_small_filter(Shape formula, uint64_t n, double p, uint32_t fixed_k, bool partitioned) {
  if (formula.bits > kExactSizingMaxBits) return formula;
  // The rate falls as m grows (k following it), with small steps back up
  // where k changes. A few times the formula's m suffices for p up to ~0.9
  // (one key at 1%: 10 -> 12 bits; partitioned: 10 -> 22); near p = 1 the
  // formula is far short (n = 1000 at p = 0.99: 21 bits, where 218 are
  // needed), hence the 2 n.
  const uint64_t last = 4 * formula.bits + 64 + 2 * n;
  const auto rate_at = [&](uint64_t m, uint32_t k) {
    if (partitioned && k > m) return 1.0;  // an explicit k wider than m: m must grow first
    return partitioned ? exact_partitioned_rate(n, m, k) : exact_classic_rate(n, m, k);
  };
  if (fixed_k != 0) {
    // k fixed: the rate only falls as m grows, so bisect (a linear walk
    // evaluates the exact rate thousands of times at k = 64).
    const double at_last = rate_at(last, fixed_k);
    if (std::isnan(at_last) || at_last > p) return formula;
    uint64_t lo = formula.bits, hi = last;  // hi meets p
    if (const double r = rate_at(lo, fixed_k); !std::isnan(r) && r <= p) return {lo, fixed_k};
    while (hi - lo > 1) {
      const uint64_t mid = lo + (hi - lo) / 2;
      const double r = rate_at(mid, fixed_k);
      (!std::isnan(r) && r <= p ? hi : lo) = mid;
    }
    return {hi, fixed_k};
  }
  for (uint64_t m = formula.bits; m <= last; ++m) {
    const uint32_t k = optimal_hashes(n, m);
    const double rate = rate_at(m, k);
    if (std::isnan(rate)) return formula;  // k > 24 (p below ~3e-7): the formula, documented
    if (rate <= p) return {m, k};
  }
  return formula;
}

}  // namespace bloom::core
