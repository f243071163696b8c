// SPDX-License-Identifier: Apache-2.0
// The header-only probe (include/bloom/bloom_probe.h) gives bloom_query's
// answer for every key of every golden blocked file, loaded and mapped, and
// for every k of both blocked layouts; filters it cannot describe have no
// view.
#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "../golden/golden_cases.hpp"
#include "bloom/bloom_probe.h"
#include "test_util.hpp"

namespace bloom::test {
namespace {

// "k<i>", built without operator+ (GCC 12's -Wrestrict false positive at
// -O3 on "k" + std::to_string(i)).
std::string numbered_key(int i) {
  std::string key = std::to_string(i);
  key.insert(key.begin(), 'k');
  return key;
}

bloom_status view_of(const bloom_filter *f, bloom_blocked_view *v) {
  *v = {};
  v->struct_size = sizeof *v;
  return bloom_get_blocked_view(f, v);
}

// Whether the library can describe a file's bits: blocked, XXH3, layout 2.
bool has_view(const golden::Case &c) {
  return c.kind == BLOOM_KIND_BLOCKED && c.hash == BLOOM_HASH_XXH3 && c.built_by_create;
}

TEST(BlockedProbe, AnswersAsBloomQueryOnEveryGoldenFile) {
  int viewed = 0;
  for (const golden::Case &c : golden::kCases) {
    const std::string path = std::string(BLOOM_TEST_GOLDEN_DIR) + "/" + c.name + ".bloom";
    for (bool mapped : {false, true}) {
      bloom_filter *raw = nullptr;
      const bloom_status opened = mapped ? bloom_map(path.c_str(), &raw) : bloom_load(path.c_str(), &raw);
      // bloom_map needs a little-endian host (the file's words are used in
      // place); elsewhere it refuses, and the loaded case still runs.
      if (mapped && opened == BLOOM_E_UNSUPPORTED && std::endian::native == std::endian::big) continue;
      ASSERT_EQ(opened, BLOOM_OK) << c.name;
      FilterPtr f(raw);
      bloom_blocked_view v;
      const bloom_status s = view_of(f.get(), &v);
      ASSERT_EQ(s == BLOOM_OK, has_view(c)) << c.name << ": " << bloom_last_error();
      if (s != BLOOM_OK) {
        EXPECT_EQ(s, BLOOM_E_UNSUPPORTED) << c.name;
        continue;
      }
      ++viewed;
      EXPECT_EQ(v.split != 0, (c.flags & BLOOM_FLAG_SPLIT_BLOCK) != 0) << c.name;
      for (uint64_t i = 0; i < c.keys; ++i) {
        const std::string k = golden::key(i);
        ASSERT_EQ(bloom_probe(&v, k.data(), k.size()), 1) << c.name << " " << k;
      }
      for (uint64_t i = 0; i < golden::kProbeCount; ++i) {
        const std::string p = golden::probe(i);
        ASSERT_EQ(bloom_probe(&v, p.data(), p.size()), bloom_query(f.get(), p.data(), p.size()))
            << c.name << " " << p;
      }
    }
  }
  // Three golden files have a view, each loaded and (little-endian) mapped.
  EXPECT_GE(viewed, std::endian::native == std::endian::little ? 6 : 3);
}

// Every k of the 64-byte layout, split blocks, seeded and not, at a fill
// where both answers occur often.
TEST(BlockedProbe, AnswersAsBloomQueryForEveryK) {
  for (uint32_t flags : {0u, static_cast<uint32_t>(BLOOM_FLAG_SPLIT_BLOCK)})
    for (uint32_t k = 1; k <= 64; ++k) {
      if (flags != 0 && k != 8) continue;
      for (uint64_t seed : {uint64_t{0}, uint64_t{0xfeed}}) {
        bloom_options o;
        bloom_options_init(&o);
        o.kind = BLOOM_KIND_BLOCKED;
        o.capacity = 2000;
        o.fp_rate = 0.01;
        o.hashes = k;
        o.seed = seed;
        o.flags = flags;
        bloom_filter *raw = nullptr;
        ASSERT_EQ(bloom_create(&o, &raw), BLOOM_OK) << bloom_last_error();
        FilterPtr f(raw);
        for (int i = 0; i < 2000; ++i) {
          const std::string key = numbered_key(i);
          ASSERT_EQ(bloom_add(f.get(), key.data(), key.size()), BLOOM_OK);
        }
        bloom_blocked_view v;
        ASSERT_EQ(view_of(f.get(), &v), BLOOM_OK);
        ASSERT_EQ(v.hashes, k);
        for (int i = 0; i < 6000; ++i) {
          const std::string key = numbered_key(i);
          ASSERT_EQ(bloom_probe(&v, key.data(), key.size()), bloom_query(f.get(), key.data(), key.size()))
              << "k = " << k << " flags " << flags << " key " << key;
        }
      }
    }
}

// Other kinds and hashers are refused with a reason; so are bad arguments.
TEST(BlockedProbe, FiltersWithoutAViewAreRefused) {
  for (int i = 0; i < bloom_kind_count(); ++i) {
    for (int hash : {BLOOM_HASH_XXH3, BLOOM_HASH_MURMUR3}) {
      const bloom_options o = kind_hash_options(bloom_kind_at(i), hash);
      bloom_filter *raw = nullptr;
      ASSERT_EQ(bloom_create(&o, &raw), BLOOM_OK) << bloom_last_error();
      FilterPtr f(raw);
      bloom_blocked_view v;
      const bool want = o.kind == BLOOM_KIND_BLOCKED && hash == BLOOM_HASH_XXH3;
      EXPECT_EQ(view_of(f.get(), &v), want ? BLOOM_OK : BLOOM_E_UNSUPPORTED) << o.kind << " " << hash;
    }
  }
  bloom_blocked_view v{};
  v.struct_size = sizeof v;
  EXPECT_EQ(bloom_get_blocked_view(nullptr, &v), BLOOM_E_INVALID_ARG);
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_BLOCKED;
  bloom_filter *raw = nullptr;
  ASSERT_EQ(bloom_create(&o, &raw), BLOOM_OK);
  FilterPtr f(raw);
  EXPECT_EQ(bloom_get_blocked_view(f.get(), nullptr), BLOOM_E_INVALID_ARG);
  v.struct_size = sizeof v - 8;
  EXPECT_EQ(bloom_get_blocked_view(f.get(), &v), BLOOM_E_INVALID_ARG);
}

}  // namespace
}  // namespace bloom::test
