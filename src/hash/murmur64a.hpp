// SPDX-License-Identifier: Apache-2.0
// murmur64a.hpp -- MurmurHash64A (Austin Appleby's public-domain 64-bit
// MurmurHash2), written here from the algorithm's description, and the
// key hash of RedisBloom's Bloom filters built on it.
//
// RedisBloom (options flag FORCE64, every filter it has made since 2.0)
// hashes a key twice: a = MurmurHash64A(key, seed 0xc6a4a7935bd1e995),
// b = MurmurHash64A(key, seed a), and sets bits (a + i*b) mod m for
// i = 0..k-1, arithmetic mod 2^64 (kinds/classic_modulo.cpp). The hash
// kind BLOOM_HASH_REDISBLOOM is that pair, so a filter moved out of
// RedisBloom keeps answering exactly as it did (checked against RedisBloom's
// own SCANDUMP/DUMP/RDB output: redis/tests/fixtures/redisbloom).
//
// Blocks are read as little-endian words on every host: RedisBloom reads
// them natively on x86-64 and aarch64, both little-endian.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hash/hash128.hpp"

namespace bloom::core {

// RedisBloom's fixed first seed (it is also MurmurHash64A's multiplier).
inline constexpr uint64_t kRedisBloomSeed = 0xc6a4a7935bd1e995ULL;

uint64_t murmur64a(const void *data, size_t len, uint64_t seed);

// {a, b} as RedisBloom computes them, from the filter's seed (the
// library's filters of this hash kind record kRedisBloomSeed).
inline Hash128 redisbloom_hash(const void *data, size_t len, uint64_t seed) {
  const uint64_t a = murmur64a(data, len, seed);
  return {a, murmur64a(data, len, a)};
}

}  // namespace bloom::core
