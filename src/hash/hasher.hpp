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
enum class HashKind : int32_t { kXxh3 = 1, kMurmur3 = 2, kFnv1a = 3, kRedisBloom = 4 };

inline bool is_valid_hash_kind(int32_t v) { return v >= 1 && v <= 4; }

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
      case HashKind::kXxh3:
      default:
        return xxh3_128(data, len, seed);
    }
  }
};

}  // namespace bloom::core
