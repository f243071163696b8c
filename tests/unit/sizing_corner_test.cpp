// SPDX-License-Identifier: Apache-2.0
// Corner cases of the sizing math (src/sizing.cpp): the smallest filters.
#include <gtest/gtest.h>

#include <cmath>

#include "bloom/bloom.h"
#include "sizing.hpp"

namespace bloom::test {
namespace {

// bloom.h: bloom_expected_fp_rate is NaN only when bits or hashes is 0. With
// m = 1 the (1 - 1/m)^(kn) term is 0^(kn); evaluated as exp(kn * log1p(-1))
// it became exp(0 * -inf) = NaN for an empty filter, whose rate is 0.
TEST(SizingCorner, EmptyOneBitFilterHasRateZeroNotNaN) {
  EXPECT_EQ(bloom_expected_fp_rate(0, 1, 1), 0.0);
  EXPECT_EQ(bloom_expected_fp_rate(0, 1, 7), 0.0);
  EXPECT_EQ(core::classic_fp_rate(0.0, 1, 3), 0.0);
  // Any key sets the only bit: every query is a false positive.
  EXPECT_EQ(bloom_expected_fp_rate(1, 1, 1), 1.0);
  EXPECT_EQ(bloom_expected_fp_rate(5, 1, 3), 1.0);
  // And the ordinary cases are unchanged: empty filters never answer yes.
  EXPECT_EQ(bloom_expected_fp_rate(0, 1000, 7), 0.0);
  EXPECT_TRUE(std::isnan(bloom_expected_fp_rate(0, 0, 7)));
}

}  // namespace
}  // namespace bloom::test
