// SPDX-License-Identifier: Apache-2.0
// import_fuzz.hpp -- the body of the import fuzz targets (one per format,
// import_<format>_fuzzer.cpp): raw bytes into bloom_import. Whatever the
// bytes, the import must be refused with a refusal status and a message,
// allocating no more than the input holds, or yield a filter that exports
// to exactly those bytes, answers alike after a bloom image round trip, and
// still exports, at the size of its first export, after an add. Parquet's
// Thrift header has many encodings of one value (skipped unknown fields,
// stop bytes with a field delta, long varints) and the export writes the
// one Parquet writers write, so there only the bitset must come back as it
// was, and an export may be shorter or longer than the input.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_util.hpp"

namespace bloom::fuzz {

inline std::vector<unsigned char> exported(const bloom_filter *f, int format) {
  size_t size = 0;
  FUZZ_CHECK(bloom_export_size(f, format, &size) == BLOOM_OK, "export size of an imported filter");
  std::vector<unsigned char> out(size);
  size_t written = 0;
  FUZZ_CHECK(bloom_export(f, format, out.data(), out.size(), &written) == BLOOM_OK && written == size,
             "export of an imported filter");
  return out;
}

// A whole .parquet file's footer (bloom_import_parquet_column): refused
// with a refusal or argument status, or a filter that exports.
inline void import_parquet_file(const std::vector<unsigned char> &input) {
  core::reset_allocation_stats();
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_import_parquet_column(input.data(), input.size(), "String", 0, &f);
  FUZZ_CHECK(core::allocation_stats().array_bytes <= input.size(), "allocated more than the file holds");
  if (s != BLOOM_OK) {
    FUZZ_CHECK(f == nullptr, "failed import left a handle");
    FUZZ_CHECK(test::is_refusal_status(s) || s == BLOOM_E_INVALID_ARG, "unexpected status %d", s);
    return;
  }
  (void)exported(f, BLOOM_FORMAT_PARQUET);
  bloom_destroy(f);
}

inline int import_one(int format, const uint8_t *data, size_t size) {
  const std::vector<unsigned char> input(data, data + size);
  if (format == BLOOM_FORMAT_PARQUET) import_parquet_file(input);
  core::reset_allocation_stats();
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_import(format, input.data(), input.size(), &f);
  if (!loaded_within_bounds(s, f, input.size())) return 0;
  const std::vector<unsigned char> out = exported(f, format);
  if (format == BLOOM_FORMAT_PARQUET) {
    bloom_info info;
    info.struct_size = sizeof info;
    FUZZ_CHECK(bloom_get_info(f, &info) == BLOOM_OK, "get_info");
    const size_t bitset = static_cast<size_t>(info.bits / 8);
    FUZZ_CHECK(bitset <= input.size() && bitset <= out.size() &&
                   std::equal(out.end() - static_cast<long>(bitset), out.end(),
                              input.end() - static_cast<long>(bitset)),
               "accepted bitset exports differently");
  } else {
    FUZZ_CHECK(out == input, "accepted input exports differently");
  }
  const std::vector<unsigned char> image = serialize(f);
  bloom_filter *copy = nullptr;
  FUZZ_CHECK(bloom_deserialize(image.data(), image.size(), &copy) == BLOOM_OK,
             "reload of an imported filter");
  FUZZ_CHECK(answers(copy, 64) == answers(f, 64), "reloaded copy answers differently");
  bloom_destroy(copy);
  for (size_t len = 0; len <= size && len < 16; ++len) {
    FUZZ_CHECK(bloom_add(f, data, len) == BLOOM_OK, "add to an imported filter");
    FUZZ_CHECK(bloom_query(f, data, len) == 1, "false negative after an add");
  }
  FUZZ_CHECK(exported(f, format).size() == out.size(), "export size changed by adds");
  bloom_destroy(f);
  return 0;
}

}  // namespace bloom::fuzz
