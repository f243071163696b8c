// SPDX-License-Identifier: Apache-2.0
// Behaviour of the classic kind through the C API that the other bit kinds
// do not share; what they share is tests/unit/bit_kinds_test.cpp (BitKinds,
// which runs for classic too).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "test_util.hpp"

namespace bloom::test {
namespace {

TEST(Classic, NoFalseNegativesForEveryHasherAndScheme) {
  for (int hash : {BLOOM_HASH_XXH3, BLOOM_HASH_MURMUR3, BLOOM_HASH_FNV1A}) {
    for (uint32_t flags : {0u, BLOOM_FLAG_PLAIN_DOUBLE_HASHING, BLOOM_FLAG_CONCURRENT}) {
      bloom_options o = classic_options(20000, 0.01);
      o.hash = hash;
      o.flags = flags;
      o.seed = 42;
      FilterPtr f = make_filter(o);
      const auto keys = make_keys("key-", 20000);
      add_all(f.get(), keys);
      EXPECT_EQ(count_positive(f.get(), keys), keys.size()) << hash << " " << flags;
    }
  }
}

TEST(Classic, EmptyKeyAndBinaryKeysWork) {
  FilterPtr f = make_filter(classic_options(100, 0.01));
  EXPECT_EQ(bloom_query(f.get(), nullptr, 0), 0);
  ASSERT_EQ(bloom_add(f.get(), nullptr, 0), BLOOM_OK);
  EXPECT_EQ(bloom_query(f.get(), "", 0), 1);
  const unsigned char bin[] = {0, 1, 0, 255};
  ASSERT_EQ(bloom_add(f.get(), bin, sizeof bin), BLOOM_OK);
  EXPECT_EQ(bloom_query(f.get(), bin, sizeof bin), 1);
}

TEST(Classic, SeedIsPartOfTheIdentity) {
  bloom_options a = classic_options(1000, 0.01);
  bloom_options b = a;
  b.seed = 1;
  FilterPtr fa = make_filter(a), fb = make_filter(b);
  EXPECT_EQ(bloom_merge(fa.get(), fb.get()), BLOOM_E_INCOMPATIBLE);
  EXPECT_NE(std::strstr(bloom_last_error(), "seed"), nullptr) << bloom_last_error();
}

TEST(Classic, BatchRejectsANullKeyWithoutAddingAnything) {
  FilterPtr f = make_filter(classic_options(100, 0.01));
  const void *keys[] = {"a", nullptr};
  const size_t lens[] = {1, 3};
  EXPECT_EQ(bloom_add_batch(f.get(), keys, lens, 2), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_query(f.get(), "a", 1), 0);
  EXPECT_EQ(bloom_add_batch(f.get(), nullptr, nullptr, 0), BLOOM_OK);
  uint8_t r;
  EXPECT_EQ(bloom_query_batch(f.get(), keys, lens, 1, nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_query_batch(f.get(), keys, lens, 1, &r), BLOOM_OK);
}

TEST(Classic, IntersectionKeepsCommonKeys) {
  const auto common = make_keys("c", 3000);
  FilterPtr a = make_filter(classic_options(10000, 0.01));
  FilterPtr b = make_filter(classic_options(10000, 0.01));
  add_all(a.get(), common);
  add_all(b.get(), common);
  add_all(a.get(), make_keys("onlyA", 3000));
  add_all(b.get(), make_keys("onlyB", 3000));
  ASSERT_EQ(bloom_intersect(a.get(), b.get()), BLOOM_OK);
  EXPECT_EQ(count_positive(a.get(), common), common.size());
  // Keys in only one input mostly drop out.
  EXPECT_LT(count_positive(a.get(), make_keys("onlyA", 3000)), 300u);
}

TEST(Classic, MergeWithItselfIsANoOp) {
  FilterPtr a = make_filter(classic_options(1000, 0.01));
  add_all(a.get(), make_keys("s", 500));
  const auto before = serialize(a.get());
  ASSERT_EQ(bloom_merge(a.get(), a.get()), BLOOM_OK);
  ASSERT_EQ(bloom_intersect(a.get(), a.get()), BLOOM_OK);
  auto after = serialize(a.get());
  // Only keys_added (header) may differ; the bits must not.
  EXPECT_TRUE(std::equal(before.begin() + 128, before.end(), after.begin() + 128));
}

TEST(Classic, TestAndAddReportsNewKeysOnce) {
  FilterPtr f = make_filter(classic_options(10000, 0.001));
  const auto keys = make_keys("t", 10000);
  size_t new_first_time = 0;
  for (const auto &k : keys) new_first_time += bloom_test_and_add(f.get(), k.data(), k.size()) == 0;
  // A few may collide with earlier keys (false positives at p = 0.001).
  EXPECT_GT(new_first_time, 9950u);
  for (const auto &k : keys) EXPECT_EQ(bloom_test_and_add(f.get(), k.data(), k.size()), 1);
}

TEST(Classic, InfoReportsShapeFillAndEstimates) {
  FilterPtr f = make_filter(classic_options(100000, 0.01));
  add_all(f.get(), make_keys("i", 50000));
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.struct_size, sizeof info);
  EXPECT_EQ(info.kind, BLOOM_KIND_CLASSIC);
  EXPECT_EQ(info.hash, BLOOM_HASH_XXH3);
  EXPECT_EQ(info.bits, 958506u);
  EXPECT_EQ(info.hashes, 7u);
  EXPECT_EQ(info.bytes, (958506u + 63) / 64 * 8);
  EXPECT_EQ(info.capacity, 100000u);
  EXPECT_EQ(info.keys_added, 50000u);
  EXPECT_NEAR(info.estimated_keys, 50000, 50000 * 0.02);
  const double expected_fill = 1 - std::exp(-7.0 * 50000 / 958506);
  EXPECT_NEAR(info.fill_ratio, expected_fill, 0.005);
  EXPECT_NEAR(info.expected_fp_rate, std::pow(info.fill_ratio, 7), 1e-12);
  EXPECT_EQ(info.stages, 1u);
  EXPECT_EQ(info.read_only, 0);
}

TEST(Classic, InfoWritesOnlyWhatTheCallerStructCovers) {
  FilterPtr f = make_filter(classic_options(100, 0.01));
  unsigned char buf[sizeof(bloom_info) + 16];
  std::memset(buf, 0xAB, sizeof buf);
  bloom_info *info = reinterpret_cast<bloom_info *>(buf);
  info->struct_size = offsetof(bloom_info, seed);  // an "older" caller
  ASSERT_EQ(bloom_get_info(f.get(), info), BLOOM_OK);
  EXPECT_EQ(info->kind, BLOOM_KIND_CLASSIC);
  EXPECT_EQ(buf[offsetof(bloom_info, seed)], 0xAB);
}

TEST(Classic, ExplicitBitsAndHashes) {
  bloom_options o;
  bloom_options_init(&o);
  o.bits = 12345;
  o.hashes = 3;
  FilterPtr f = make_filter(o);
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.bits, 12345u);
  EXPECT_EQ(info.hashes, 3u);
  EXPECT_EQ(info.fp_rate, 0.0);
  o.hashes = 0;  // derived from capacity (default 10^6): round(12345/10^6 ln 2) -> at least 1
  FilterPtr g = make_filter(o);
  ASSERT_EQ(bloom_get_info(g.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.hashes, 1u);
}

// Positions are 64-bit end to end: a filter of more than 2^32 bits sets and
// finds bits above 2^32 (a 32-bit reduction would never reach them).
TEST(Classic, FilterBeyondTwoToTheThirtyTwoBits) {
  bloom_options o;
  bloom_options_init(&o);
  o.bits = (uint64_t{1} << 32) + (uint64_t{1} << 31);
  o.hashes = 4;
  FilterPtr f = make_filter(o);
  ASSERT_NE(f, nullptr);
  const auto keys = make_keys("big", 2000);
  add_all(f.get(), keys);
  EXPECT_EQ(count_positive(f.get(), keys), keys.size());
  // 8000 probes, a third of them above 2^32 (about 2667): read the image.
  const auto image = serialize(f.get());
  size_t high_bits = 0;
  for (size_t i = 128 + (size_t{1} << 29); i < image.size() - 8; ++i)
    high_bits += static_cast<size_t>(__builtin_popcount(image[i]));
  EXPECT_GT(high_bits, 2300u);
  EXPECT_LT(high_bits, 3050u);
  bloom_filter *g = nullptr;
  ASSERT_EQ(bloom_deserialize(image.data(), image.size(), &g), BLOOM_OK);
  FilterPtr loaded(g);
  EXPECT_EQ(count_positive(loaded.get(), keys), keys.size());
}

}  // namespace
}  // namespace bloom::test
