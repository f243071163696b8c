// SPDX-License-Identifier: Apache-2.0
// test_util.hpp -- small helpers shared by the unit tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bloom/bloom.h"

namespace bloom::test {

// bloom_map reads the arrays in place, which only a little-endian host can
// do (docs/FORMAT.md); a big-endian one refuses with BLOOM_E_UNSUPPORTED
// (the s390x CI step). A test of what a mapping does checks that refusal
// there and stops, reported as skipped with the reason.
inline bool host_is_little_endian() {
  const uint16_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  return first == 1;
}
#define BLOOM_MAP_OR_SKIP(path, out)                           \
  do {                                                         \
    const bloom_status map_status_ = bloom_map((path), (out)); \
    if (!::bloom::test::host_is_little_endian()) {             \
      EXPECT_EQ(map_status_, BLOOM_E_UNSUPPORTED);             \
      GTEST_SKIP() << "bloom_map needs a little-endian host";  \
    }                                                          \
    ASSERT_EQ(map_status_, BLOOM_OK) << bloom_last_error();    \
  } while (0)

struct FilterDeleter {
  void operator()(bloom_filter *f) const { bloom_destroy(f); }
};
using FilterPtr = std::unique_ptr<bloom_filter, FilterDeleter>;

inline FilterPtr make_filter(const bloom_options &o) {
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_create(&o, &f);
  EXPECT_EQ(s, BLOOM_OK) << bloom_last_error();
  return FilterPtr(f);
}

inline bloom_options classic_options(uint64_t n, double p) {
  bloom_options o;
  bloom_options_init(&o);
  o.capacity = n;
  o.fp_rate = p;
  return o;
}

// A small filter of the given kind and hasher, defaults otherwise: for
// tests that walk every kind and hasher.
inline bloom_options kind_hash_options(int kind, int hash) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.capacity = 1000;
  o.hash = hash;
  return o;
}

// Distinct keys: "<prefix><i>". Different prefixes give disjoint sets.
inline std::vector<std::string> make_keys(const std::string &prefix, size_t n) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (size_t i = 0; i < n; ++i) keys.push_back(prefix + std::to_string(i));
  return keys;
}

inline void add_all(bloom_filter *f, const std::vector<std::string> &keys) {
  for (const std::string &k : keys) ASSERT_EQ(bloom_add(f, k.data(), k.size()), BLOOM_OK);
}

// The pointer and length arrays the batch calls take, pointing into keys
// (which must outlive them).
struct KeyArrays {
  std::vector<const void *> ptrs;
  std::vector<size_t> lens;
};

inline KeyArrays key_arrays(const std::vector<std::string> &keys) {
  KeyArrays a;
  a.ptrs.reserve(keys.size());
  a.lens.reserve(keys.size());
  for (const std::string &k : keys) {
    a.ptrs.push_back(k.data());
    a.lens.push_back(k.size());
  }
  return a;
}

inline bloom_status add_all_batch(bloom_filter *f, const std::vector<std::string> &keys) {
  const KeyArrays a = key_arrays(keys);
  return bloom_add_batch(f, a.ptrs.data(), a.lens.data(), keys.size());
}

inline size_t count_positive(const bloom_filter *f, const std::vector<std::string> &keys) {
  size_t n = 0;
  for (const std::string &k : keys) n += bloom_query(f, k.data(), k.size()) == 1 ? 1 : 0;
  return n;
}

inline std::vector<unsigned char> serialize(const bloom_filter *f) {
  size_t size = 0;
  EXPECT_EQ(bloom_serialized_size(f, &size), BLOOM_OK);
  std::vector<unsigned char> buf(size);
  size_t written = 0;
  EXPECT_EQ(bloom_serialize(f, buf.data(), buf.size(), &written), BLOOM_OK) << bloom_last_error();
  EXPECT_EQ(written, size);
  return buf;
}

// bloom_info.keys_added of f.
inline uint64_t keys_added(const bloom_filter *f) {
  bloom_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(bloom_get_info(f, &info), BLOOM_OK);
  return info.keys_added;
}

// A fresh path under the test's temporary directory.
inline std::string temp_path(const std::string &name) {
  return ::testing::TempDir() + "bloom_test_" + std::to_string(::getpid()) + "_" + name;
}

}  // namespace bloom::test
