// SPDX-License-Identifier: Apache-2.0
// deserialize_fuzzer.cpp -- raw bytes into bloom_deserialize. Whatever the
// bytes, the load must be refused cleanly or yield a filter that re-
// serializes to exactly those bytes (fuzz_util.hpp: load_checked).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::vector<unsigned char> input(data, data + size);
  bloom_filter *f = bloom::fuzz::load_checked(input);
  if (f != nullptr) {
    // Query with slices of the input itself as keys.
    for (size_t len = 0; len <= size && len < 32; ++len) {
      const int r = bloom_query(f, data, len);
      FUZZ_CHECK(r == 0 || r == 1, "query returned %d", r);
    }
    bloom_destroy(f);
  }
  return 0;
}
