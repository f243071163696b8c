// SPDX-License-Identifier: Apache-2.0
// CounterArray: packing, sticky saturation, counting of non-zero counters,
// saturating sums and minima, and the CAS paths.
#include "kinds/counter_array.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace bloom::core {
namespace {

TEST(CounterArray, PacksLittleEndianNibblesAndBytes) {
  CounterArray four(5, 4);
  EXPECT_EQ(four.word_count(), 1u);
  four.increment(0);
  for (int i = 0; i < 3; ++i) four.increment(1);
  four.increment(4);
  // Counter 0 is the low nibble of byte 0, counter 1 the high nibble.
  EXPECT_EQ(four.storage().words()[0], 0x10031u);
  CounterArray eight(9, 8);
  EXPECT_EQ(eight.word_count(), 2u);
  eight.increment(8);
  eight.increment(1);
  EXPECT_EQ(eight.storage().words()[0], 0x100u);
  EXPECT_EQ(eight.storage().words()[1], 0x1u);
}

TEST(CounterArray, SaturationIsSticky) {
  for (uint32_t width : {4u, 8u}) {
    CounterArray c(3, width);
    const uint32_t max = c.max_value();
    for (uint32_t i = 0; i < max + 10; ++i) c.increment(1);
    EXPECT_EQ(c.get(1), max);
    EXPECT_EQ(c.get(0), 0u) << "a carry leaked into a neighbour";
    EXPECT_EQ(c.get(2), 0u) << "a carry leaked into a neighbour";
    for (uint32_t i = 0; i < max + 10; ++i) c.decrement(1);
    EXPECT_EQ(c.get(1), max);
    c.decrement(0);  // never below zero
    EXPECT_EQ(c.get(0), 0u);
    EXPECT_EQ(c.increment_atomic(1), max);
    EXPECT_EQ(c.decrement_atomic(1), max);
    EXPECT_EQ(c.get(1), max);
  }
}

TEST(CounterArray, CountsNonZeroCountersAndKeepsPaddingClear) {
  for (uint32_t width : {4u, 8u}) {
    CounterArray c(1001, width);
    uint64_t expected = 0;
    for (uint64_t i = 0; i < 1001; i += 7) {
      for (uint64_t r = 0; r <= i % 20; ++r) c.increment(i);  // values 1..15/20, some saturated
      ++expected;
    }
    EXPECT_EQ(c.nonzero_count(), expected);
    EXPECT_TRUE(c.padding_is_clear());
  }
}

TEST(CounterArray, SaturatingSumAndMinimum) {
  CounterArray a(4, 4), b(4, 4);
  for (int i = 0; i < 10; ++i) a.increment(0);
  for (int i = 0; i < 10; ++i) b.increment(0);
  a.increment(1);
  for (int i = 0; i < 3; ++i) b.increment(1);
  b.increment(3);
  CounterArray sum = a.copy();
  sum.add_saturating(b);
  EXPECT_EQ(sum.get(0), 15u);
  EXPECT_EQ(sum.get(1), 4u);
  EXPECT_EQ(sum.get(2), 0u);
  EXPECT_EQ(sum.get(3), 1u);
  a.min_with(b);
  EXPECT_EQ(a.get(0), 10u);
  EXPECT_EQ(a.get(1), 1u);
  EXPECT_EQ(a.get(3), 0u);
  sum.add_saturating(sum);  // with itself
  EXPECT_EQ(sum.get(1), 8u);
}

TEST(CounterArray, ConcurrentIncrementsOfOneWordAreNotLost) {
  // 16 four-bit counters share one word; 4 threads hit all of them.
  CounterArray c(16, 4);
  std::vector<std::thread> pool;
  for (int t = 0; t < 4; ++t)
    pool.emplace_back([&c, t] {
      for (uint64_t i = 0; i < 16; ++i)
        if ((i + t) % 4 != 0) c.increment_atomic(i);  // three of four threads per counter
    });
  for (auto &th : pool) th.join();
  for (uint64_t i = 0; i < 16; ++i) EXPECT_EQ(c.get(i), 3u) << i;
}

}  // namespace
}  // namespace bloom::core
