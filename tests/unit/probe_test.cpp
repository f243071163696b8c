// SPDX-License-Identifier: Apache-2.0
// ProbeSequence, the k probe values of the classic, partitioned and counting
// kinds (src/probe.hpp, docs/FORMAT.md step 2). Pinned value by value: the
// two schemes' positions coincide for practically every key, so no
// filter-level test could tell a broken recurrence from a working one.
#include "probe.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace bloom::test {
namespace {

std::vector<uint64_t> first_values(core::Hash128 h, bool enhanced, int count, bool mixed = false) {
  core::ProbeSequence seq(h, enhanced, mixed);
  std::vector<uint64_t> out;
  for (int i = 0; i < count; ++i) out.push_back(seq.next());
  return out;
}

TEST(ProbeSequence, EnhancedAddsTheCubicTerm) {
  // h1 = h2 = 0 leaves only the extra term (i^3 - i) / 6.
  EXPECT_EQ(first_values({0, 0}, true, 8), (std::vector<uint64_t>{0, 0, 1, 4, 10, 20, 35, 56}));
  EXPECT_EQ(first_values({0, 0}, false, 8), std::vector<uint64_t>(8, 0));
}

TEST(ProbeSequence, ValuesAreH1PlusIH2PlusTheTermModulo2To64) {
  const core::Hash128 h{0xfedcba9876543210ull, 0x9e3779b97f4a7c15ull};
  const auto plain = first_values(h, false, 64);
  const auto enhanced = first_values(h, true, 64);
  for (uint64_t i = 0; i < 64; ++i) {
    const uint64_t base = h.h1 + i * h.h2;  // wraps, as the format says
    EXPECT_EQ(plain[i], base) << i;
    EXPECT_EQ(enhanced[i], base + (i * i * i - i) / 6) << i;
  }
}

// Format 1.2's mixing: (g xor g >> 32) times 0x9E3779B97F4A7C15, modulo 2^64,
// applied to each value of either scheme.
TEST(ProbeSequence, MixedValuesAreTheMixOfTheUnmixedOnes) {
  EXPECT_EQ(core::mix_probe(0), 0u);
  EXPECT_EQ(core::mix_probe(1), 0x9E3779B97F4A7C15ull);
  EXPECT_EQ(core::mix_probe(uint64_t{1} << 32), 0x9E3779B97F4A7C15ull * ((uint64_t{1} << 32) | 1));
  EXPECT_EQ(core::mix_probe(0xfedcba9876543210ull), 0xe6bb562044a51328ull);
  const core::Hash128 h{0xfedcba9876543210ull, 0x9e3779b97f4a7c15ull};
  for (bool enhanced : {false, true}) {
    const auto unmixed = first_values(h, enhanced, 64);
    const auto mixed = first_values(h, enhanced, 64, true);
    for (size_t i = 0; i < 64; ++i) EXPECT_EQ(mixed[i], core::mix_probe(unmixed[i])) << i;
    EXPECT_EQ(core::first_probe(h, true), mixed[0]);
    EXPECT_EQ(core::first_probe(h, false), unmixed[0]);
  }
}

// The reason for mixing: an h2 near 0 puts every unmixed probe of a key
// into one position of a small range; mixed, they spread.
TEST(ProbeSequence, MixingSpreadsTheProbesOfATinyStep) {
  const core::Hash128 h{0x0123456789abcdefull, 3};
  const uint64_t range = 28756;  // classic n = 1000, p = 1e-6
  std::vector<uint64_t> unmixed, mixed;
  for (uint64_t g : first_values(h, true, 20)) unmixed.push_back(core::reduce_range(g, range));
  for (uint64_t g : first_values(h, true, 20, true)) mixed.push_back(core::reduce_range(g, range));
  auto distinct = [](std::vector<uint64_t> v) {
    std::sort(v.begin(), v.end());
    return std::unique(v.begin(), v.end()) - v.begin();
  };
  EXPECT_EQ(distinct(unmixed), 1);
  EXPECT_EQ(distinct(mixed), 20);
}

}  // namespace
}  // namespace bloom::test
