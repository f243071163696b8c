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
#include "kinds/array_filter.hpp"

namespace bloom::core {

class ClassicFilter final : public ProbingArrayFilter<ClassicFilter, BitArray> {
 public:
  explicit ClassicFilter(const FilterConfig &config);
  using ArrayFilter::payload_size_for;
  static uint64_t payload_size_for(uint64_t bits) { return BitArray::word_count_for(bits) * 8; }

  const BitArray &bit_array() const { return bits_; }

 protected:
  void add_block(const Hash128 *hs, size_t n) override;
  void query_block(const Hash128 *hs, size_t n, uint8_t *out) const override;

 private:
  friend class ArrayFilter;
  friend class ProbingArrayFilter;
  friend class ScalableFilter;  // its stages are classic filters it adds to by hash

  ClassicFilter(const ClassicFilter &other);
  ClassicFilter(const FilterConfig &config, BitArray bits);
  template <bool kConcurrent, ProbeScheme kScheme>
  bool probe_and_set(Hash128 h);
  template <bool kConcurrent, ProbeScheme kScheme>
  bool probe(Hash128 h) const;
  template <bool kConcurrent, ProbeScheme kScheme>
  void add_all(const Hash128 *hs, size_t n);
  template <bool kConcurrent, ProbeScheme kScheme>
  void query_all(const Hash128 *hs, size_t n, uint8_t *out) const;
  void prefetch_probes(const Hash128 *hs, size_t n, uint32_t probes) const;
  // The probes of the RedisBloom hash kind (config_.modulo_probes()):
  // positions (h1 + i h2) mod m, plain and unmixed, as RedisBloom sets them
  // (kinds/classic_modulo.cpp).
  bool modulo_test_and_add(Hash128 h);
  bool modulo_query(Hash128 h) const;
  void modulo_add_block(const Hash128 *hs, size_t n);
  void modulo_query_block(const Hash128 *hs, size_t n, uint8_t *out) const;
  // Guava's sign-bit mask of the modulo probes (all ones for RedisBloom's).
  uint64_t modulo_mask() const;
  // The bits-and-blooms hash kind (format 1.5; classic_bits_and_blooms.cpp):
  // positions from four 64-bit hashes of the key, so whole keys.
  bool test_and_add_whole_key(const void *key, size_t len) override;
  bool query_whole_key(const void *key, size_t len) const;
  void install_bits_and_blooms_paths();
  static int bits_and_blooms_query_key(const void *self, const void *key, size_t len);
  static void bits_and_blooms_query_keys(const void *self, const void *const *keys, const size_t *lens,
                                         size_t n, uint8_t *out);
  static int bits_and_blooms_add_key(const void *self, const void *key, size_t len);
  // bloom_query on an XXH3 filter: the hash and the probes in the one
  // function the C API calls (see install_key_query).
  template <bool kConcurrent, ProbeScheme kScheme>
  static int query_key_xxh3(const void *self, const void *key, size_t len);
  void install_key_query();

  // Probes a query tests before its first branch (see probe()).
  static constexpr uint32_t kProbeGroup = 4;
  // Probes of each key a batch query prefetches before probing any.
  static constexpr uint32_t kQueryPrefetchProbes = kProbeGroup;
};

}  // namespace bloom::core
