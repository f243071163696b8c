// SPDX-License-Identifier: Apache-2.0
// limits_test.cpp -- BLOOM_MAX_BITS (2^40 bits or counters) is enforced by
// create, load and merge with arithmetic that cannot wrap.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hardening_util.hpp"

namespace bloom::test {
namespace {

class Limits : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { BLOOM_MAKE_OR_SKIP(GetParam(), BLOOM_HASH_XXH3, &filled_); }
  FilterPtr filled_;
};

TEST_P(Limits, CreateRefusesMoreThanMaxBits) {
  // A kind sized only from (capacity, fp_rate) refuses any explicit m as an
  // invalid option, however large; its limit is checked by the next test.
  const bool takes_bits = GetParam() != BLOOM_KIND_SCALABLE && GetParam() != BLOOM_KIND_WINDOW;
  for (const uint64_t bits : {BLOOM_MAX_BITS + 1, BLOOM_MAX_BITS * 2, UINT64_MAX / 2 + 1, UINT64_MAX}) {
    bloom_options o = small_options(GetParam(), BLOOM_HASH_XXH3);
    o.bits = bits;
    o.hashes = 3;
    bloom_filter *f = nullptr;
    core::reset_allocation_stats();
    EXPECT_EQ(bloom_create(&o, &f), takes_bits ? BLOOM_E_OVERFLOW : BLOOM_E_INVALID_ARG)
        << bits << ": " << bloom_last_error();
    EXPECT_EQ(f, nullptr);
    EXPECT_EQ(core::allocation_stats().array_bytes, 0u) << "allocated before refusing m = " << bits;
  }
}

TEST_P(Limits, CreateRefusesCapacitiesThatNeedMoreThanMaxBits) {
  // n = 2^60 at p = 1e-9 needs about 43 * 2^60 bits; n * |ln p| overflows
  // a 64-bit integer, so the sizing must not be done in one.
  for (const uint64_t n : {uint64_t{1} << 40, uint64_t{1} << 60, UINT64_MAX}) {
    bloom_options o = small_options(GetParam(), BLOOM_HASH_XXH3);
    o.capacity = n;
    o.fp_rate = 1e-9;
    bloom_filter *f = nullptr;
    EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_OVERFLOW) << n << ": " << bloom_last_error();
    EXPECT_EQ(f, nullptr);
  }
}

TEST_P(Limits, LoadRefusesMoreThanMaxBitsBeforeAllocating) {
  auto image = serialize(filled_.get());
  for (const uint64_t bits : {BLOOM_MAX_BITS + 1, UINT64_MAX}) {
    core::store_le64(&image[40], bits);
    fix_checksums(image);
    FilterPtr g;
    EXPECT_EQ(deserialize_checked(image, &g, "bits " + std::to_string(bits)), BLOOM_E_OVERFLOW)
        << bloom_last_error();
  }
}

// keys_added is a sum on merge; near UINT64_MAX it saturates, never wraps.
TEST_P(Limits, MergeSaturatesTheKeyCount) {
  auto image = serialize(filled_.get());
  core::store_le64(&image[64], UINT64_MAX - 3);
  fix_checksums(image);
  FilterPtr big;
  ASSERT_EQ(deserialize_checked(image, &big, "keys_added near max"), BLOOM_OK) << bloom_last_error();
  const bloom_status s = bloom_merge(big.get(), filled_.get());
  if (GetParam() == BLOOM_KIND_WINDOW) {
    // A window has no sound union (docs/kinds-window.md): refused, and the
    // refusal is what this kind is held to here.
    EXPECT_EQ(s, BLOOM_E_UNSUPPORTED) << bloom_last_error();
    return;
  }
  ASSERT_EQ(s, BLOOM_OK) << bloom_last_error();
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(big.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.keys_added, UINT64_MAX);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, Limits, ::testing::ValuesIn(kAllKinds),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return std::string(bloom_kind_name(info.param));
                         });

TEST(LimitsMath, OptimalParamsRefuseOversizedFilters) {
  uint64_t bits = 0;
  uint32_t hashes = 0;
  EXPECT_EQ(bloom_optimal_params(UINT64_MAX, 0.01, &bits, &hashes), BLOOM_E_OVERFLOW);
  EXPECT_EQ(bloom_optimal_params(uint64_t{1} << 40, 1e-300, &bits, &hashes), BLOOM_E_OVERFLOW);
  // Just inside: 2^30 keys at 1% need about 2^33.2 bits.
  ASSERT_EQ(bloom_optimal_params(uint64_t{1} << 30, 0.01, &bits, &hashes), BLOOM_OK);
  EXPECT_LE(bits, BLOOM_MAX_BITS);
  EXPECT_GT(bits, uint64_t{1} << 33);
}

}  // namespace
}  // namespace bloom::test
