// ProbeSequence, the k probe values of the classic, partitioned and counting
// kinds (src/probe.hpp, docs/FORMAT.md step 2). Pinned value by value: the
// two schemes' positions coincide for practically every key, so no
// filter-level test could tell a broken recurrence from a working one.
#include "probe.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace bloom::test {
namespace {

std::vector<uint64_t> first_values(core::Hash128 h, bool enhanced, int count) {
  core::ProbeSequence seq(h, enhanced);
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

}  // namespace
}  // namespace bloom::test
