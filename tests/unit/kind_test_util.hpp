// SPDX-License-Identifier: Apache-2.0
// kind_test_util.hpp -- helpers for the counting and scalable kind tests:
// binomial FPR bands, images with repaired checksums, parallel runs.
#pragma once

#include <cmath>
#include <thread>
#include <vector>

#include "byte_order.hpp"
#include "format/header.hpp"
#include "test_util.hpp"

namespace bloom::test {

inline bloom_info info_of(const bloom_filter *f) {
  bloom_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(bloom_get_info(f, &info), BLOOM_OK) << bloom_last_error();
  return info;
}

// Measured false positives over q absent keys with rate p are
// Binomial(q, p): sigma = sqrt(q p (1 - p)). 4 sigma makes a spurious
// failure a 1-in-15,000 event; at q = 400,000 and p = 0.01 it is +-6.3%.
inline double sigma(double q, double p) { return std::sqrt(q * p * (1 - p)); }

// Recomputes the header and payload checksums of a format-v1 image after a
// test edited it, so the loader reaches the check the test is aiming at.
inline void reseal(std::vector<unsigned char> &image) {
  core::store_le64(&image[120], core::checksum64(image.data(), 120));
  core::store_le64(&image[image.size() - 8], core::checksum64(&image[128], image.size() - 136));
}

inline bloom_status deserialize_status(const std::vector<unsigned char> &image) {
  bloom_filter *g = nullptr;
  const bloom_status s = bloom_deserialize(image.data(), image.size(), &g);
  bloom_destroy(g);
  return s;
}

inline FilterPtr deserialize_ok(const std::vector<unsigned char> &image) {
  bloom_filter *g = nullptr;
  EXPECT_EQ(bloom_deserialize(image.data(), image.size(), &g), BLOOM_OK) << bloom_last_error();
  return FilterPtr(g);
}

// Runs body(t) on `threads` threads at once.
template <typename Body>
void run_threads(int threads, Body body) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(body, t);
  for (auto &th : pool) th.join();
}

// Every probe answers the same in a and b.
inline void expect_same_answers(const bloom_filter *a, const bloom_filter *b,
                                const std::vector<std::string> &probes) {
  size_t differ = 0;
  for (const auto &k : probes)
    differ += bloom_query(a, k.data(), k.size()) != bloom_query(b, k.data(), k.size()) ? 1 : 0;
  EXPECT_EQ(differ, 0u);
}

}  // namespace bloom::test
