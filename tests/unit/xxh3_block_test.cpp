// SPDX-License-Identifier: Apache-2.0
// xxh3_64_block hashes a block grouped by XXH3's length classes through
// xxhash.h's per-class functions; its values must be XXH3_64bits_withSeed's
// for every length, order and block size.
#include "hash/xxh3_block.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace bloom::test {
namespace {

TEST(HashBlock, EqualsXxh3ForEveryLengthOrderAndBlockSize) {
  std::mt19937_64 rng(20261122);
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{0x0123456789abcdefULL}, ~uint64_t{0}}) {
    for (int round = 0; round < 200; ++round) {
      const size_t count = 1 + rng() % core::kMaxHashBlock;
      std::vector<std::string> keys(count);
      std::vector<const void *> ptrs(count);
      std::vector<size_t> lens(count);
      for (size_t i = 0; i < count; ++i) {
        // Mostly the short classes, sometimes empty or long (up to 300).
        const size_t len = rng() % 4 == 0 ? rng() % 301 : rng() % 18;
        keys[i].resize(len);
        for (auto &c : keys[i]) c = static_cast<char>(rng());
        ptrs[i] = keys[i].data();
        lens[i] = len;
      }
      std::vector<uint64_t> got(count);
      core::xxh3_64_block(ptrs.data(), lens.data(), count, seed, got.data());
      for (size_t i = 0; i < count; ++i)
        ASSERT_EQ(got[i], XXH3_64bits_withSeed(ptrs[i], lens[i], seed))
            << "length " << lens[i] << " at " << i << " of " << count << ", seed " << seed;
    }
  }
}

// Every length from 0 to 300 at least once, in blocks of 61 keys whose
// lengths wrap around, so each block mixes all classes.
TEST(HashBlock, EveryLengthUpTo300) {
  std::mt19937_64 rng(7);
  std::string bytes(301, '\0');
  for (auto &c : bytes) c = static_cast<char>(rng());
  for (size_t first = 0; first <= 300; first += 61) {
    const void *ptrs[61];
    size_t lens[61];
    for (size_t i = 0; i < 61; ++i) {
      lens[i] = (first + i) % 301;
      ptrs[i] = bytes.data() + (300 - lens[i]);  // keys end where the buffer ends
    }
    uint64_t got[61];
    core::xxh3_64_block(ptrs, lens, 61, 99, got);
    for (size_t i = 0; i < 61; ++i) ASSERT_EQ(got[i], XXH3_64bits_withSeed(ptrs[i], lens[i], 99)) << lens[i];
  }
}

TEST(HashBlock, NullPointerWithZeroLengthHashesLikeXxh3) {
  const void *ptrs[3] = {nullptr, "abc", nullptr};
  const size_t lens[3] = {0, 3, 0};
  uint64_t got[3];
  core::xxh3_64_block(ptrs, lens, 3, 42, got);
  EXPECT_EQ(got[0], XXH3_64bits_withSeed(nullptr, 0, 42));
  EXPECT_EQ(got[1], XXH3_64bits_withSeed("abc", 3, 42));
  EXPECT_EQ(got[2], got[0]);
}

}  // namespace
}  // namespace bloom::test
