// SPDX-License-Identifier: Apache-2.0
// memory_test.cpp -- large bit arrays are the kernel's zero pages: creating
// a filter costs no resident memory until its bits are written (medium ones
// are populated at once), and every array is all zeros and 64-byte aligned.
#include "memory.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "test_util.hpp"

namespace bloom::test {
namespace {

// Resident set size of this process in bytes (/proc/self/statm, field 2).
uint64_t resident_bytes() {
  std::FILE *f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  const int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  return got == 2 ? resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) : 0;
}

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST(Memory, LargeArrayIsZeroAlignedAndNotResidentUntilWritten) {
  if (resident_bytes() == 0) GTEST_SKIP() << "no /proc/self/statm";
  const size_t bytes = 256 * kMiB;
  const uint64_t before = resident_bytes();
  core::AlignedBuffer buf = core::allocate_zeroed(bytes);
  ASSERT_NE(buf.get(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buf.get()) % core::kCacheLine, 0u);
  EXPECT_LT(resident_bytes() - before, 32 * kMiB) << "the array was touched when it was allocated";
  // Zero wherever it is read, and writable.
  auto *words = static_cast<uint64_t *>(buf.get());
  for (size_t i = 0; i < bytes / 8; i += 4096 / 8 * 97) ASSERT_EQ(words[i], 0u) << i;
  words[bytes / 8 - 1] = 1;
  EXPECT_EQ(words[bytes / 8 - 1], 1u);
}

// Between kMapThreshold and kPopulateLimit the pages are populated when the
// array is made, so the first inserts take no page faults.
TEST(Memory, MediumArraysAreResidentAtOnce) {
#ifndef MAP_POPULATE
  GTEST_SKIP() << "no MAP_POPULATE here: medium arrays are lazy too";
#endif
  if (resident_bytes() == 0) GTEST_SKIP() << "no /proc/self/statm";
  const size_t bytes = 16 * kMiB;
  static_assert(16 * kMiB >= core::kMapThreshold && 16 * kMiB <= core::kPopulateLimit);
  const uint64_t before = resident_bytes();
  core::AlignedBuffer buf = core::allocate_zeroed(bytes);
  EXPECT_GE(resident_bytes() - before, 12 * kMiB);
  const auto *words = static_cast<const uint64_t *>(buf.get());
  for (size_t i = 0; i < bytes / 8; i += 4096 / 8) ASSERT_EQ(words[i], 0u) << i;
}

TEST(Memory, SmallArraysAreZeroAndAlignedToo) {
  for (size_t bytes : {size_t{0}, size_t{1}, size_t{64}, size_t{4096}, core::kMapThreshold - 1}) {
    core::AlignedBuffer buf = core::allocate_zeroed(bytes);
    ASSERT_NE(buf.get(), nullptr) << bytes;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buf.get()) % core::kCacheLine, 0u) << bytes;
    const auto *b = static_cast<const unsigned char *>(buf.get());
    for (size_t i = 0; i < bytes; ++i) ASSERT_EQ(b[i], 0) << bytes << " " << i;
  }
}

// Through the C API: a 512 MiB classic filter is created and queried
// (queries only read) without becoming resident, and works.
TEST(Memory, NewLargeFilterCostsNoResidentMemoryUntilKeysArrive) {
  if (resident_bytes() == 0) GTEST_SKIP() << "no /proc/self/statm";
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_CLASSIC;
  o.bits = uint64_t{1} << 32;  // 512 MiB
  o.hashes = 3;
  const uint64_t before = resident_bytes();
  bloom_filter *raw = nullptr;
  ASSERT_EQ(bloom_create(&o, &raw), BLOOM_OK) << bloom_last_error();
  FilterPtr f(raw);
  EXPECT_EQ(bloom_query(f.get(), "absent", 6), 0);
  EXPECT_LT(resident_bytes() - before, 64 * kMiB);
  ASSERT_EQ(bloom_add(f.get(), "present", 7), BLOOM_OK);
  EXPECT_EQ(bloom_query(f.get(), "present", 7), 1);
}

}  // namespace
}  // namespace bloom::test
