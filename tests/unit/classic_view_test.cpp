// SPDX-License-Identifier: Apache-2.0
// bloom_get_classic_view and bloom_view_added: probes computed from
// bloom.h's description of the view alone answer as bloom_query, and a
// filter filled through the view and counted is byte for byte the filter
// bloom_add fills; filters the view cannot describe refuse it
// (view_added_test checks the refusals of adds through a view).
#include <gtest/gtest.h>

// The reference hash, inlined as the library does (no link to libxxhash).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdio>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace bloom::test {
namespace {

// The key's positions, as bloom.h describes them.
std::vector<uint64_t> positions(const bloom_classic_view &v, const std::string &key) {
  const XXH128_hash_t h = XXH3_128bits_withSeed(key.data(), key.size(), v.seed);
  uint64_t x = h.low64;
  uint64_t y = h.high64;
  std::vector<uint64_t> out;
  for (uint32_t i = 0; i < v.hashes; ++i) {
    uint64_t g = x;
    x += y;
    if (v.enhanced != 0) y += i + 1;
    if (v.mixed != 0) g = (g ^ (g >> 32)) * 0x9E3779B97F4A7C15u;
    out.push_back(static_cast<uint64_t>((static_cast<unsigned __int128>(g) * v.bits) >> 64));
  }
  return out;
}

bool view_query(const bloom_classic_view &v, const std::string &key) {
  for (uint64_t p : positions(v, key))
    if (((v.words[p >> 6] >> (p & 63)) & 1u) == 0) return false;
  return true;
}

void view_add(const bloom_classic_view &v, const std::string &key) {
  auto *words = const_cast<uint64_t *>(v.words);  // the owner's to write
  for (uint64_t p : positions(v, key)) words[p >> 6] |= uint64_t{1} << (p & 63);
}

struct Shape {
  uint64_t capacity;
  uint64_t bits;  // explicit m, or 0
  uint32_t hashes;
  uint32_t flags;
  uint64_t seed;
};

bloom_options classic_options(const Shape &s) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_CLASSIC;
  o.capacity = s.capacity;
  o.fp_rate = 0.01;
  o.bits = s.bits;
  o.hashes = s.hashes;
  o.flags = s.flags;
  o.seed = s.seed;
  return o;
}

// Small shapes get mixed probes, large ones not (configure.cpp); tiny m
// puts many probes on one word; k = 1 and k = 40 bound the loop.
const Shape kShapes[] = {
    {3000, 0, 0, 0, 0},
    {3000, 0, 0, BLOOM_FLAG_PLAIN_DOUBLE_HASHING, 7},
    {200000, 0, 0, 0, 0x5eed},
    {200000, 0, 0, BLOOM_FLAG_PLAIN_DOUBLE_HASHING, 0},
    {100, 0, 40, 0, 3},
    {100, 1, 3, 0, 0},
    {100, 70, 1, BLOOM_FLAG_PLAIN_DOUBLE_HASHING, 0},
    {100, 129, 5, 0, ~uint64_t{0}},
};

