// SPDX-License-Identifier: Apache-2.0
// classic.hpp -- the textbook Bloom filter: one array of m bits, k probes
// anywhere in it. It is the reference for the FPR math in sizing.hpp: with
// 128-bit hashes and enhanced double hashing its measured rate matches
// (1 - e^(-kn/m))^k within binomial noise (tests/unit/fpr_test.cpp checks
// n = 10^6 at p = 10^-2 and 10^-4). It costs k random memory accesses per
// key; the blocked kind trades a little memory for one.
#pragma once

#include <memory>

#include "bit_array.hpp"
#include "filter.hpp"
#include "format/byte_stream.hpp"

namespace bloom::core {

class ClassicFilter final : public Filter {
 public:
  explicit ClassicFilter(const FilterConfig &config);
  // Reads the payload written by write_payload; zero_copy borrows the
  // source's memory instead of copying it (for bloom_map).
  static std::unique_ptr<Filter> load(const FilterConfig &config, ByteSource &src, bool zero_copy);
  static uint64_t payload_size_for(uint64_t bits) { return BitArray::word_count_for(bits) * 8; }

  bool query(Hash128 h) const override;
  uint64_t payload_size() const override { return bits_.byte_size(); }
  void write_payload(ByteSink &sink) const override;

  const BitArray &bit_array() const { return bits_; }

 protected:
  void add(Hash128 h) override;
  bool test_and_add(Hash128 h) override;
  void add_block(const Hash128 *hs, size_t n) override;
  void query_block(const Hash128 *hs, size_t n, uint8_t *out) const override;
  void merge_from(const Filter &src) override;
  void intersect_with(const Filter &src) override;
  void clear_all() override { bits_.clear(); }
  std::unique_ptr<Filter> clone_filter() const override;
  void fill_info(bloom_info &info) const override;

 private:
  friend class ScalableFilter;  // its stages are classic filters it adds to by hash

  ClassicFilter(const ClassicFilter &other);
  ClassicFilter(const FilterConfig &config, BitArray bits);
  template <bool kConcurrent, bool kEnhanced, bool kMixed>
  bool probe_and_set(Hash128 h);
  template <bool kConcurrent, bool kEnhanced, bool kMixed>
  bool probe(Hash128 h) const;
  template <bool kConcurrent, bool kEnhanced, bool kMixed>
  void add_all(const Hash128 *hs, size_t n);
  template <bool kConcurrent, bool kEnhanced, bool kMixed>
  void query_all(const Hash128 *hs, size_t n, uint8_t *out) const;
  void prefetch_probes(const Hash128 *hs, size_t n, uint32_t probes) const;
  // bloom_query on an XXH3 filter: the hash and the probes in the one
  // function the C API calls (see install_key_query).
  template <bool kConcurrent, bool kEnhanced, bool kMixed>
  static int query_key_xxh3(const void *self, const void *key, size_t len);
  void install_key_query();

  // Probes a query tests before its first branch (see probe()).
  static constexpr uint32_t kProbeGroup = 4;
  // Probes of each key a batch query prefetches before probing any.
  static constexpr uint32_t kQueryPrefetchProbes = kProbeGroup;

  BitArray bits_;
};

}  // namespace bloom::core
