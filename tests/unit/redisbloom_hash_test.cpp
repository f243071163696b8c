// SPDX-License-Identifier: Apache-2.0
// The RedisBloom hash kind: MurmurHash64A, and filters that set exactly the
// bits RedisBloom sets. The expected values come from RedisBloom's own data
// (redis/tests/fixtures/redisbloom, made by RedisBloom: f3 = BF.RESERVE 1e-4
// 10000 NONSCALING + item:0..4999; f2 = BF.RESERVE 0.001 100 EXPANSION 2 +
// item:0..1999), through a reference written apart from this code and
// checked there against all 2000 recorded answers of each filter.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bloom/bloom.h"
#include "hash/murmur64a.hpp"
#include "test_util.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace {

using bloom::core::kRedisBloomSeed;
using bloom::core::murmur64a;

uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h;
}

uint64_t le64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

TEST(RedisBloomHash, Murmur64aMatchesTheReference) {
  // Lengths 0, 1, 6, 9 and 17: no block, tails of every kind, two blocks.
  EXPECT_EQ(murmur64a("", 0, kRedisBloomSeed), 0x1ab11ea5a7b2c56eULL);
  EXPECT_EQ(murmur64a("a", 1, kRedisBloomSeed), 0x4292cee227b9150aULL);
  EXPECT_EQ(murmur64a("item:0", 6, kRedisBloomSeed), 0xc8c94e90cedb5f9eULL);
  EXPECT_EQ(murmur64a("absent:17", 9, kRedisBloomSeed), 0x9c94494af6a41910ULL);
  EXPECT_EQ(murmur64a("0123456789abcdefg", 17, kRedisBloomSeed), 0x4d3e0b66ada9c7a3ULL);
}

bloom_filter *make(int kind, uint64_t capacity, double p, uint64_t items) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.hash = BLOOM_HASH_REDISBLOOM;
  o.capacity = capacity;
  o.fp_rate = p;
  o.growth = 2;
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_OK) << bloom_last_error();
  for (uint64_t i = 0; i < items; ++i) {
    const std::string k = "item:" + std::to_string(i);
    EXPECT_EQ(bloom_add(f, k.data(), k.size()), BLOOM_OK);
  }
  return f;
}

TEST(RedisBloomHash, ClassicSetsRedisBloomsBits) {
  bloom_filter *f = make(BLOOM_KIND_CLASSIC, 10000, 0.0001, 5000);
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f, &info), BLOOM_OK);
  EXPECT_EQ(info.bits, 191744u);  // RedisBloom's m and k for 10,000 at 1e-4
  EXPECT_EQ(info.hashes, 14u);
  EXPECT_EQ(info.format_minor, 4);
  const std::vector<unsigned char> image = bloom::test::serialize(f);
  ASSERT_EQ(image.size(), 128u + 23968u + 8u);
  EXPECT_EQ(le64(image.data() + 32), kRedisBloomSeed);  // seed 0 means RedisBloom's
  EXPECT_EQ(fnv1a(image.data() + 128, 23968), 0xe457c8e6dd013427ULL);
  bloom_destroy(f);
}

TEST(RedisBloomHash, ScalableGrowsAndSetsBitsAsRedisBloom) {
  bloom_filter *f = make(BLOOM_KIND_SCALABLE, 100, 0.001, 2000);
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f, &info), BLOOM_OK);
  ASSERT_EQ(info.stages, 5u);
  // RedisBloom's sub-filters: capacity 100 x 2^i at 0.0005 / 2^i.
  const uint64_t bits[5] = {1600, 3456, 7488, 16128, 34560};
  const uint32_t hashes[5] = {11, 12, 13, 14, 15};
  const uint64_t keys[5] = {100, 200, 400, 800, 497};
  std::vector<unsigned char> all;
  const std::vector<unsigned char> image = bloom::test::serialize(f);
  size_t at = 128 + 256;  // the stage table (5 x 40 bytes, padded to 64)
  for (uint32_t i = 0; i < 5; ++i) {
    bloom_info s;
    s.struct_size = sizeof s;
    ASSERT_EQ(bloom_get_stage_info(f, i, &s), BLOOM_OK);
    EXPECT_EQ(s.bits, bits[i]);
    EXPECT_EQ(s.hashes, hashes[i]);
    EXPECT_EQ(s.capacity, 100u << i);
    EXPECT_EQ(s.keys_added, keys[i]);  // 3 of the 2000 were false positives, as in RedisBloom
    all.insert(all.end(), image.begin() + static_cast<long>(at),
               image.begin() + static_cast<long>(at + bits[i] / 8));
    at += (bits[i] / 8 + 63) / 64 * 64;
  }
  EXPECT_EQ(fnv1a(all.data(), all.size()), 0x12ec7263e0f72e6bULL);
  bloom_destroy(f);
}

TEST(RedisBloomHash, OnlyClassicAndScalable) {
  for (int kind : {BLOOM_KIND_BLOCKED, BLOOM_KIND_PARTITIONED, BLOOM_KIND_COUNTING, BLOOM_KIND_WINDOW}) {
    bloom_options o;
    bloom_options_init(&o);
    o.kind = kind;
    o.hash = BLOOM_HASH_REDISBLOOM;
    o.capacity = 1000;
    bloom_filter *f = nullptr;
    EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG) << kind;
    EXPECT_EQ(f, nullptr);
  }
  EXPECT_EQ(bloom_hash_from_name("redisbloom"), BLOOM_HASH_REDISBLOOM);
  EXPECT_STREQ(bloom_hash_name(BLOOM_HASH_REDISBLOOM), "redisbloom");
}

TEST(RedisBloomHash, SavedFilterLoadsAndAnswersTheSame) {
  bloom_filter *f = make(BLOOM_KIND_SCALABLE, 100, 0.001, 2000);
  const std::vector<unsigned char> image = bloom::test::serialize(f);
  bloom_filter *g = nullptr;
  ASSERT_EQ(bloom_deserialize(image.data(), image.size(), &g), BLOOM_OK) << bloom_last_error();
  for (int i = 0; i < 3000; ++i) {
    const std::string k = (i % 2 ? "item:" : "absent:") + std::to_string(i);
    EXPECT_EQ(bloom_query(f, k.data(), k.size()), bloom_query(g, k.data(), k.size())) << k;
  }
  // A header that claims mixed probes for this hash is refused, not misread.
  std::vector<unsigned char> forged = image;
  forged[22] |= 0x02;  // flags bit 17 (0x20000): byte 22, bit 1
  const uint64_t sum = XXH3_64bits(forged.data(), 120);
  for (int i = 0; i < 8; ++i) forged[120 + i] = static_cast<unsigned char>(sum >> (8 * i));
  bloom_filter *h = nullptr;
  EXPECT_EQ(bloom_deserialize(forged.data(), forged.size(), &h), BLOOM_E_FORMAT);
  EXPECT_NE(std::string(bloom_last_error()).find("redisbloom hash"), std::string::npos) << bloom_last_error();
  bloom_destroy(f);
  bloom_destroy(g);
}

}  // namespace
