// SPDX-License-Identifier: Apache-2.0
// bloom_kind_caps tells the truth: for every kind the library lists, each
// capability bit is set exactly when the operation it names succeeds, so
// consumers that decide by capability never offer what the library refuses.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "bloom/bloom.h"

namespace {

constexpr uint64_t kCapacity = 1000;

bloom_filter *make(int kind, uint32_t flags = 0, int hash = BLOOM_HASH_XXH3) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.capacity = kCapacity;
  o.fp_rate = 0.01;
  o.flags = flags;
  o.hash = hash;
  bloom_filter *f = nullptr;
  return bloom_create(&o, &f) == BLOOM_OK ? f : nullptr;
}

std::string key(uint64_t i) { return "key-" + std::to_string(i); }

void add_keys(bloom_filter *f, uint64_t from, uint64_t to) {
  for (uint64_t i = from; i < to; ++i) ASSERT_EQ(bloom_add(f, key(i).data(), key(i).size()), BLOOM_OK);
}

class KindCaps : public ::testing::TestWithParam<int> {
 protected:
  int kind() const { return GetParam(); }
  bool has(unsigned cap) const { return (bloom_kind_caps(kind()) & cap) != 0; }
};

std::vector<int> listed_kinds() {
  std::vector<int> out;
  for (int i = 0; i < bloom_kind_count(); ++i) out.push_back(bloom_kind_at(i));
  return out;
}

TEST(KindList, CoversEveryNamedKindInOrder) {
  const std::vector<int> kinds = listed_kinds();
  ASSERT_GE(kinds.size(), 6u);
  for (size_t i = 1; i < kinds.size(); ++i) EXPECT_LT(kinds[i - 1], kinds[i]);
  for (int k : kinds) {
    ASSERT_NE(bloom_kind_name(k), nullptr) << k;
    EXPECT_EQ(bloom_kind_from_name(bloom_kind_name(k)), k);
    EXPECT_NE(bloom_kind_caps(k), 0u) << bloom_kind_name(k);
  }
  // Every number with a name is listed; nothing past the list has a name.
  const std::set<int> listed(kinds.begin(), kinds.end());
  for (int k = -2; k < 64; ++k) EXPECT_EQ(bloom_kind_name(k) != nullptr, listed.count(k) == 1) << k;
  EXPECT_EQ(bloom_kind_at(-1), 0);
  EXPECT_EQ(bloom_kind_at(bloom_kind_count()), 0);
  EXPECT_EQ(bloom_kind_caps(0), 0u);
  EXPECT_EQ(bloom_kind_caps(1000), 0u);
}

TEST_P(KindCaps, MergeAndIntersectSucceedExactlyWhenAdvertised) {
  bloom_filter *a = make(kind());
  bloom_filter *b = make(kind());
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  add_keys(a, 0, 10);
  add_keys(b, 10, 20);
  const int merged = bloom_merge(a, b);
  EXPECT_EQ(merged == BLOOM_OK, has(BLOOM_CAP_MERGE)) << bloom_last_error();
  if (merged != BLOOM_OK) {
    EXPECT_EQ(merged, BLOOM_E_UNSUPPORTED);
  } else {
    for (uint64_t i = 0; i < 20; ++i) EXPECT_EQ(bloom_query(a, key(i).data(), key(i).size()), 1);
  }
  const int intersected = bloom_intersect(a, b);
  EXPECT_EQ(intersected == BLOOM_OK, has(BLOOM_CAP_INTERSECT)) << bloom_last_error();
  if (intersected != BLOOM_OK) {
    EXPECT_EQ(intersected, BLOOM_E_UNSUPPORTED);
  }
  bloom_destroy(a);
  bloom_destroy(b);
}

TEST_P(KindCaps, RemoveSucceedsExactlyWhenAdvertised) {
  bloom_filter *f = make(kind());
  ASSERT_NE(f, nullptr);
  add_keys(f, 0, 1);
  const int removed = bloom_remove(f, key(0).data(), key(0).size());
  EXPECT_EQ(removed == BLOOM_OK, has(BLOOM_CAP_REMOVE)) << bloom_last_error();
  bloom_destroy(f);
}

TEST_P(KindCaps, OptionsAreTakenExactlyWhenAdvertised) {
  bloom_filter *f = make(kind(), BLOOM_FLAG_CONCURRENT);
  EXPECT_EQ(f != nullptr, has(BLOOM_CAP_CONCURRENT)) << bloom_last_error();
  bloom_destroy(f);
  f = make(kind(), BLOOM_FLAG_SPLIT_BLOCK);
  EXPECT_EQ(f != nullptr, has(BLOOM_CAP_SPLIT_BLOCK)) << bloom_last_error();
  bloom_destroy(f);
  f = make(kind(), 0, BLOOM_HASH_REDISBLOOM);
  EXPECT_EQ(f != nullptr, has(BLOOM_CAP_REDISBLOOM_HASH)) << bloom_last_error();
  bloom_destroy(f);
}

// Past capacity a growing kind adds capacity; the others keep theirs.
TEST_P(KindCaps, GrowsExactlyWhenAdvertised) {
  bloom_filter *f = make(kind());
  ASSERT_NE(f, nullptr);
  bloom_info before{};
  before.struct_size = sizeof before;
  ASSERT_EQ(bloom_get_info(f, &before), BLOOM_OK);
  add_keys(f, 0, 4 * kCapacity);
  bloom_info after{};
  after.struct_size = sizeof after;
  ASSERT_EQ(bloom_get_info(f, &after), BLOOM_OK);
  EXPECT_EQ(after.capacity > before.capacity, has(BLOOM_CAP_GROWS));
  bloom_destroy(f);
}

// After ten windows' worth of later keys, a forgetting kind no longer holds
// the first keys (each could linger only as a ~1 % false positive); every
// other kind keeps them all (no false negatives).
TEST_P(KindCaps, ForgetsExactlyWhenAdvertised) {
  bloom_filter *f = make(kind());
  ASSERT_NE(f, nullptr);
  add_keys(f, 0, 100);
  add_keys(f, 1000, 1000 + 10 * kCapacity);
  int still_present = 0;
  for (uint64_t i = 0; i < 100; ++i) still_present += bloom_query(f, key(i).data(), key(i).size());
  if (has(BLOOM_CAP_FORGETS)) {
    EXPECT_LT(still_present, 20);
  } else {
    EXPECT_EQ(still_present, 100);
  }
  bloom_destroy(f);
}

std::string kind_name(const ::testing::TestParamInfo<int> &info) { return bloom_kind_name(info.param); }

INSTANTIATE_TEST_SUITE_P(EveryKind, KindCaps, ::testing::ValuesIn(listed_kinds()), kind_name);

}  // namespace
