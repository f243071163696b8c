// SPDX-License-Identifier: Apache-2.0
// The foreign hash kinds (format 1.5): filters that set exactly the bits
// Guava, bits-and-blooms and Parquet set. The expected words come from the
// real libraries: Guava 31.1 (BloomFilter.create(stringFunnel(UTF_8) / longFunnel(),
// 10, 0.01), then writeTo) and bits-and-blooms/bloom 3.3.1
// (NewWithEstimates(10, 0.01), then WriteTo), both as Debian packages them;
// Parquet's from parquet-java's fixture (tests/interop/parquet) and from a
// reference written here from the specification. tests/interop/ compares
// thousands of keys against the libraries themselves.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bloom/bloom.h"
#include "test_util.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace {

using bloom::test::serialize;

constexpr size_t kPayload = 128;  // the payload's offset in an image

uint64_t payload_word(const std::vector<unsigned char> &image, size_t i) {
  uint64_t v = 0;
  for (int b = 7; b >= 0; --b) v = (v << 8) | image[kPayload + 8 * i + static_cast<size_t>(b)];
  return v;
}

bloom_info info_of(const bloom_filter *f) {
  bloom_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(bloom_get_info(f, &info), BLOOM_OK);
  return info;
}

bloom_filter *make(int kind, int hash, uint64_t n, double p) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.hash = hash;
  o.capacity = n;
  o.fp_rate = p;
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_OK) << bloom_last_error();
  return f;
}

void add(bloom_filter *f, const void *key, size_t len) { ASSERT_EQ(bloom_add(f, key, len), BLOOM_OK); }
void add(bloom_filter *f, const std::string &key) { add(f, key.data(), key.size()); }

TEST(ForeignHash, GuavaStringFunnelSetsGuavasBits) {
  bloom_filter *f = make(BLOOM_KIND_CLASSIC, BLOOM_HASH_GUAVA, 10, 0.01);
  const bloom_info info = info_of(f);
  EXPECT_EQ(info.bits, 128u);  // Guava: 95 bits, rounded up to 2 longs
  EXPECT_EQ(info.hashes, 7u);
  EXPECT_EQ(info.format_minor, 5);
  add(f, "hello");
  add(f, "parquet");
  add(f, "ключ");  // the funnel's UTF-8 bytes
  const auto image = serialize(f);
  EXPECT_EQ(payload_word(image, 0), 0x0014008209004084ULL);
  EXPECT_EQ(payload_word(image, 1), 0x8060006012102009ULL);
  EXPECT_EQ(bloom_query(f, "hello", 5), 1);
  bloom_destroy(f);
}

TEST(ForeignHash, GuavaLongFunnelIsEightLittleEndianBytes) {
  bloom_filter *f = make(BLOOM_KIND_CLASSIC, BLOOM_HASH_GUAVA, 10, 0.01);
  const unsigned char k42[8] = {42, 0, 0, 0, 0, 0, 0, 0};
  const unsigned char minus1[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  add(f, k42, 8);
  add(f, minus1, 8);
  const auto image = serialize(f);
  EXPECT_EQ(payload_word(image, 0), 0x0000800400002001ULL);
  EXPECT_EQ(payload_word(image, 1), 0x0108000040020000ULL);
  bloom_destroy(f);
}

TEST(ForeignHash, BitsAndBloomsSetsItsBits) {
  bloom_filter *f = make(BLOOM_KIND_CLASSIC, BLOOM_HASH_BITS_AND_BLOOMS, 10, 0.01);
  const bloom_info info = info_of(f);
  EXPECT_EQ(info.bits, 96u);  // ceil(95.85)
  EXPECT_EQ(info.hashes, 7u);
  // Lengths 5, 15 (the second hash completes a block) and 28.
  const std::vector<std::string> keys = {"hello", "k00000000000015", "a-longer-key-crossing-blocks"};
  // One through the single-key add, one through the batch, one test-and-add.
  add(f, keys[0]);
  const void *ptr = keys[1].data();
  const size_t len = keys[1].size();
  ASSERT_EQ(bloom_add_batch(f, &ptr, &len, 1), BLOOM_OK);
  EXPECT_EQ(bloom_test_and_add(f, keys[2].data(), keys[2].size()), 0);
  EXPECT_EQ(bloom_test_and_add(f, keys[2].data(), keys[2].size()), 1);
  const auto image = serialize(f);
  EXPECT_EQ(payload_word(image, 0), 0x8c808600a220002aULL);
  EXPECT_EQ(payload_word(image, 1), 0x0000000002008c04ULL);
  for (const auto &k : keys) EXPECT_EQ(bloom_query(f, k.data(), k.size()), 1) << k;
  const bloom_info after = info_of(f);
  EXPECT_EQ(after.keys_added, 3u);
  bloom_destroy(f);
}

// Parquet's rule, written from its BloomFilter.md apart from the library.
void parquet_reference_add(std::vector<uint32_t> &words, const std::string &key) {
  static const uint32_t kSalt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                    0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};
  const uint64_t h = XXH64(key.data(), key.size(), 0);
  const uint64_t blocks = words.size() / 8;
  const uint64_t block = ((h >> 32) * blocks) >> 32;
  for (int i = 0; i < 8; ++i)
    words[block * 8 + i] |= uint32_t{1} << ((static_cast<uint32_t>(h) * kSalt[i]) >> 27);
}

