// SPDX-License-Identifier: Apache-2.0
// hasher.hpp -- picks one of the three 128-bit hashers for a filter.
//
// XXH3 is called inlined from the system header (XXH_INLINE_ALL): on 3-15
// byte keys a PLT call per key would cost a visible share of a query. The
// switch is on a per-filter constant, so the branch predicts perfectly.
#pragma once

#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "hash/fnv1a.hpp"
#include "hash/hash128.hpp"
#include "hash/murmur3.hpp"
#include "hash/murmur64a.hpp"

namespace bloom::core {

// kRedisBloom (format 1.4) is RedisBloom's MurmurHash64A pair; its filters
// also reduce probes modulo m (murmur64a.hpp, kinds/classic_modulo.cpp).
// kGuava, kBitsAndBlooms and kParquet (format 1.5) are other systems' hashes
// and positions, so their filters answer as those systems do
// (interop/foreign_hash.hpp).
enum class HashKind : int32_t {
  kXxh3 = 1,
  kMurmur3 = 2,
  kFnv1a = 3,
  kRedisBloom = 4,
  kGuava = 5,
  kBitsAndBlooms = 6,
  kParquet = 7
};

inline bool is_valid_hash_kind(int32_t v) { return v >= 1 && v <= 7; }

// Parquet's key hash, XXH64 with seed 0, as the (h1, h2) the split-block
// code reads: the block is the multiply-high of h1 by the block count, and
// with the low 32 bits of h1 cleared that is Parquet's
// ((h >> 32) * blocks) >> 32; the in-block bits come from h2's low 32 bits,
// Parquet's (uint32) h.
inline Hash128 parquet_hash(const void *data, size_t len) {
  const uint64_t h = XXH64(data, len, 0);
  return {h & ~uint64_t{0xffffffff}, h};
}

inline Hash128 xxh3_128(const void *data, size_t len, uint64_t seed) {
  const XXH128_hash_t h = XXH3_128bits_withSeed(data, len, seed);
  return {h.low64, h.high64};
}

// XXH3-64 standing in for a 128-bit hash (blocked layout 2 with XXH3,
// FilterConfig::key_hash64): h1 = h2 = the 64-bit value.
inline Hash128 xxh3_64_as_128(const void *data, size_t len, uint64_t seed) {
  const uint64_t h = XXH3_64bits_withSeed(data, len, seed);
  return {h, h};
}

// XXH3-64 for the specialised query paths: keys of up to 16 bytes (ids,
// words, k-mers of short k) take XXH3's short-input code inlined, with the
// longer-input paths pruned by the length check; longer keys make a call.
// Same value as XXH3_64bits_withSeed for every length.
__attribute__((noinline)) inline uint64_t xxh3_64_out_of_line(const void *data, size_t len, uint64_t seed) {
  return XXH3_64bits_withSeed(data, len, seed);
}
inline uint64_t xxh3_64_short_inline(const void *data, size_t len, uint64_t seed) {
  if (len <= 16) return XXH3_64bits_withSeed(data, len, seed);
  return xxh3_64_out_of_line(data, len, seed);
}

// The same for XXH3-128 (the classic kind's single-key path).
__attribute__((noinline)) inline Hash128 xxh3_128_out_of_line(const void *data, size_t len, uint64_t seed) {
  return xxh3_128(data, len, seed);
}
inline Hash128 xxh3_128_short_inline(const void *data, size_t len, uint64_t seed) {
  if (len <= 16) return xxh3_128(data, len, seed);
  return xxh3_128_out_of_line(data, len, seed);
}

struct Hasher {
  HashKind kind = HashKind::kXxh3;
  uint64_t seed = 0;
  bool hash64 = false;  // FilterConfig::key_hash64(): XXH3-64 as both halves

  Hash128 operator()(const void *data, size_t len) const {
    if (hash64) return xxh3_64_as_128(data, len, seed);
    switch (kind) {
      case HashKind::kMurmur3:
        return murmur3_x64_128(data, len, seed);
      case HashKind::kFnv1a:
        return fnv1a_128(data, len, seed);
      case HashKind::kRedisBloom:
        return redisbloom_hash(data, len, seed);
      case HashKind::kGuava:
        // Guava's Hashing.murmur3_128() (seed 0); also the first two of
        // bits-and-blooms' four values, which only its lock stripes read
        // (kinds/classic_bits_and_blooms.cpp takes its keys whole).
      case HashKind::kBitsAndBlooms:
        return murmur3_x64_128(data, len, 0);
      case HashKind::kParquet:
        return parquet_hash(data, len);
      case HashKind::kXxh3:
      default:
        return xxh3_128(data, len, seed);
    }
  }
};

}  // namespace bloom::core