TEST(ClassicView, ProbesAndAddsMatchTheLibrary) {
  bool saw_mixed = false;
  bool saw_unmixed = false;
  for (const Shape &s : kShapes) {
    const bloom_options o = classic_options(s);
    FilterPtr by_call = make_filter(o);
    FilterPtr by_view = make_filter(o);
    bloom_classic_view v{};
    v.struct_size = sizeof v;
    ASSERT_EQ(bloom_get_classic_view(by_view.get(), &v), BLOOM_OK) << bloom_last_error();
    EXPECT_EQ(v.enhanced, (s.flags & BLOOM_FLAG_PLAIN_DOUBLE_HASHING) == 0 ? 1u : 0u);
    EXPECT_EQ(v.seed, s.seed);
    (v.mixed != 0 ? saw_mixed : saw_unmixed) = true;
    ASSERT_EQ(bloom_view_added(by_view.get(), 0), BLOOM_OK) << bloom_last_error();
    // Keys of 0 to 24 bytes.
    std::vector<std::string> keys;
    for (const std::string &k : make_keys("c", 2000)) keys.push_back(k.substr(0, k.size() % 25));
    keys.emplace_back();
    for (const std::string &key : keys) {
      ASSERT_EQ(bloom_add(by_call.get(), key.data(), key.size()), BLOOM_OK);
      view_add(v, key);
    }
    ASSERT_EQ(bloom_view_added(by_view.get(), 500), BLOOM_OK);
    ASSERT_EQ(bloom_view_added(by_view.get(), keys.size() - 500), BLOOM_OK);
    EXPECT_EQ(keys_added(by_view.get()), keys.size());
    EXPECT_EQ(serialize(by_view.get()), serialize(by_call.get())) << "m " << v.bits << " k " << v.hashes;
    // Answers, present and (mostly) absent keys alike.
    for (const std::string &key : make_keys("absent", 3000)) {
      const std::string k = key.substr(0, key.size() % 17);
      ASSERT_EQ(view_query(v, k), bloom_query(by_call.get(), k.data(), k.size()) == 1) << k;
    }
    for (const std::string &key : keys) ASSERT_TRUE(view_query(v, key));
  }
  EXPECT_TRUE(saw_mixed && saw_unmixed) << "the shapes must cover both probe schemes";
}

TEST(ClassicView, RefusesWhatItCannotDescribe) {
  bloom_classic_view v{};
  v.struct_size = sizeof v;
  EXPECT_EQ(bloom_get_classic_view(nullptr, &v), BLOOM_E_INVALID_ARG);
  FilterPtr classic = make_filter(classic_options(kShapes[0]));
  EXPECT_EQ(bloom_get_classic_view(classic.get(), nullptr), BLOOM_E_INVALID_ARG);
  bloom_classic_view short_view{};
  short_view.struct_size = sizeof short_view - 1;
  EXPECT_EQ(bloom_get_classic_view(classic.get(), &short_view), BLOOM_E_INVALID_ARG);
  // Other kinds and hashers: the view cannot describe their positions.
  for (int i = 0; i < bloom_kind_count(); ++i)
    for (int hash = BLOOM_HASH_XXH3; hash <= BLOOM_HASH_PARQUET; ++hash) {
      const bloom_options o = kind_hash_options(bloom_kind_at(i), hash);
      bloom_filter *raw = nullptr;
      if (bloom_create(&o, &raw) != BLOOM_OK) continue;  // not every kind takes every hasher
      FilterPtr f(raw);
      const bool has_view = o.kind == BLOOM_KIND_CLASSIC && hash == BLOOM_HASH_XXH3;
      EXPECT_EQ(bloom_get_classic_view(f.get(), &v), has_view ? BLOOM_OK : BLOOM_E_UNSUPPORTED)
          << o.kind << " " << hash;
    }
  // Concurrent and mapped filters: readable (view_added_test checks that
  // they refuse adds through the view).
  Shape cs = kShapes[0];
  cs.flags = BLOOM_FLAG_CONCURRENT;
  FilterPtr concurrent = make_filter(classic_options(cs));
  EXPECT_EQ(bloom_get_classic_view(concurrent.get(), &v), BLOOM_OK);
  ASSERT_EQ(bloom_add(classic.get(), "a", 1), BLOOM_OK);
  const std::string path = temp_path("classic_view.bloom");
  ASSERT_EQ(bloom_save(classic.get(), path.c_str()), BLOOM_OK);
  bloom_filter *raw = nullptr;
  BLOOM_MAP_OR_SKIP(path.c_str(), &raw);
  FilterPtr mapped(raw);
  ASSERT_EQ(bloom_get_classic_view(mapped.get(), &v), BLOOM_OK);
  EXPECT_TRUE(view_query(v, "a"));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace bloom::test
