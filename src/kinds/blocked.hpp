// SPDX-License-Identifier: Apache-2.0
// blocked.hpp -- the cache-line blocked Bloom filter: all k bits of a key in
// one 64-byte (512-bit) line, so a query costs one cache miss instead of k.
//
// m = lines * 512 exactly (no power-of-two rounding: the line is chosen by a
// multiply-high of h1). blocked_line.hpp pins where the bits go; query and
// add use AVX2 when the CPU has it (blocked_kernels.hpp, chosen at run time
// when the filter is created) and portable loops otherwise, identical bits.
//
// The price is memory. Keys fall unevenly into lines and the overfull lines
// dominate the false-positive rate, so for the same promised p a blocked
// filter needs more bits per key than the classic formula |ln p| / ln^2 2.
// Sizing uses the Putze-Sanders-Singler model (blocked_sizing.hpp) so the
// expected rate at capacity is <= p (a given run scatters around it by
// binomial noise). Measured at capacity, n = 10^6, keys "present-<i>", rate
// over "absent-<i>" keys (4*10^6; 2*10^7 at 1e-5), XXH3 unless noted:
//
//     p     classic bits/key  blocked bits/key   extra   k   measured FPR
//     1e-2        9.585             9.918        +3.5%   6   1.003e-2 (murmur3 0.998e-2)
//     1e-3       14.378            15.546        +8.1%   9   0.968e-3
//     1e-4       19.170            22.030       +14.9%  12   0.950e-4 (fnv1a 1.03e-4)
//     1e-5       23.963            29.670       +23.8%  14   0.920e-5
//
// The extra grows as p shrinks: at small p the rate is ruled by the few
// overloaded lines (a Poisson tail), which only more lines tame.
//
// BLOOM_FLAG_SPLIT_BLOCK makes the lines 32-byte blocks with k = 8, one bit
// per 32-bit word (split_block.hpp): one SIMD compare per key, for more
// memory.
//
// Concurrent adds (BLOOM_FLAG_CONCURRENT) skip keys already present and
// otherwise set the bits under the lock of the line's region of the array
// (stripe_locks.hpp), with relaxed atomic loads and stores; a batch sorts
// its keys by region and takes each region's lock once. Concurrent queries
// read the line's words with relaxed atomic loads (plain loads on x86), so
// no insert is lost. XXH3-64 filters query through the kernel set's
// concurrent key paths (with AVX2: the SIMD probe on atomically loaded
// words); the others through the portable loop.
#pragma once

#include <memory>

#include "bit_array.hpp"
#include "kinds/array_filter.hpp"
#include "kinds/blocked_kernels.hpp"
#include "kinds/blocked_line.hpp"
#include "stripe_locks.hpp"

namespace bloom::core {

class BlockedFilter final : public ArrayFilter<BlockedFilter, BitArray> {
 public:
  // config.bits is a positive multiple of 512, or of 256 with split blocks
  // (validate_config checks it).
  explicit BlockedFilter(const FilterConfig &config);

  bool query(Hash128 h) const override;

  const BitArray &bit_array() const { return bits_; }
  uint64_t lines() const { return lines_; }
  // The lines and probes every path reads (blocked_bits.hpp hands them out).
  const blocked::LineView &line_view() const { return view_; }
  const blocked::Kernels &kernels() const { return *kernels_; }
  // Tests only (not thread-safe): answer through another kernel set (same
  // bits, other code).
  void use_kernels(const blocked::Kernels &k) {
    kernels_ = &k;
    install_key_query_paths();
  }

 protected:
  void add(Hash128 h) override;
  bool test_and_add(Hash128 h) override;
  void add_block(const Hash128 *hs, size_t n) override;
  void prefetch_block(const Hash128 *hs, size_t n) const override;
  void query_block(const Hash128 *hs, size_t n, uint8_t *out) const override;
  void fill_info(Info &info) const override;

 private:
  friend class ArrayFilter;
  BlockedFilter(const BlockedFilter &other);
  BlockedFilter(const FilterConfig &config, BitArray bits);

  uint64_t line_of(Hash128 h) const;
  // The first word of h's line (or split block).
  uint64_t *line_words(Hash128 h) { return bits_.words() + line_of(h) * line_words_; }
  const uint64_t *line_words(Hash128 h) const { return bits_.words() + line_of(h) * line_words_; }
  // Concurrent filters: every write holds the lock of its line's region
  // (stripe_locks.hpp), so the bits are set with relaxed loads and stores,
  // no locked instruction per word. Returns whether all were set before.
  uint32_t stripe_of(uint64_t line) const { return static_cast<uint32_t>(line >> stripe_shift_); }
  bool set_bits_locked(uint64_t *line, uint32_t x);
  bool set_bits_concurrent(Hash128 h);
  // A concurrent batch: sorted by region, one lock per region visited.
  void add_block_concurrent(const Hash128 *hs, size_t n);
  void make_stripes();
  void fill_split_info(Info &info) const;
  template <bool kPrefetch>
  void stage_lines(const Hash128 *hs, size_t count, uint64_t *lines, uint32_t *seeds) const;
  // Sets h's bits (a concurrent filter's under its region's lock).
  void set_bits(Hash128 h);
  bool query_concurrent(Hash128 h) const;
  // Fills view_ (every path's probes) and routes bloom_query /
  // bloom_query_batch straight into the kernels when the filter hashes with
  // XXH3-64 (the concurrent kernels for a concurrent filter).
  void install_key_query_paths();

  // BLOOM_FLAG_SPLIT_BLOCK (split_block.hpp): 32-byte blocks of k = 8 bits,
  // lines_ counts them and line_words_ is 4; otherwise 64-byte lines of 8.
  bool split_;
  // The parquet hash kind (format 1.5): split blocks with Parquet's salts
  // (split_block.hpp), through the portable loops; never concurrent.
  bool parquet_;
  uint32_t line_words_;
  uint64_t lines_;
  // Concurrent filters only: the region locks; line l is in region
  // l >> stripe_shift_ (< StripeLocks::kStripes).
  std::unique_ptr<StripeLocks> stripes_;
  uint32_t stripe_shift_ = 0;
  const blocked::Kernels *kernels_;
  // The lines and probes (k, the layout's multipliers) every path reads;
  // filled by install_key_query_paths.
  blocked::LineView view_{};
};

}  // namespace bloom::core
