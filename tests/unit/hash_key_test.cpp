// SPDX-License-Identifier: Apache-2.0
// bloom_hash_key: the (h1, h2) of docs/FORMAT.md's step 1, as a filter of
// each hash kind computes it -- XXH3-128 checked against libxxhash itself,
// RedisBloom's pair against MurmurHash64A values RedisBloom computes, the
// others against the filters' own hasher -- and clear refusals.
#include <gtest/gtest.h>

#include <string>

#include "bloom/bloom.h"
#include "hash/hasher.hpp"
#include "hash/murmur64a.hpp"

namespace bloom::test {
namespace {

const std::string kKeys[] = {"", "a", "item:0", "a key of more than sixteen bytes", std::string(300, 'x')};

TEST(HashKey, Xxh3IsLibxxhashsXxh3_128) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{42}, ~uint64_t{0}})
    for (const std::string &k : kKeys) {
      uint64_t out[2] = {0, 0};
      ASSERT_EQ(bloom_hash_key(BLOOM_HASH_XXH3, seed, k.data(), k.size(), out), BLOOM_OK);
      const XXH128_hash_t want = XXH3_128bits_withSeed(k.data(), k.size(), seed);
      EXPECT_EQ(out[0], want.low64) << k;
      EXPECT_EQ(out[1], want.high64) << k;
    }
}

TEST(HashKey, RedisBloomIsItsMurmurHash64APair) {
  uint64_t out[2] = {0, 0};
  ASSERT_EQ(bloom_hash_key(BLOOM_HASH_REDISBLOOM, core::kRedisBloomSeed, "item:0", 6, out), BLOOM_OK);
  EXPECT_EQ(out[0], 0xc8c94e90cedb5f9eULL);  // RedisBloom's a for "item:0"
  EXPECT_EQ(out[1], core::murmur64a("item:0", 6, out[0]));
}

TEST(HashKey, EveryTwoValueHashIsTheFiltersOwn) {
  for (int hash : {BLOOM_HASH_XXH3, BLOOM_HASH_MURMUR3, BLOOM_HASH_FNV1A, BLOOM_HASH_REDISBLOOM})
    for (uint64_t seed : {uint64_t{0}, uint64_t{0x5eed}})
      for (const std::string &k : kKeys) {
        uint64_t out[2] = {0, 0};
        ASSERT_EQ(bloom_hash_key(hash, seed, k.data(), k.size(), out), BLOOM_OK) << hash;
        const core::Hash128 want =
            core::Hasher{static_cast<core::HashKind>(hash), seed, false}(k.data(), k.size());
        EXPECT_EQ(out[0], want.h1) << hash << " " << k;
        EXPECT_EQ(out[1], want.h2) << hash << " " << k;
      }
}

TEST(HashKey, RefusesWhatHasNoTwoValues) {
  uint64_t out[2] = {0, 0};
  for (int hash : {BLOOM_HASH_GUAVA, BLOOM_HASH_BITS_AND_BLOOMS, BLOOM_HASH_PARQUET})
    EXPECT_EQ(bloom_hash_key(hash, 0, "a", 1, out), BLOOM_E_UNSUPPORTED) << hash;
  EXPECT_EQ(bloom_hash_key(0, 0, "a", 1, out), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_hash_key(8, 0, "a", 1, out), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_hash_key(BLOOM_HASH_XXH3, 0, "a", 1, nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_hash_key(BLOOM_HASH_XXH3, 0, nullptr, 1, out), BLOOM_E_INVALID_ARG);
  // An empty key may be NULL.
  uint64_t empty[2] = {0, 0};
  ASSERT_EQ(bloom_hash_key(BLOOM_HASH_XXH3, 0, nullptr, 0, out), BLOOM_OK);
  ASSERT_EQ(bloom_hash_key(BLOOM_HASH_XXH3, 0, "", 0, empty), BLOOM_OK);
  EXPECT_EQ(out[0], empty[0]);
  EXPECT_EQ(out[1], empty[1]);
}

}  // namespace
}  // namespace bloom::test
