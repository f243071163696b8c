// SPDX-License-Identifier: Apache-2.0
// Writes tests/golden/shape_digests.txt (the argument) from the library it
// is linked with: one line per shape of tests/unit/shape_digests.hpp. Run
// it only to record a deliberate change (shape_digests_test.cpp).
#include <cstdio>

#include "shape_digests.hpp"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.txt\n", argv[0]);
    return 2;
  }
  std::FILE *out = std::fopen(argv[1], "w");
  if (!out) {
    std::perror(argv[1]);
    return 1;
  }
  std::fprintf(
      out, "# One line per shape of tests/unit/shape_digests.hpp: written by bloom_make_shape_digests.\n");
  const auto shapes = bloom::test::shapes::all_shapes();
  for (size_t i = 0; i < shapes.size(); ++i)
    std::fprintf(out, "%s\t%s\n", bloom::test::shapes::describe(shapes[i]).c_str(),
                 bloom::test::shapes::run_shape(shapes[i], i).c_str());
  return std::fclose(out) == 0 ? 0 : 1;
}
