// SPDX-License-Identifier: Apache-2.0
// Known-answer tests for the three hashers.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "byte_order.hpp"
#include "hash/hasher.hpp"

namespace bloom::core {
namespace {

// FNV-1a 64 vectors from the FNV reference test suite (Noll).
TEST(Fnv1a, PublishedVectors) {
  EXPECT_EQ(fnv1a64("", 0, 0), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a", 1, 0), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar", 6, 0), 0x85944171f73967e8ULL);
}

TEST(Fnv1a, SeedChangesTheHash) {
  EXPECT_NE(fnv1a64("foobar", 6, 1), fnv1a64("foobar", 6, 0));
  const Hash128 a = fnv1a_128("foobar", 6, 0);
  EXPECT_EQ(a.h1, murmur3_fmix64(0x85944171f73967e8ULL));
  EXPECT_NE(a.h2, a.h1);
}

// SMHasher's VerificationTest: hash {}, {0}, {0,1}, ... {0..254} with seed
// 256 - i, hash the concatenated results with seed 0, and read the first four
// bytes little-endian. Published value for MurmurHash3_x64_128: 0x6384BA69.
TEST(Murmur3, SmhasherVerificationValue) {
  unsigned char key[256];
  unsigned char hashes[16 * 256];
  for (int i = 0; i < 256; ++i) {
    key[i] = static_cast<unsigned char>(i);
    const Hash128 h = murmur3_x64_128(key, static_cast<size_t>(i), static_cast<uint64_t>(256 - i));
    store_le64(hashes + i * 16, h.h1);
    store_le64(hashes + i * 16 + 8, h.h2);
  }
  const Hash128 final_hash = murmur3_x64_128(hashes, sizeof hashes, 0);
  const uint32_t verification = static_cast<uint32_t>(final_hash.h1 & 0xffffffffu);
  EXPECT_EQ(verification, 0x6384BA69u);
}

TEST(Murmur3, EmptyInputSeedZeroIsZero) {
  const Hash128 h = murmur3_x64_128("", 0, 0);
  EXPECT_EQ(h.h1, 0u);
  EXPECT_EQ(h.h2, 0u);
}

TEST(Murmur3, EveryTailLengthDiffers) {
  const std::string s = "The quick brown fox jumps over the lazy dog";
  uint64_t previous = 0;
  for (size_t len = 0; len <= s.size(); ++len) {
    const Hash128 h = murmur3_x64_128(s.data(), len, 7);
    EXPECT_NE(h.h1, previous) << len;
    previous = h.h1;
  }
}

// xxHash's own sanity vectors for the empty input, seed 0.
TEST(Xxh3, PublishedEmptyInputVector) {
  const Hash128 h = xxh3_128("", 0, 0);
  EXPECT_EQ(h.h1, 0x6001C324468D497FULL);  // low64
  EXPECT_EQ(h.h2, 0x99AA06D3014798D8ULL);  // high64
  EXPECT_EQ(XXH3_64bits("", 0), 0x2D06800538D394C2ULL);
}

TEST(Hasher, DispatchesToTheChosenFunction) {
  const char *key = "bloom";
  EXPECT_EQ((Hasher{HashKind::kFnv1a, 3}("bloom", 5)).h1, fnv1a_128(key, 5, 3).h1);
  EXPECT_EQ((Hasher{HashKind::kMurmur3, 3}("bloom", 5)).h2, murmur3_x64_128(key, 5, 3).h2);
  EXPECT_EQ((Hasher{HashKind::kXxh3, 3}("bloom", 5)).h1, xxh3_128(key, 5, 3).h1);
}

}  // namespace
}  // namespace bloom::core
