// SPDX-License-Identifier: Apache-2.0
// partitioned.hpp -- m bits split into k slices; probe i sets a bit only in
// slice i (Almeida et al. 2007, seed 000 §1.1.1).
//
// Slice i covers bits [floor(i m / k), floor((i + 1) m / k)): when k does not
// divide m the slices differ by at most one bit, so no bit is wasted and m
// stays exactly at the classic formula. Probe i is the i-th double-hashing
// value (probe.hpp) reduced into its slice by a multiply-high.
//
// Because one key sets exactly one bit per slice, probes of a key never
// collide with each other. With s_i bits in slice i its false-positive rate
// after n keys is prod_i (1 - (1 - 1/s_i)^n), which for the sizes used here is
// within 0.1% of the classic (1 - e^(-kn/m))^k (n = 10^5, p = 0.01: s = 136,930
// bits, the two rates differ in the fourth significant digit), so it is sized
// with the classic formulas. The payload is the m bits as little-endian words,
// exactly like classic.
#pragma once

#include <array>
#include <memory>

#include "bit_array.hpp"
#include "kinds/array_filter.hpp"

namespace bloom::core {

class PartitionedFilter final : public ProbingArrayFilter<PartitionedFilter, BitArray> {
 public:
  // config.bits >= config.hashes (validate_config checks it).
  explicit PartitionedFilter(const FilterConfig &config);
  // prod_i (1 - (1 - 1/s_i)^n) for the slices of an (m, k) filter.
  static double fp_rate(double n, uint64_t m, uint32_t k);

  const BitArray &bit_array() const { return bits_; }
  // First bit of slice i; slice_start(k) == m.
  uint64_t slice_start(uint32_t i) const { return starts_[i]; }

 protected:
  void add_block(const Hash128 *hs, size_t n) override;
  void prefetch_block(const Hash128 *hs, size_t n) const override;
  void query_block(const Hash128 *hs, size_t n, uint8_t *out) const override;
  void fill_info(Info &info) const override;

 private:
  friend class ArrayFilter;
  friend class ProbingArrayFilter;
  PartitionedFilter(const PartitionedFilter &other);
  PartitionedFilter(const FilterConfig &config, BitArray bits);
  void compute_starts();
  template <bool kConcurrent, ProbeScheme kScheme>
  bool probe_and_set(Hash128 h);
  template <bool kConcurrent, ProbeScheme kScheme>
  bool probe(Hash128 h) const;

  // starts_[i] = floor(i m / k) for i in [0, k]; 65 entries cover k <= 64.
  std::array<uint64_t, BLOOM_MAX_HASHES + 1> starts_{};
};

}  // namespace bloom::core
