// SPDX-License-Identifier: Apache-2.0
// Every golden file in tests/golden/ still loads and answers as recorded, and
// the current library still builds the identical file from the same keys (so
// neither the format nor the bit pattern of a key can drift unnoticed).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../golden/golden_cases.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

std::vector<unsigned char> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class Golden : public ::testing::TestWithParam<golden::Case> {};

TEST_P(Golden, LoadsAndAnswersAsRecorded) {
  const golden::Case &c = GetParam();
  const std::string base = std::string(BLOOM_TEST_GOLDEN_DIR) + "/" + c.name;
  const auto file = read_file(base + ".bloom");
  ASSERT_FALSE(file.empty()) << base << ".bloom is missing: run bloom_make_golden tests/golden";
  std::ifstream answers_in(base + ".answers");
  std::string answers;
  std::getline(answers_in, answers);
  ASSERT_EQ(answers.size(), golden::kProbeCount);

  for (bool mapped : {false, true}) {
    bloom_filter *raw = nullptr;
    const std::string path = base + ".bloom";
    ASSERT_EQ(mapped ? bloom_map(path.c_str(), &raw) : bloom_load(path.c_str(), &raw), BLOOM_OK)
        << bloom_last_error();
    FilterPtr f(raw);
    for (uint64_t i = 0; i < c.keys; ++i) {
      const std::string k = golden::key(i);
      ASSERT_EQ(bloom_query(f.get(), k.data(), k.size()), 1) << k;
    }
    for (uint64_t i = 0; i < golden::kProbeCount; ++i) {
      const std::string p = golden::probe(i);
      ASSERT_EQ(bloom_query(f.get(), p.data(), p.size()), answers[i] - '0') << p;
    }
    // The batch path (a different kernel entry for blocked filters) too.
    std::vector<std::string> all;
    for (uint64_t i = 0; i < c.keys; ++i) all.push_back(golden::key(i));
    for (uint64_t i = 0; i < golden::kProbeCount; ++i) all.push_back(golden::probe(i));
    const KeyArrays a = key_arrays(all);
    std::vector<uint8_t> got(all.size(), 2);
    ASSERT_EQ(bloom_query_batch(f.get(), a.ptrs.data(), a.lens.data(), all.size(), got.data()), BLOOM_OK);
    for (uint64_t i = 0; i < all.size(); ++i)
      ASSERT_EQ(got[i], i < c.keys ? 1 : answers[i - c.keys] - '0') << "batch: " << all[i];
    EXPECT_EQ(serialize(f.get()), file) << "re-serializing changed the bytes";
  }
  if (!c.sized_as_now) return;  // loads and answers as recorded; its m is no longer what create picks

  if (c.built_by_create) {
    FilterPtr rebuilt(golden::build(c));
    ASSERT_NE(rebuilt, nullptr) << bloom_last_error();
    EXPECT_EQ(serialize(rebuilt.get()), file) << "the same keys now give different bits";
    return;
  }
  // An older layout: clear the loaded filter and add the keys again.
  bloom_filter *raw = nullptr;
  ASSERT_EQ(bloom_load((base + ".bloom").c_str(), &raw), BLOOM_OK) << bloom_last_error();
  FilterPtr f(raw);
  ASSERT_EQ(bloom_clear(f.get()), BLOOM_OK);
  for (uint64_t i = 0; i < c.keys; ++i) {
    const std::string k = golden::key(i);
    ASSERT_EQ(bloom_add(f.get(), k.data(), k.size()), BLOOM_OK);
  }
  EXPECT_EQ(serialize(f.get()), file) << "the same keys now give different bits in the loaded layout";
  // Batch adds in the loaded layout set the same bits.
  ASSERT_EQ(bloom_clear(f.get()), BLOOM_OK);
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < c.keys; ++i) keys.push_back(golden::key(i));
  ASSERT_EQ(add_all_batch(f.get(), keys), BLOOM_OK);
  EXPECT_EQ(serialize(f.get()), file) << "batch adds give different bits in the loaded layout";
}

// An old golden file and the filter the current library builds for a newer
// case of the same shape put keys on different bits, so merging or
// intersecting them (either way) must be refused with `reason` (the result
// would lose keys of one of them).
void expect_old_and_new_refuse_to_merge(const std::string &old_file, const std::string &new_case,
                                        const std::string &reason) {
  const std::string path = std::string(BLOOM_TEST_GOLDEN_DIR) + "/" + old_file;
  bloom_filter *raw = nullptr;
  ASSERT_EQ(bloom_load(path.c_str(), &raw), BLOOM_OK) << bloom_last_error();
  FilterPtr old_filter(raw);
  const golden::Case *c = nullptr;
  for (const golden::Case &candidate : golden::kCases)
    if (candidate.name == new_case) c = &candidate;
  ASSERT_NE(c, nullptr) << new_case;
  FilterPtr fresh(golden::build(*c));
  ASSERT_NE(fresh, nullptr) << bloom_last_error();
  EXPECT_EQ(bloom_merge(fresh.get(), old_filter.get()), BLOOM_E_INCOMPATIBLE);
  EXPECT_NE(std::string(bloom_last_error()).find(reason), std::string::npos) << bloom_last_error();
  EXPECT_EQ(bloom_merge(old_filter.get(), fresh.get()), BLOOM_E_INCOMPATIBLE);
  EXPECT_EQ(bloom_intersect(old_filter.get(), fresh.get()), BLOOM_E_INCOMPATIBLE);
}

// Format 1.0 blocked XXH3 (layout 1) vs a new one (layout 2).
TEST(GoldenLayouts, OldAndNewBlockedXxh3FiltersRefuseToMerge) {
  expect_old_and_new_refuse_to_merge("blocked_xxh3_v1.bloom", "blocked_xxh3_v1_1", "blocked layout differs");
}

// Format 1.0 classic (unmixed probes) vs a new one of the same shape (mixed
// probes, format 1.2).
TEST(GoldenLayouts, UnmixedAndMixedClassicFiltersRefuseToMerge) {
  expect_old_and_new_refuse_to_merge("classic_xxh3_v1.bloom", "classic_xxh3_v1_2", "probe positions differ");
}

INSTANTIATE_TEST_SUITE_P(AllCases, Golden, ::testing::ValuesIn(golden::kCases),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
}  // namespace bloom::test
