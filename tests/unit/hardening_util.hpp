// SPDX-License-Identifier: Apache-2.0
// hardening_util.hpp -- helpers for the hostile-input, fault-injection and
// mapping tests (issue 7).
//
// Every test here is written over "every kind this build supports": it
// iterates kinds 1..6 and skips, visibly, only a kind whose bloom_create
// returns BLOOM_E_UNSUPPORTED. So a kind added later is covered without an
// edit here.
#pragma once

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bloom/bloom.h"
#include "byte_order.hpp"
#include "format/header.hpp"
#include "image_tools.hpp"
#include "memory.hpp"
#include "test_util.hpp"

namespace bloom::test {

inline constexpr int kAllKinds[] = {BLOOM_KIND_CLASSIC,  BLOOM_KIND_PARTITIONED, BLOOM_KIND_BLOCKED,
                                    BLOOM_KIND_COUNTING, BLOOM_KIND_SCALABLE,    BLOOM_KIND_WINDOW};
inline constexpr int kAllHashes[] = {BLOOM_HASH_XXH3, BLOOM_HASH_MURMUR3, BLOOM_HASH_FNV1A};

// Small filters: capacity 64 with 200 keys, so a scalable filter has grown
// to three or more stages and every payload is a few hundred bytes (every
// truncation and every bit flip stays cheap). A window remembers 500
// insertions (these tests add up to 400 and expect every one present): 34
// slices of 320 bits, its ring turned 19 times by the 200 keys.
inline constexpr uint64_t kSmallCapacity = 64;
inline constexpr uint64_t kSmallWindow = 500;
inline constexpr size_t kSmallKeys = 200;
inline constexpr size_t kProbes = 1000;

inline bloom_options small_options(int kind, int hash) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.hash = hash;
  o.seed = 0x5eed;
  o.capacity = kind == BLOOM_KIND_WINDOW ? kSmallWindow : kSmallCapacity;
  o.fp_rate = 0.01;
  return o;
}

inline const std::vector<std::string> &small_keys() {
  static const std::vector<std::string> keys = make_keys("hostile-key-", kSmallKeys);
  return keys;
}

inline const std::vector<std::string> &probe_keys() {
  static const std::vector<std::string> keys = make_keys("hostile-probe-", kProbes);
  return keys;
}

// Creates a filter of this kind and hash holding small_keys(). Returns the
// create status; BLOOM_E_UNSUPPORTED means the build lacks the kind.
inline bloom_status make_small_filled(int kind, int hash, FilterPtr *out) {
  const bloom_options o = small_options(kind, hash);
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_create(&o, &f);
  if (s != BLOOM_OK) return s;
  out->reset(f);
  for (const std::string &k : small_keys()) {
    const bloom_status a = bloom_add(f, k.data(), k.size());
    if (a != BLOOM_OK) return a;
  }
  return BLOOM_OK;
}

// Skips the test (with the reason shown) when the build lacks the kind;
// fails it on any other create error.
#define BLOOM_MAKE_OR_SKIP(kind, hash, ptr)                                                          \
  do {                                                                                               \
    const bloom_status bloom_make_status_ = ::bloom::test::make_small_filled((kind), (hash), (ptr)); \
    if (bloom_make_status_ == BLOOM_E_UNSUPPORTED)                                                   \
      GTEST_SKIP() << "kind " << bloom_kind_name(kind)                                               \
                   << " is not implemented in this build: " << bloom_last_error();                   \
    ASSERT_EQ(bloom_make_status_, BLOOM_OK) << bloom_last_error();                                   \
  } while (0)

// The filter's answers for small_keys() then probe_keys(), as 0/1.
inline std::vector<int> answers(const bloom_filter *f) {
  std::vector<int> out;
  out.reserve(kSmallKeys + kProbes);
  for (const auto *set : {&small_keys(), &probe_keys()})
    for (const std::string &k : *set) out.push_back(bloom_query(f, k.data(), k.size()));
  return out;
}

// Deserializes input while counting allocations. Checks what must hold for
// every input whatever it is: a failure leaves no handle and a non-empty
// message naming the call; no allocation exceeds what the input justifies
// (the arrays add up to at most the input length, and every filter object
// is backed by at least one payload word). Returns the status; *out gets
// the filter on success.
inline bloom_status deserialize_checked(const std::vector<unsigned char> &input, FilterPtr *out,
                                        const std::string &what) {
  core::reset_allocation_stats();
  bloom_filter *g = reinterpret_cast<bloom_filter *>(uintptr_t{0x1});
  const bloom_status s = bloom_deserialize(input.data(), input.size(), &g);
  const core::AllocationStats st = core::allocation_stats();
  EXPECT_LE(st.array_bytes, input.size()) << what << ": a load asked for more memory than its input";
  EXPECT_LE(st.object_calls, 1 + input.size() / 8) << what;
  if (s != BLOOM_OK) {
    EXPECT_EQ(g, nullptr) << what << ": a failed load left a handle";
    EXPECT_TRUE(is_refusal_status(s)) << what << ": status " << s << " " << bloom_last_error();
    EXPECT_EQ(std::string(bloom_last_error()).rfind("bloom_deserialize: ", 0), 0u) << what;
    EXPECT_GT(std::strlen(bloom_last_error()), std::strlen("bloom_deserialize: ")) << what;
    if (g != nullptr && g != reinterpret_cast<bloom_filter *>(uintptr_t{0x1})) bloom_destroy(g);
    return s;
  }
  out->reset(g);
  return s;
}

// Disarms the allocation-failure countdown when a test ends, however it ends.
struct CountdownGuard {
  ~CountdownGuard() { core::set_allocation_failure_countdown(0); }
};

// True in a build whose sanitizer reserves terabytes of address space (ASan,
// TSan): an RLIMIT_AS there would stop the runtime itself, not the library.
inline constexpr bool kAddressSpaceLimitUsable =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    false;
#else
    true;
#endif
#else
    true;
#endif

// 1.5 GB, as in the acceptance: well above any small filter, far
// below the 128 GiB a lying size field could ask for.
inline constexpr rlim_t kAddressSpaceLimit = rlim_t{1536} * 1024 * 1024;

}  // namespace bloom::test
