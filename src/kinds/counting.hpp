// SPDX-License-Identifier: Apache-2.0
// counting.hpp -- a counting Bloom filter (Fan et al. 2000): m small counters
// instead of m bits, so keys can be removed.
//
// A key's k positions are exactly those of the classic kind with the same m
// and k (same probe sequence, same range reduction), and a position counts
// as set when its counter is non-zero, so the false-positive rate is the
// classic one: at n = 100,000 and p = 0.01 (m = 958,506, k = 7) the expected
// rate is 0.0100 and 4-bit counters cost 4 bits per classic bit: 479,256
// bytes instead of 119,816.
//
// Counters are 4 bits by default (Fan et al.: with k optimal, a counter
// exceeds 15 with probability below 1.37e-15 * m) or 8. Saturation is sticky
// (see counter_array.hpp): a counter at its maximum is never changed again,
// so removing keys can never clear a position another added key still needs.
//
// remove: if any of the key's counters is 0 the key was certainly never
// added; that is reported as BLOOM_E_NOT_PRESENT and nothing changes.
// Otherwise every non-saturated counter of the key is decremented. Removing
// a key that was not added but whose counters are all non-zero (a false
// positive) cannot be detected and takes a count away from other keys.
//
// Set operations: union adds counters (saturating): the counters of a
// multiset union. Intersection takes the per-counter minimum: each counter
// of either input is at least the number of keys of that input at the
// position (exactly, unless saturated), so the minimum is at least the
// number of keys present in both; every key of both keeps all its counters
// >= 1 and can later be removed without hurting the others.
//
// Concurrency (BLOOM_FLAG_CONCURRENT): add, add_batch, test_and_add and
// remove update each counter with a compare-and-swap loop on its 64-bit
// word, so no increment or decrement is lost and queries may run alongside.
// A query concurrent with the add of the same key may answer 0 until the add
// returns. remove's NOT_PRESENT check reads the counters before decrementing
// them, so it is exact only when no remove of a colliding key runs at the
// same moment; a decrement never takes a counter below 0.
//
// bloom_map: the payload is used in place, read-only.
#pragma once

#include <memory>

#include "kinds/array_filter.hpp"
#include "kinds/counter_array.hpp"

namespace bloom::core {

class CountingFilter final : public ProbingArrayFilter<CountingFilter, CounterArray> {
 public:
  explicit CountingFilter(const FilterConfig &config);

  const CounterArray &counters() const { return bits_; }

 protected:
  void remove(Hash128 h) override;
  void add_block(const Hash128 *hs, size_t n) override;
  void query_block(const Hash128 *hs, size_t n, uint8_t *out) const override;

 private:
  friend class ArrayFilter;
  friend class ProbingArrayFilter;
  // The probes (ProbingArrayFilter): increment every counter of h,
  // returning whether all were non-zero before; whether all are non-zero.
  template <bool kConcurrent, ProbeScheme kScheme>
  bool probe_and_set(Hash128 h);
  template <bool kConcurrent, ProbeScheme kScheme>
  bool probe(Hash128 h) const;
  template <bool kConcurrent, ProbeScheme kScheme>
  void decrement_all(Hash128 h);
  CountingFilter(const CountingFilter &other);
  CountingFilter(const FilterConfig &config, CounterArray counters);
};

}  // namespace bloom::core
