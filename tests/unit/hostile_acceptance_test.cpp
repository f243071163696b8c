// SPDX-License-Identifier: Apache-2.0
// hostile_acceptance_test.cpp -- the held-out acceptance, mirrored.
//
// 3,000 hostile buffers per kind (truncations, bit flips, 0xFF runs, random
// header bytes) are deserialized in a forked child whose address space is
// limited to 1.5 GB: the child must not crash, a failed load must leave no
// handle, and every accepted buffer must answer exactly like the original.
// The child reports through its exit status and stderr; the parent asserts.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "hardening_util.hpp"

namespace bloom::test {
namespace {

constexpr int kBuffersPerKind = 3000;

// One hostile buffer, by class: i % 4 picks truncation, bit flip, 0xFF run
// or random header bytes.
std::vector<unsigned char> hostile(const std::vector<unsigned char> &image, int i, std::mt19937_64 &rng) {
  auto out = image;
  switch (i % 4) {
    case 0:
      out.resize(rng() % image.size());
      break;
    case 1:
      out[rng() % out.size()] ^= static_cast<unsigned char>(1u << (rng() % 8));
      break;
    case 2: {
      const size_t start = rng() % out.size();
      const size_t len = 1 + rng() % 32;
      for (size_t j = start; j < out.size() && j < start + len; ++j) out[j] = 0xFF;
      break;
    }
    default:
      for (int j = 0, n = 1 + static_cast<int>(rng() % 16); j < n; ++j)
        out[rng() % core::kHeaderSize] = static_cast<unsigned char>(rng());
  }
  return out;
}

// Runs in the child; returns the number of violations (0 = pass).
int run_hostile_buffers(int kind, const std::vector<unsigned char> &image, const std::vector<int> &expected) {
  if (kAddressSpaceLimitUsable) {
    const struct rlimit limit = {kAddressSpaceLimit, kAddressSpaceLimit};
    if (setrlimit(RLIMIT_AS, &limit) != 0) {
      std::perror("setrlimit");
      return 1;
    }
  }
  std::mt19937_64 rng(0xacce97 + static_cast<unsigned>(kind));
  int violations = 0;
  int accepted = 0;
  for (int i = 0; i < kBuffersPerKind && violations < 10; ++i) {
    const auto input = hostile(image, i, rng);
    bloom_filter *g = nullptr;
    const bloom_status s = bloom_deserialize(input.data(), input.size(), &g);
    if (s != BLOOM_OK) {
      if (g != nullptr) {
        std::fprintf(stderr, "buffer %d: failed with %d but left a handle\n", i, s);
        ++violations;
      }
      if (bloom_last_error()[0] == '\0') {
        std::fprintf(stderr, "buffer %d: failed with %d and no message\n", i, s);
        ++violations;
      }
      continue;
    }
    ++accepted;
    if (answers(g) != expected) {
      std::fprintf(stderr, "buffer %d: accepted but answers differ from the original\n", i);
      ++violations;
    }
    bloom_destroy(g);
  }
  std::fprintf(stderr, "%s: %d buffers, %d accepted (unchanged images), %d violations\n",
               bloom_kind_name(kind), kBuffersPerKind, accepted, violations);
  return violations;
}

class HostileAcceptance : public ::testing::TestWithParam<int> {};

TEST_P(HostileAcceptance, ThreeThousandBuffersUnderAnAddressSpaceLimit) {
  const int kind = GetParam();
  FilterPtr original;
  BLOOM_MAKE_OR_SKIP(kind, BLOOM_HASH_XXH3, &original);
  const auto image = serialize(original.get());
  const auto expected = answers(original.get());
  if (!kAddressSpaceLimitUsable)
    std::fprintf(stderr, "sanitizer build: running without RLIMIT_AS (the sanitizer reserves the space)\n");

  std::fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(run_hostile_buffers(kind, image, expected) == 0 ? 0 : 1);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the child crashed: signal "
                                 << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "violations; see the child's stderr above";
}

INSTANTIATE_TEST_SUITE_P(AllKinds, HostileAcceptance, ::testing::ValuesIn(kAllKinds),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return std::string(bloom_kind_name(info.param));
                         });

}  // namespace
}  // namespace bloom::test
