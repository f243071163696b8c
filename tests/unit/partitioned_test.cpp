// SPDX-License-Identifier: Apache-2.0
// The partitioned kind: one bit per slice per key, near-equal slices.
#include "kinds/partitioned.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "test_util.hpp"

namespace bloom::test {
namespace {

bloom_options partitioned_options(uint64_t n, double p) {
  bloom_options o = classic_options(n, p);
  o.kind = BLOOM_KIND_PARTITIONED;
  return o;
}

bool payload_bit(const std::vector<unsigned char> &bytes, uint64_t i) {
  return (bytes[128 + i / 8] >> (i % 8)) & 1;
}

// Slice i covers [floor(i m / k), floor((i + 1) m / k)).
uint64_t slice_start(uint64_t i, uint64_t m, uint64_t k) { return i * m / k; }

TEST(Partitioned, EachKeySetsExactlyOneBitPerSlice) {
  // m = 1001, k = 7: 1001 = 7 * 143, and m = 1000 (slices of 142 and 143).
  for (uint64_t m : {1001ull, 1000ull, 64ull * 7 + 3}) {
    bloom_options o = partitioned_options(100, 0.01);
    o.bits = m;
    o.hashes = 7;
    for (int i = 0; i < 20; ++i) {
      FilterPtr f = make_filter(o);
      const std::string key = "slice-" + std::to_string(i);
      ASSERT_EQ(bloom_add(f.get(), key.data(), key.size()), BLOOM_OK);
      const auto bytes = serialize(f.get());
      for (uint64_t s = 0; s < 7; ++s) {
        int set = 0;
        for (uint64_t b = slice_start(s, m, 7); b < slice_start(s + 1, m, 7); ++b)
          set += payload_bit(bytes, b);
        EXPECT_EQ(set, 1) << "m=" << m << " slice " << s;
      }
    }
  }
}

TEST(Partitioned, SlicesAreNearEqualAndCoverEveryBit) {
  for (uint64_t m : {1000ull, 958506ull, 13ull}) {
    for (uint32_t k : {1u, 3u, 7u, 13u}) {
      if (k > m) continue;
      core::FilterConfig c;
      c.kind = core::Kind::kPartitioned;
      c.bits = m;
      c.hashes = k;
      const core::PartitionedFilter f(c);
      uint64_t smallest = UINT64_MAX, largest = 0;
      EXPECT_EQ(f.slice_start(0), 0u);
      for (uint32_t i = 0; i < k; ++i) {
        const uint64_t len = f.slice_start(i + 1) - f.slice_start(i);
        smallest = std::min(smallest, len);
        largest = std::max(largest, len);
      }
      EXPECT_LE(largest - smallest, 1u) << m << " " << k;
      EXPECT_GE(smallest, 1u);
      EXPECT_EQ(f.slice_start(k), m);
    }
  }
}

TEST(Partitioned, SizedLikeClassic) {
  uint64_t bits = 0;
  uint32_t hashes = 0;
  ASSERT_EQ(bloom_optimal_params(100000, 0.01, &bits, &hashes), BLOOM_OK);
  FilterPtr f = make_filter(partitioned_options(100000, 0.01));
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.bits, bits);
  EXPECT_EQ(info.hashes, hashes);
  // Its model rate at capacity is within 0.1% of the classic formula.
  const double part = core::PartitionedFilter::fp_rate(100000, bits, hashes);
  const double classic = bloom_expected_fp_rate(100000, bits, hashes);
  EXPECT_NEAR(part / classic, 1.0, 0.001);
}

TEST(Partitioned, FewerBitsThanSlicesIsRejected) {
  bloom_options o = partitioned_options(100, 0.01);
  o.bits = 5;
  o.hashes = 7;
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(f, nullptr);
  EXPECT_NE(std::strstr(bloom_last_error(), "m >= k"), nullptr) << bloom_last_error();
}

TEST(Partitioned, PlainDoubleHashingIsADifferentFilter) {
  bloom_options a = partitioned_options(1000, 0.01), b = a;
  b.flags = BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
  FilterPtr fa = make_filter(a), fb = make_filter(b);
  const auto keys = make_keys("p", 1000);
  add_all(fa.get(), keys);
  add_all(fb.get(), keys);
  EXPECT_EQ(count_positive(fb.get(), keys), keys.size());
  EXPECT_EQ(bloom_merge(fa.get(), fb.get()), BLOOM_E_INCOMPATIBLE);
  EXPECT_NE(std::strstr(bloom_last_error(), "probe scheme"), nullptr) << bloom_last_error();
}

}  // namespace
}  // namespace bloom::test
