// Every golden file in tests/golden/ still loads and answers as recorded, and
// the current library still builds the identical file from the same keys (so
// neither the format nor the bit pattern of a key can drift unnoticed).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

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
    EXPECT_EQ(serialize(f.get()), file) << "re-serializing changed the bytes";
  }

  FilterPtr rebuilt(golden::build(c));
  ASSERT_NE(rebuilt, nullptr) << bloom_last_error();
  EXPECT_EQ(serialize(rebuilt.get()), file) << "the same keys now give different bits";
}

INSTANTIATE_TEST_SUITE_P(AllCases, Golden, ::testing::ValuesIn(golden::kCases),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
}  // namespace bloom::test
