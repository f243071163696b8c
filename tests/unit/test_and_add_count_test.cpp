// SPDX-License-Identifier: Apache-2.0
// keys_added after bloom_test_and_add: what each kind counts (an occurrence,
// every call, or only new keys).
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace bloom::test {
namespace {

// A counting filter's test_and_add of a key that is already present still
// adds an occurrence (its counters go up, and one remove later leaves it in
// the filter), so keys_added -- adds minus removes for counting filters --
// must count it. It did not: after two test_and_adds and one remove the
// filter still held the key while keys_added said 0.
TEST(TestAndAddCount, CountingTestAndAddOfAPresentKeyCountsTheOccurrence) {
  for (uint32_t flags : {0u, BLOOM_FLAG_CONCURRENT}) {
    SCOPED_TRACE(flags);
    bloom_options o = classic_options(1000, 0.01);
    o.kind = BLOOM_KIND_COUNTING;
    o.flags = flags;
    FilterPtr f = make_filter(o);
    EXPECT_EQ(bloom_test_and_add(f.get(), "x", 1), 0);
    EXPECT_EQ(bloom_test_and_add(f.get(), "x", 1), 1);
    EXPECT_EQ(keys_added(f.get()), 2u);  // as two bloom_add calls would give
    ASSERT_EQ(bloom_remove(f.get(), "x", 1), BLOOM_OK);
    EXPECT_EQ(bloom_query(f.get(), "x", 1), 1);  // one occurrence is left...
    EXPECT_EQ(keys_added(f.get()), 1u);          // ...and counted
    ASSERT_EQ(bloom_remove(f.get(), "x", 1), BLOOM_OK);
    EXPECT_EQ(bloom_query(f.get(), "x", 1), 0);
    EXPECT_EQ(keys_added(f.get()), 0u);
  }
}

// docs/kinds-counting-scalable.md: for scalable filters "bloom_test_and_add is
// the same operation as bloom_add, and keys_added still counts every
// successful call". bloom_add of a duplicate counted, test_and_add did not.
TEST(TestAndAddCount, ScalableTestAndAddCountsLikeAdd) {
  bloom_options o = classic_options(100, 0.01);
  o.kind = BLOOM_KIND_SCALABLE;
  FilterPtr by_add = make_filter(o);
  FilterPtr by_test = make_filter(o);
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(bloom_add(by_add.get(), "dup", 3), BLOOM_OK);
    ASSERT_GE(bloom_test_and_add(by_test.get(), "dup", 3), 0);
  }
  EXPECT_EQ(keys_added(by_add.get()), 2u);
  EXPECT_EQ(keys_added(by_test.get()), keys_added(by_add.get()));
}

// The bit kinds keep their documented behaviour: a test_and_add that finds
// every bit set changes nothing and is not counted (concurrency_test relies
// on it: 4 threads x 20,000 equal keys give keys_added = 20,000).
TEST(TestAndAddCount, BitKindsCountOnlyNewKeys) {
  for (int kind : {BLOOM_KIND_CLASSIC, BLOOM_KIND_PARTITIONED, BLOOM_KIND_BLOCKED}) {
    SCOPED_TRACE(kind);
    bloom_options o = classic_options(1000, 0.01);
    o.kind = kind;
    FilterPtr f = make_filter(o);
    EXPECT_EQ(bloom_test_and_add(f.get(), "x", 1), 0);
    EXPECT_EQ(bloom_test_and_add(f.get(), "x", 1), 1);
    EXPECT_EQ(keys_added(f.get()), 1u);
  }
}

}  // namespace
}  // namespace bloom::test