std::vector<uint32_t> payload_words32(const std::vector<unsigned char> &image, size_t n) {
  std::vector<uint32_t> w(n);
  for (size_t i = 0; i < n; ++i)
    for (int b = 3; b >= 0; --b) w[i] = (w[i] << 8) | image[kPayload + 4 * i + static_cast<size_t>(b)];
  return w;
}

TEST(ForeignHash, ParquetMatchesTheSpecificationAndParquetJava) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_BLOCKED;
  o.hash = BLOOM_HASH_PARQUET;
  o.bits = 1024 * 8;  // the fixture's size
  bloom_filter *f = nullptr;
  ASSERT_EQ(bloom_create(&o, &f), BLOOM_OK) << bloom_last_error();
  const bloom_info info = info_of(f);
  EXPECT_EQ(info.hashes, 8u);
  EXPECT_NE(info.flags & BLOOM_FLAG_SPLIT_BLOCK, 0u);
  std::vector<uint32_t> expected(256);
  for (const char *k : {"hello", "parquet", "bloom", "filter"}) {
    add(f, k);
    parquet_reference_add(expected, k);
  }
  const auto image = serialize(f);
  EXPECT_EQ(payload_words32(image, 256), expected);
  // parquet-java's bytes for the same keys (after its 16-byte Thrift header).
  std::ifstream in(std::string(BLOOM_TEST_INTEROP_DIR) + "/parquet/bloom_filter.xxhash.bin",
                   std::ios::binary);
  const std::vector<unsigned char> fixture((std::istreambuf_iterator<char>(in)), {});
  ASSERT_EQ(fixture.size(), 16u + 1024u);
  EXPECT_TRUE(std::equal(fixture.begin() + 16, fixture.end(), image.begin() + kPayload));
  EXPECT_EQ(bloom_query(f, "bloom", 5), 1);
  bloom_destroy(f);
}

TEST(ForeignHash, ParquetInt64IsEightLittleEndianBytes) {
  bloom_filter *f = make(BLOOM_KIND_BLOCKED, BLOOM_HASH_PARQUET, 1000, 0.01);
  const bloom_info info = info_of(f);
  const size_t words = info.bits / 32;
  EXPECT_EQ(info.bits % 256, 0u);
  EXPECT_EQ(info.bits & (info.bits - 1), 0u);  // a power of two, as parquet-java sizes
  std::vector<uint32_t> expected(words);
  for (int64_t v : {int64_t{0}, int64_t{-7}, int64_t{1} << 40}) {
    std::string key(8, '\0');
    for (int b = 0; b < 8; ++b)
      key[static_cast<size_t>(b)] = static_cast<char>(static_cast<uint64_t>(v) >> (8 * b));
    add(f, key);
    parquet_reference_add(expected, key);
  }
  EXPECT_EQ(payload_words32(serialize(f), words), expected);
  bloom_destroy(f);
}

TEST(ForeignHash, SaveAndLoadKeepTheMode) {
  for (int hash : {BLOOM_HASH_GUAVA, BLOOM_HASH_BITS_AND_BLOOMS, BLOOM_HASH_PARQUET}) {
    bloom_filter *f =
        make(hash == BLOOM_HASH_PARQUET ? BLOOM_KIND_BLOCKED : BLOOM_KIND_CLASSIC, hash, 1000, 0.01);
    const auto keys = bloom::test::make_keys("k", 1000);
    bloom::test::add_all(f, keys);
    const auto image = serialize(f);
    EXPECT_EQ(image[10], 5);  // format minor 1.5
    bloom_filter *g = nullptr;
    ASSERT_EQ(bloom_deserialize(image.data(), image.size(), &g), BLOOM_OK) << bloom_last_error();
    const bloom_info info = info_of(g);
    EXPECT_EQ(info.hash, hash);
    EXPECT_EQ(bloom::test::count_positive(g, keys), keys.size());
    const auto more = bloom::test::make_keys("more", 100);
    bloom::test::add_all(f, more);
    bloom::test::add_all(g, more);
    EXPECT_EQ(serialize(g), serialize(f)) << hash;
    bloom_destroy(f);
    bloom_destroy(g);
  }
}

TEST(ForeignHash, RefusesWhatTheOtherSystemCannotHold) {
  struct Case {
    int kind;
    int hash;
    uint64_t seed;
    uint32_t flags;
  } cases[] = {
      {BLOOM_KIND_SCALABLE, BLOOM_HASH_GUAVA, 0, 0},
      {BLOOM_KIND_BLOCKED, BLOOM_HASH_BITS_AND_BLOOMS, 0, 0},
      {BLOOM_KIND_CLASSIC, BLOOM_HASH_PARQUET, 0, 0},
      {BLOOM_KIND_CLASSIC, BLOOM_HASH_GUAVA, 1, 0},
      {BLOOM_KIND_CLASSIC, BLOOM_HASH_BITS_AND_BLOOMS, 0, BLOOM_FLAG_CONCURRENT},
      {BLOOM_KIND_BLOCKED, BLOOM_HASH_PARQUET, 0, BLOOM_FLAG_CONCURRENT},
  };
  for (const Case &c : cases) {
    bloom_options o;
    bloom_options_init(&o);
    o.kind = c.kind;
    o.hash = c.hash;
    o.seed = c.seed;
    o.flags = c.flags;
    o.capacity = 100;
    bloom_filter *f = nullptr;
    EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG) << c.kind << " " << c.hash;
    EXPECT_EQ(f, nullptr);
  }
  bloom_options o;
  bloom_options_init(&o);
  o.hash = BLOOM_HASH_GUAVA;
  o.bits = 100;  // not a multiple of 64
  o.hashes = 3;
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG);
}

}  // namespace
