// SPDX-License-Identifier: Apache-2.0
// cpp_wrapper_window_test.cpp -- bloom.hpp's window kind: options, advance,
// test_and_add_batch, and the refusals as bloom::error.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "bloom/bloom.hpp"

namespace {

TEST(CppWrapperWindow, TimeWindowForgetsAfterItsTime) {
  using namespace std::chrono_literals;
  bloom::filter f(bloom::options().kind(bloom::kind::window).capacity(1000).fp_rate(0.01).window(10s));
  EXPECT_EQ(f.info().window_ms, 10000u);
  f.advance(1000ms);
  f.add(std::string_view("a"));
  f.advance(10999ms);  // 9.999 s later: inside the window
  EXPECT_TRUE(f.contains(std::string_view("a")));
  // Past the window it fades; once its k slices are cleared (T + k d) it is gone.
  f.advance(1000ms + 10s + std::chrono::milliseconds(f.info().window_k * f.info().generation_ms));
  EXPECT_FALSE(f.contains(std::string_view("a")));
}

TEST(CppWrapperWindow, TestAndAddBatchAndRefusals) {
  bloom::filter f(bloom::options().kind(bloom::kind::window).capacity(1000).fp_rate(0.001));
  const std::vector<std::string_view> keys = {"x", "y", "x", "z", "y"};
  const std::vector<uint8_t> seen = f.test_and_add_batch(keys);
  EXPECT_EQ(seen, (std::vector<uint8_t>{0, 0, 1, 0, 1}));
  try {
    f.advance(5);
    FAIL() << "a count window has no clock";
  } catch (const bloom::error &e) {
    EXPECT_EQ(e.status(), BLOOM_E_UNSUPPORTED);
  }
  bloom::filter g = f.clone();
  EXPECT_THROW(f |= g, bloom::error);
}

}  // namespace
