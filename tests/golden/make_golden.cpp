// SPDX-License-Identifier: Apache-2.0
// make_golden.cpp -- writes the golden files of golden_cases.hpp that do not
// exist yet. Existing files are never touched: they pin what older versions
// wrote. Run: bloom_make_golden tests/golden
#include <cstdio>
#include <fstream>
#include <string>

#include "golden_cases.hpp"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s GOLDEN_DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  for (const auto &c : bloom::golden::kCases) {
    const std::string base = dir + "/" + c.name;
    if (std::ifstream(base + ".bloom").good()) {
      std::printf("keep  %s.bloom\n", c.name);
      continue;
    }
    bloom_filter *f = bloom::golden::build(c);
    if (f == nullptr) {
      std::fprintf(stderr, "%s: %s\n", c.name, bloom_last_error());
      return 1;
    }
    if (bloom_save(f, (base + ".bloom").c_str()) != BLOOM_OK) {
      std::fprintf(stderr, "%s: %s\n", c.name, bloom_last_error());
      return 1;
    }
    std::ofstream answers(base + ".answers");
    for (uint64_t i = 0; i < bloom::golden::kProbeCount; ++i) {
      const std::string p = bloom::golden::probe(i);
      answers << (bloom_query(f, p.data(), p.size()) == 1 ? '1' : '0');
    }
    answers << '\n';
    bloom_destroy(f);
    std::printf("wrote %s.bloom\n", c.name);
  }
  return 0;
}
