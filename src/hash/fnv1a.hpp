// SPDX-License-Identifier: Apache-2.0
// fnv1a.hpp -- FNV-1a 64 (Fowler, Noll, Vo), seeded.
//
// With seed 0 this is the published FNV-1a 64; a non-zero seed is XORed into
// the offset basis. FNV works byte by byte, so it is byte-order independent.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hash/hash128.hpp"

namespace bloom::core {

inline constexpr uint64_t kFnv64OffsetBasis = 0xcbf29ce484222325ULL;
inline constexpr uint64_t kFnv64Prime = 0x00000100000001b3ULL;

inline uint64_t fnv1a64(const void *data, size_t len, uint64_t seed) {
  const auto *p = static_cast<const unsigned char *>(data);
  uint64_t h = kFnv64OffsetBasis ^ seed;
  for (size_t i = 0; i < len; ++i) {
    h ^= p[i];
    h *= kFnv64Prime;
  }
  return h;
}

// FNV-1a gives 64 bits; both halves of the 128-bit hash are bijective mixes
// (MurmurHash3's fmix64) of them. Raw FNV-1a is not usable as h1: keys that
// differ only in their last bytes (key-1, key-2, ...) get structured high bits,
// and the multiply-high range reduction uses exactly those. Measured before
// the mixer: 0.57% false positives on sequential keys where 1.00% was
// expected -- "better" only by accident, and key-set dependent.
Hash128 fnv1a_128(const void *data, size_t len, uint64_t seed);

}  // namespace bloom::core
