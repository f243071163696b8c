// SPDX-License-Identifier: Apache-2.0
// popcount_test.cpp -- popcount_words counts what a bit-by-bit count does,
// at every length around the word and line sizes the filters use.
#include "popcount.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace bloom::test {
namespace {

uint64_t count_bit_by_bit(const std::vector<uint64_t> &w, size_t n) {
  uint64_t set = 0;
  for (size_t i = 0; i < n; ++i)
    for (unsigned b = 0; b < 64; ++b) set += (w[i] >> b) & 1;
  return set;
}

TEST(PopcountWords, CountsEveryBitAtEveryLength) {
  std::mt19937_64 rng(42);
  std::vector<uint64_t> w(130);
  for (auto &x : w) x = rng();
  w[3] = 0;
  w[4] = ~uint64_t{0};
  for (size_t n = 0; n <= w.size(); ++n)
    EXPECT_EQ(core::popcount_words(w.data(), n), count_bit_by_bit(w, n)) << n;
}

TEST(PopcountWords, AllOnesAndAllZeros) {
  const std::vector<uint64_t> ones(1000, ~uint64_t{0}), zeros(1000, 0);
  EXPECT_EQ(core::popcount_words(ones.data(), ones.size()), 64000u);
  EXPECT_EQ(core::popcount_words(zeros.data(), zeros.size()), 0u);
}

}  // namespace
}  // namespace bloom::test
