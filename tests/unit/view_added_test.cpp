// SPDX-License-Identifier: Apache-2.0
// bloom_view_added: a filter filled by setting bits through its blocked
// view (the layout bloom.h documents) and recording the adds is byte for
// byte the filter bloom_add fills, keys_added included (classic_view_test
// checks the same through the classic view); filters without a view, or
// whose view must not be written, refuse and stay unchanged.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bloom/bloom_probe.h"
#include "test_util.hpp"

namespace bloom::test {
namespace {

bloom_options blocked_options(uint64_t capacity, uint32_t k, uint64_t seed, uint32_t flags) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_BLOCKED;
  o.capacity = capacity;
  o.fp_rate = 0.01;
  o.hashes = k;
  o.seed = seed;
  o.flags = flags;
  return o;
}

// An add as a binding makes it: the key's bits, from bloom.h's description
// of the view alone, OR-ed into the view's words.
void add_through_view(const bloom_blocked_view &v, const std::string &key) {
  const uint64_t h = XXH3_64bits_withSeed(key.data(), key.size(), v.seed);
  const auto x = static_cast<uint32_t>(h);
  auto *words = const_cast<uint64_t *>(v.words);  // the owner's to write
  if (v.split != 0) {
    uint64_t *block = words + bloom_probe_range(h, v.lines) * 4;
    for (unsigned i = 0; i < 8; ++i)
      block[i >> 1] |= uint64_t{1} << ((i & 1u) * 32u + ((x * v.multipliers[i]) >> 27));
    return;
  }
  uint64_t *line = words + bloom_probe_range(h, v.lines) * 8;
  for (uint32_t j = 0; j < v.hashes; ++j) {
    const uint32_t b = (x * v.multipliers[j]) >> 23;
    line[b >> 6] |= uint64_t{1} << (b & 63);
  }
}

TEST(ViewAdded, MatchesBloomAddByteForByte) {
  for (uint32_t flags : {0u, static_cast<uint32_t>(BLOOM_FLAG_SPLIT_BLOCK)})
    for (uint32_t k : {1u, 7u, 16u, 33u}) {
      if (flags != 0 && k != 1) continue;
      if (flags != 0) k = 8;  // split blocks set 8 bits a key
      for (uint64_t seed : {uint64_t{0}, uint64_t{0x5eed}}) {
        const bloom_options o = blocked_options(3000, k, seed, flags);
        FilterPtr by_call = make_filter(o);
        FilterPtr by_view = make_filter(o);
        bloom_blocked_view v{};
        v.struct_size = sizeof v;
        ASSERT_EQ(bloom_get_blocked_view(by_view.get(), &v), BLOOM_OK);
        ASSERT_EQ(bloom_view_added(by_view.get(), 0), BLOOM_OK) << bloom_last_error();
        const std::vector<std::string> keys = make_keys("k", 3000);
        for (const std::string &key : keys) {
          ASSERT_EQ(bloom_add(by_call.get(), key.data(), key.size()), BLOOM_OK);
          add_through_view(v, key);
        }
        // In two parts: the counts add up.
        ASSERT_EQ(bloom_view_added(by_view.get(), 1000), BLOOM_OK);
        ASSERT_EQ(bloom_view_added(by_view.get(), keys.size() - 1000), BLOOM_OK);
        EXPECT_EQ(keys_added(by_view.get()), keys.size());
        EXPECT_EQ(serialize(by_view.get()), serialize(by_call.get())) << "k " << k << " flags " << flags;
      }
    }
}

TEST(ViewAdded, RefusesFiltersWhoseViewMustNotBeWritten) {
  EXPECT_EQ(bloom_view_added(nullptr, 1), BLOOM_E_INVALID_ARG);
  // Only blocked and classic filters hashing with XXH3 have a view.
  for (int i = 0; i < bloom_kind_count(); ++i)
    for (int hash : {BLOOM_HASH_XXH3, BLOOM_HASH_MURMUR3}) {
      const bloom_options o = kind_hash_options(bloom_kind_at(i), hash);
      FilterPtr f = make_filter(o);
      const bool writable_view =
          (o.kind == BLOOM_KIND_BLOCKED || o.kind == BLOOM_KIND_CLASSIC) && hash == BLOOM_HASH_XXH3;
      EXPECT_EQ(bloom_view_added(f.get(), 5), writable_view ? BLOOM_OK : BLOOM_E_UNSUPPORTED)
          << o.kind << " " << hash;
      EXPECT_EQ(keys_added(f.get()), writable_view ? 5u : 0u);
    }
  for (int kind : {BLOOM_KIND_BLOCKED, BLOOM_KIND_CLASSIC}) {
    // Concurrent: its writers lock, which writes through the view would skip.
    bloom_options co = kind_hash_options(kind, BLOOM_HASH_XXH3);
    co.flags |= BLOOM_FLAG_CONCURRENT;
    FilterPtr concurrent = make_filter(co);
    EXPECT_EQ(bloom_view_added(concurrent.get(), 1), BLOOM_E_UNSUPPORTED) << kind;
    EXPECT_NE(std::string(bloom_last_error()).find("concurrent"), std::string::npos) << bloom_last_error();
    EXPECT_EQ(keys_added(concurrent.get()), 0u);
    // Mapped: the words are the file's, read-only.
    FilterPtr plain = make_filter(kind_hash_options(kind, BLOOM_HASH_XXH3));
    ASSERT_EQ(bloom_add(plain.get(), "a", 1), BLOOM_OK);
    const std::string path = temp_path("view_added.bloom");
    ASSERT_EQ(bloom_save(plain.get(), path.c_str()), BLOOM_OK);
    bloom_filter *raw = nullptr;
    BLOOM_MAP_OR_SKIP(path.c_str(), &raw);
    FilterPtr mapped(raw);
    EXPECT_EQ(bloom_view_added(mapped.get(), 1), BLOOM_E_UNSUPPORTED) << kind;
    EXPECT_NE(std::string(bloom_last_error()).find("read-only"), std::string::npos) << bloom_last_error();
    EXPECT_EQ(keys_added(mapped.get()), 1u);
    std::remove(path.c_str());
  }
}

}  // namespace
}  // namespace bloom::test
