// SPDX-License-Identifier: Apache-2.0
// split_block.hpp -- the split-block variant of the blocked kind
// (BLOOM_FLAG_SPLIT_BLOCK, format 1.4): 32-byte blocks, k = 8, one bit per
// 32-bit word of the block.
//
// The layout, from the key's 128-bit hash (h1, h2) (XXH3-64 filters: h1 =
// h2 = the key's XXH3-64, as in layout 2 of the 64-byte kind):
//   block = floor(h1 * blocks / 2^64)             (multiply-high, probe.hpp)
//   x     = low 32 bits of h2
//   word i of the block (i = 0..7) gets bit (x * M_i mod 2^32) >> 27,
// M_i = kSaltMultipliers[i] (blocked_line.hpp). Word i is bits 32i..32i+31
// of the block; the block is 64-bit words 4b..4b+3 of the bit array, so word
// i is the low (i even) or high (i odd) half of 64-bit word i / 2 -- on a
// little-endian CPU, 32-bit word i of the block in memory, which is how the
// AVX2 path reads it: one multiply, one shift and one variable shift build
// the whole 8-bit mask in a register, one vptest checks it.
//
// The price is memory: every key sets exactly one bit in each of the 8
// words of one block, so a block holding c keys has each word's bits set
// with probability 1 - (31/32)^c, and a query tests one bit per word:
//     FPR = sum_c Poisson(c; n / blocks) * (1 - (31/32)^c)^8.
// Sized so that this is <= p (split_block_blocks), which costs more bits per
// key than the 64-byte kind: 10.53 at p = 0.01 (64-byte: 9.92), 16.89 at
// 1e-3 (15.55), 26.34 at 1e-4 (22.03), 40.99 at 1e-5 (29.67). docs/choosing.md
// has the table.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kinds/blocked_line.hpp"
#include "pipelined_blocks.hpp"
#include "probe.hpp"
#include "relaxed_atomic.hpp"

namespace bloom::core::split_block {

inline constexpr uint32_t kBlockBits = 256;
inline constexpr uint32_t kBlockWords = kBlockBits / 64;  // 64-bit words
inline constexpr uint32_t kProbes = 8;                    // k, fixed

inline const uint32_t *multipliers() { return blocked::kSaltMultipliers.data(); }

// Parquet's eight salts (its BloomFilter.md), the multipliers of the parquet
// hash kind (format 1.5). Its block is the multiply-high of parquet_hash's
// h1 (hash/hasher.hpp), so with these the bits are Parquet's.
inline constexpr uint32_t kParquetSalts[kProbes] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                                    0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

// The key's 8 bits as four 64-bit words, with the multipliers m.
inline void block_mask(uint32_t x, uint64_t *mask, const uint32_t *m = multipliers()) {
  for (uint32_t w = 0; w < kBlockWords; ++w) mask[w] = 0;
  for (uint32_t i = 0; i < kProbes; ++i) mask[i >> 1] |= uint64_t{1} << ((i & 1) * 32 + ((x * m[i]) >> 27));
}

// Portable query: every bit of the mask is set. kAtomic reads each word
// with a relaxed atomic load (concurrent filters; blocked_line.hpp).
template <bool kAtomic = false>
inline bool block_has(const uint64_t *block, uint32_t x, const uint32_t *m = multipliers()) {
  uint64_t mask[kBlockWords];
  block_mask(x, mask, m);
  bool all = true;
  for (uint32_t w = 0; w < kBlockWords; ++w)
    all &= (blocked::load_word<kAtomic>(block + w) & mask[w]) == mask[w];
  return all;
}

// Portable add; returns whether every bit was set before.
inline bool block_add(uint64_t *block, uint32_t x, const uint32_t *m = multipliers()) {
  uint64_t mask[kBlockWords];
  block_mask(x, mask, m);
  bool all = true;
  for (uint32_t w = 0; w < kBlockWords; ++w) {
    all &= (block[w] & mask[w]) == mask[w];
    block[w] |= mask[w];
  }
  return all;
}

// The rate of a block with each word holding set[i] set bits, for a query
// that tests one uniform bit per word.
inline double block_fp_rate(const uint64_t *block) {
  double rate = 1.0;
  for (uint32_t w = 0; w < kBlockWords; ++w) {
    const uint64_t v = block[w];
    rate *= static_cast<double>(__builtin_popcount(static_cast<uint32_t>(v))) / 32.0;
    rate *= static_cast<double>(__builtin_popcount(static_cast<uint32_t>(v >> 32))) / 32.0;
  }
  return rate;
}

// The block of a key whose hash is XXH3-64 (v.lines counts blocks).
inline const uint64_t *block_of_hash64(const blocked::LineView &v, uint64_t h) {
  return v.words + reduce_range(h, v.lines) * kBlockWords;
}

// A batch query of split blocks, pipelined as blocked::query_keys_pipelined:
// block b + 1 is hashed and its blocks prefetched before block b is probed.
template <typename Probe>
inline void query_keys_pipelined(const blocked::LineView &v, const void *const *keys, const size_t *lens,
                                 size_t n, uint8_t *out, Probe &&probe) {
  constexpr size_t kKeyBlock = blocked::kKeyBlock;
  const uint64_t *blocks[2][kKeyBlock];
  uint32_t seeds[2][kKeyBlock];
  pipelined_blocks<kKeyBlock>(
      n,
      [&](size_t start, size_t count, size_t slot) {
        for (size_t i = 0; i < count; ++i) {
          const uint64_t h = xxh3_64_short_inline(keys[start + i], lens[start + i], v.seed);
          seeds[slot][i] = blocked::line_seed(h);
          blocks[slot][i] = block_of_hash64(v, h);
          __builtin_prefetch(blocks[slot][i]);
        }
      },
      [&](size_t start, size_t count, size_t slot) {
        for (size_t i = 0; i < count; ++i) out[start + i] = probe(blocks[slot][i], seeds[slot][i]) ? 1 : 0;
      });
}

// The model's rate for n keys in `blocks` blocks (top comment).
double model_fp_rate(double n, uint64_t blocks);

// The smallest number of blocks whose model rate at n keys is <= p. Throws
// Error(OVERFLOW) past BLOOM_MAX_BITS.
uint64_t smallest_blocks(uint64_t n, double p);

}  // namespace bloom::core::split_block
