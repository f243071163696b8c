// SPDX-License-Identifier: Apache-2.0
// present_key_writes_test.cpp -- bloom_test_and_add of a key that is
// already in a bit filter writes nothing: the bit array is made read-only
// and the call must still answer 1 (a write would fault). Pages a forked
// process shares (a Redis BGSAVE child) then stay shared for adds that
// change nothing.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bloom/bloom.h"

namespace bloom::test {
namespace {

// Every allocation is a page-aligned mapping of its own, and the largest
// one (the bit array) is remembered so that it can be protected.
struct Arena {
  void *largest = nullptr;
  size_t largest_size = 0;
};

size_t page_rounded(size_t size) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (size + page - 1) / page * page;
}

void *map_alloc(void *user, size_t size, size_t) {
  void *p = mmap(nullptr, page_rounded(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  auto *arena = static_cast<Arena *>(user);
  if (size > arena->largest_size) {
    arena->largest = p;
    arena->largest_size = size;
  }
  return p;
}

void map_free(void *, void *p, size_t size, size_t) { munmap(p, page_rounded(size)); }

struct Case {
  const char *name;
  int kind;
  int hash;
  uint32_t flags = 0;
};

TEST(PresentKeyWrites, TestAndAddOfAPresentKeyLeavesTheBitsUntouched) {
  const Case cases[] = {
      {"classic", BLOOM_KIND_CLASSIC, BLOOM_HASH_XXH3},
      {"classic, redisbloom hash", BLOOM_KIND_CLASSIC, BLOOM_HASH_REDISBLOOM},
      {"classic, bits-and-blooms hash", BLOOM_KIND_CLASSIC, BLOOM_HASH_BITS_AND_BLOOMS},
      {"partitioned", BLOOM_KIND_PARTITIONED, BLOOM_HASH_XXH3},
      {"blocked", BLOOM_KIND_BLOCKED, BLOOM_HASH_XXH3},
      {"blocked, split blocks", BLOOM_KIND_BLOCKED, BLOOM_HASH_XXH3, BLOOM_FLAG_SPLIT_BLOCK},
      {"blocked, parquet hash", BLOOM_KIND_BLOCKED, BLOOM_HASH_PARQUET, BLOOM_FLAG_SPLIT_BLOCK}};
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    Arena arena;
    const bloom_allocator hooks{sizeof(bloom_allocator), map_alloc, map_free, &arena};
    ASSERT_EQ(bloom_set_allocator(&hooks), BLOOM_OK);
    bloom_options o;
    bloom_options_init(&o);
    o.kind = c.kind;
    o.hash = c.hash;
    o.flags = c.flags;
    o.capacity = 20000;
    o.fp_rate = 0.01;
    bloom_filter *f = nullptr;
    ASSERT_EQ(bloom_create(&o, &f), BLOOM_OK) << bloom_last_error();
    std::vector<std::string> keys;
    for (int i = 0; i < 1000; ++i) keys.push_back("present-" + std::to_string(i));
    for (const std::string &k : keys) ASSERT_EQ(bloom_test_and_add(f, k.data(), k.size()), 0) << k;
    ASSERT_NE(arena.largest, nullptr);
    ASSERT_EQ(mprotect(arena.largest, page_rounded(arena.largest_size), PROT_READ), 0);
    for (const std::string &k : keys) EXPECT_EQ(bloom_test_and_add(f, k.data(), k.size()), 1) << k;
    ASSERT_EQ(mprotect(arena.largest, page_rounded(arena.largest_size), PROT_READ | PROT_WRITE), 0);
    EXPECT_EQ(bloom_test_and_add(f, "absent", 6), 0);
    bloom_destroy(f);
    ASSERT_EQ(bloom_set_allocator(nullptr), BLOOM_OK);
  }
}

}  // namespace
}  // namespace bloom::test
