// SPDX-License-Identifier: Apache-2.0
// xxh3_block.hpp -- XXH3-64 of a block of keys, grouped by XXH3's length
// class so that hashing the block takes no data-dependent branch per key.
//
// XXH3 picks its code for keys of up to 16 bytes by length (1-3, 4-8 and
// 9-16 bytes). With mixed lengths -- the seed workload's 3-15 bytes -- those
// branches mispredict on about every other key, and each miss also throws
// away the work the CPU had started on the next keys: the same keys ordered
// by length made both the floor (hash + one line read) and a blocked query
// faster (seed_table's floor rows). A batch can afford to
// sort: one pass files each key under its class (arithmetic, no branch),
// then one loop per class calls xxhash.h's own function for that class
// (visible with XXH_INLINE_ALL), so every value is exactly
// XXH3_64bits_withSeed's (HashBlock.* checks every length from 0 to 300).
// Those functions are xxhash.h internals, not its API: with an xxHash other
// than 0.8.x this falls back to one XXH3_64bits_withSeed call per key.
//
// Used by filter.cpp's hash_block: the batch adds of concurrent XXH3-64
// filters and test-and-add batches. Batch queries and plain batch adds of
// blocked filters hash key by key instead and prefetch each line right
// after its hash: filing first issues a block's prefetches in one burst,
// which made batch queries slower on one CPU, and the key-level batch add
// (no filing, no 128-bit value, no virtual call per block) executes about
// a third fewer instructions per key than the filed one (docs/PERFORMANCE.md,
// "Decisions the code cites").
#pragma once

#include <cstddef>
#include <cstdint>

#include "hash/hasher.hpp"

namespace bloom::core {

inline constexpr size_t kMaxHashBlock = 64;

#if XXH_VERSION_MAJOR == 0 && XXH_VERSION_MINOR == 8
#define BLOOM_XXH3_BY_LENGTH_CLASS 1
#else
#define BLOOM_XXH3_BY_LENGTH_CLASS 0
#endif

// out[i] = XXH3_64bits_withSeed(keys[i], lens[i], seed) for i < count
// (count <= kMaxHashBlock).
inline void xxh3_64_block(const void *const *keys, const size_t *lens, size_t count, uint64_t seed,
                          uint64_t *out) {
#if !BLOOM_XXH3_BY_LENGTH_CLASS
  for (size_t i = 0; i < count; ++i) out[i] = XXH3_64bits_withSeed(keys[i], lens[i], seed);
#else
  // Class 0: 9-16 bytes, 1: 4-8, 2: 1-3, 3: anything else (0 or > 16 bytes).
  // Each key is written to all four lists and only its own list's count
  // advances: four stores and four adds, but no branch and no count loaded
  // back from memory (a `members[cls][sizes[cls]++]` form chains every key
  // through a store-to-load forward of the same counter).
  uint8_t members[4][kMaxHashBlock];
  size_t n0 = 0, n1 = 0, n2 = 0, n3 = 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t len = lens[i];
    const size_t is_short = (len - 1) < 16;  // 1..16 (0 wraps around)
    const size_t up_to_8 = len <= 8, up_to_3 = len <= 3;
    members[0][n0] = members[1][n1] = members[2][n2] = members[3][n3] = static_cast<uint8_t>(i);
    n0 += is_short & (1 - up_to_8);
    n1 += is_short & up_to_8 & (1 - up_to_3);
    n2 += is_short & up_to_3;
    n3 += 1 - is_short;
  }
  const size_t sizes[4] = {n0, n1, n2, n3};
  const auto *secret = XXH3_kSecret;
  const auto bytes = [keys](size_t i) { return static_cast<const xxh_u8 *>(keys[i]); };
  for (size_t j = 0; j < sizes[0]; ++j) {
    const size_t i = members[0][j];
    out[i] = XXH3_len_9to16_64b(bytes(i), lens[i], secret, seed);
  }
  for (size_t j = 0; j < sizes[1]; ++j) {
    const size_t i = members[1][j];
    out[i] = XXH3_len_4to8_64b(bytes(i), lens[i], secret, seed);
  }
  for (size_t j = 0; j < sizes[2]; ++j) {
    const size_t i = members[2][j];
    out[i] = XXH3_len_1to3_64b(bytes(i), lens[i], secret, seed);
  }
  for (size_t j = 0; j < sizes[3]; ++j) {
    const size_t i = members[3][j];
    out[i] = xxh3_64_out_of_line(keys[i], lens[i], seed);
  }
#endif
}

}  // namespace bloom::core
