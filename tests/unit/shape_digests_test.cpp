// SPDX-License-Identifier: Apache-2.0
// Behaviour unchanged, shape by shape: for every shape of shape_digests.hpp
// (> 5,000 of them, through the C API) the create status, info, serialized
// bytes, answers and set operations must digest to the line recorded in
// tests/golden/shape_digests.txt from the library before the kind table
// (issue 20). A change that moves one bit of one image fails here, naming
// the shape. Regenerate the file (bloom_make_shape_digests) only for a
// deliberate change of answers or format, and say so in the commit.
#include "shape_digests.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#ifndef BLOOM_TEST_GOLDEN_DIR
#error "BLOOM_TEST_GOLDEN_DIR must name tests/golden"
#endif

namespace bloom::test {
namespace {

TEST(ShapeDigests, EveryShapeAnswersAsRecorded) {
  const auto shapes = shapes::all_shapes();
  ASSERT_GE(shapes.size(), 5000u);
  std::ifstream in(std::string(BLOOM_TEST_GOLDEN_DIR) + "/shape_digests.txt");
  ASSERT_TRUE(in) << "tests/golden/shape_digests.txt is missing";
  std::string line;
  size_t index = 0, differ = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    ASSERT_LT(index, shapes.size()) << "the file has more lines than there are shapes";
    const std::string expected = line;
    const std::string actual =
        shapes::describe(shapes[index]) + "\t" + shapes::run_shape(shapes[index], index);
    if (actual != expected && ++differ <= 10)
      ADD_FAILURE() << "shape " << index << "\n  recorded: " << expected << "\n  now:      " << actual;
    ++index;
  }
  EXPECT_EQ(index, shapes.size()) << "the file has fewer lines than there are shapes";
  EXPECT_EQ(differ, 0u) << differ << " of " << shapes.size() << " shapes differ";
}

}  // namespace
}  // namespace bloom::test
