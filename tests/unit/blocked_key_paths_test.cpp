// SPDX-License-Identifier: Apache-2.0
// The blocked kind's key-level query paths (hash + line + probe in one
// kernel call, installed for XXH3-64 filters) answer exactly like the generic
// path -- hash with the filter's Hasher, then BlockedFilter::query -- for
// every kernel set, every key length across XXH3's length classes, single
// and batch, batch sizes crossing the staging blocks, plain and concurrent
// filters (whose kernels read the line with relaxed atomic loads).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "c_options.hpp"
#include "configure.hpp"
#include "kinds/blocked.hpp"
#include "kinds/blocked_kernels.hpp"
#include "kinds/blocked_line.hpp"
#include "kinds/registry.hpp"
#include "kinds/split_block.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

using core::BlockedFilter;
using core::blocked::Kernels;

std::vector<const Kernels *> kernel_sets() {
  std::vector<const Kernels *> sets{&core::blocked::portable_kernels()};
  if (core::blocked::avx2_kernels() != nullptr) sets.push_back(core::blocked::avx2_kernels());
  return sets;
}

// hashes = 0: the sizing's k for (capacity, p).
std::unique_ptr<core::Filter> make_blocked(uint64_t capacity, double p, uint64_t seed, uint32_t hashes = 0,
                                           uint32_t flags = 0) {
  bloom_options o = classic_options(capacity, p);
  o.kind = BLOOM_KIND_BLOCKED;
  o.seed = seed;
  o.hashes = hashes;
  o.flags = flags;
  return core::create_filter(core::configure(capi::to_core_options(o)));
}

// Keys of every length 0..40 (XXH3 changes code at 0, 4, 9, 17, 129 bytes;
// a few are longer than 128), with varied bytes.
std::vector<std::string> keys_of_all_lengths(const std::string &tag, size_t per_length) {
  std::vector<std::string> keys;
  for (size_t len : {0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 40, 64, 128, 129, 200, 300}) {
    for (size_t i = 0; i < per_length; ++i) {
      std::string k = tag + std::to_string(i) + "/" + std::to_string(len) + "/";
      k.resize(len, static_cast<char>('a' + i % 26));
      if (len > 0) k[len - 1] = static_cast<char>(i * 7 + len);
      keys.push_back(k);
    }
  }
  return keys;
}

struct Shape {
  double p;
  uint32_t hashes;  // 0: the sizing's
};

TEST(BlockedKeyPaths, EveryKernelSetAnswersLikeTheGenericPath) {
  // The sizing's k at 2000 keys (6, 10, 20: one, two and three groups of
  // eight probes), and the k on either side of a group's edge (the SIMD
  // paths fill the lanes past k with repeats of live probes).
  const Shape shapes[] = {{0.01, 0},  {1e-4, 0},  {1e-9, 0},  {1e-3, 1},  {1e-3, 8}, {1e-3, 9},
                          {1e-3, 16}, {1e-3, 17}, {1e-3, 24}, {1e-3, 25}, {1e-3, 64}};
  // Seed 0 has kernels of its own (the seed folded into XXH3's constants);
  // concurrent filters have their own kernels (atomic loads).
  for (uint32_t flags : {0u, static_cast<uint32_t>(BLOOM_FLAG_CONCURRENT)})
    for (uint64_t seed : {uint64_t{0}, uint64_t{0x5eed}})
      for (const Shape &shape : shapes) {
        const double p = shape.p;
        auto filter = make_blocked(2000, p, seed, shape.hashes, flags);
        SCOPED_TRACE("k = " + std::to_string(filter->config().hashes) + ", seed = " + std::to_string(seed) +
                     ", flags = " + std::to_string(flags));
        auto &blocked = static_cast<BlockedFilter &>(*filter);
        ASSERT_TRUE(blocked.config().key_hash64());
        ASSERT_TRUE(filter->has_key_query() && filter->has_key_query_batch());
        const auto present = keys_of_all_lengths("in-", 40);
        for (const auto &k : present) filter->add_key(k.data(), k.size());
        const auto absent = keys_of_all_lengths("out-", 400);  // ~4% hit the filled filter at p = 0.01

        std::vector<std::string> all = present;
        all.insert(all.end(), absent.begin(), absent.end());
        const KeyArrays a = key_arrays(all);
        std::vector<uint8_t> want;
        size_t hits = 0;
        for (const auto &k : all) {
          want.push_back(blocked.query(blocked.hasher()(k.data(), k.size())) ? 1 : 0);
          hits += want.back();
        }
        for (size_t i = 0; i < present.size(); ++i) ASSERT_EQ(want[i], 1) << "false negative: " << present[i];
        ASSERT_GE(hits, present.size());

        for (const Kernels *set : kernel_sets()) {
          blocked.use_kernels(*set);
          for (size_t i = 0; i < all.size(); ++i)
            ASSERT_EQ(filter->query_key(all[i].data(), all[i].size()), want[i] == 1)
                << set->name << " p=" << p << " key length " << all[i].size();
          // Batches of every size up to three staging blocks, at every offset.
          for (size_t n : {size_t{1}, size_t{31}, size_t{32}, size_t{33}, size_t{97}, all.size()}) {
            std::vector<uint8_t> got(all.size(), 2);
            for (size_t start = 0; start < all.size(); start += n) {
              const size_t count = std::min(n, all.size() - start);
              filter->query_keys(&a.ptrs[start], &a.lens[start], count, &got[start]);
            }
            ASSERT_EQ(got, want) << set->name << " p=" << p << " batch " << n;
          }
        }
      }
}

// As Blocked.EveryPathReadsExactlyTheBitsTheMaskSets for the line kernels:
// one key in an empty filter answers 1 on every kernel set, and clearing any
// one of its bits makes every set answer 0. So no probe of any k is skipped
// (a lane past k that tested a bit of its own, or a live lane skipped, would
// change an answer), single or batch,
// short key or long.
TEST(BlockedKeyPaths, EveryKernelSetReadsExactlyTheKeysBits) {
  std::vector<uint32_t> ks;
  for (uint32_t k = 1; k <= 20; ++k) ks.push_back(k);
  for (uint32_t k : {24u, 25u, 31u, 32u, 33u, 63u, 64u}) ks.push_back(k);
  for (uint32_t flags : {0u, static_cast<uint32_t>(BLOOM_FLAG_CONCURRENT)})
    for (uint64_t seed : {uint64_t{0}, uint64_t{0x5eed}}) {
      for (uint32_t k : ks) {
        auto filter = make_blocked(1000, 1e-3, seed, k, flags);
        auto &blocked = static_cast<BlockedFilter &>(*filter);
        ASSERT_EQ(filter->config().hashes, k);
        // Test-only write access to the bits, to clear one at a time.
        auto *words = const_cast<uint64_t *>(blocked.bit_array().words());
        const uint64_t word_count = blocked.bit_array().word_count();
        for (size_t len : {size_t{3}, size_t{7}, size_t{12}, size_t{16}, size_t{40}}) {
          filter->clear();
          const std::string key = std::string(len, 'k').replace(0, 3, std::to_string(100 + k));
          filter->add_key(key.data(), key.size());
          const void *ptr = key.data();
          const auto answers = [&](uint8_t want) {
            for (const Kernels *set : kernel_sets()) {
              blocked.use_kernels(*set);
              ASSERT_EQ(filter->query_key(key.data(), key.size()), want) << set->name;
              uint8_t got = 2;
              filter->query_keys(&ptr, &len, 1, &got);
              ASSERT_EQ(got, want) << set->name << " batch";
            }
          };
          SCOPED_TRACE("k = " + std::to_string(k) + ", seed = " + std::to_string(seed) + ", key length " +
                       std::to_string(len) + ", flags = " + std::to_string(flags));
          answers(1);
          for (uint64_t w = 0; w < word_count; ++w) {
            for (uint64_t rest = words[w]; rest != 0; rest &= rest - 1) {
              const uint64_t bit = rest & (~rest + 1);
              words[w] ^= bit;
              answers(0);
              words[w] ^= bit;
            }
          }
        }
      }
    }
}

// The key paths are for the XXH3-64 layout (plain and concurrent) only;
// the other hashers keep the generic path and still answer.
TEST(BlockedKeyPaths, OnlyXxh3FiltersTakeTheKeyPaths) {
  for (int32_t hash : {BLOOM_HASH_MURMUR3, BLOOM_HASH_FNV1A, BLOOM_HASH_XXH3}) {
    for (uint32_t flags : {0u, static_cast<uint32_t>(BLOOM_FLAG_CONCURRENT)}) {
      bloom_options o = classic_options(500, 0.01);
      o.kind = BLOOM_KIND_BLOCKED;
      o.hash = hash;
      o.flags = flags;
      auto filter = core::create_filter(core::configure(capi::to_core_options(o)));
      EXPECT_EQ(filter->config().key_hash64(), hash == BLOOM_HASH_XXH3);
      EXPECT_EQ(filter->has_key_query(), hash == BLOOM_HASH_XXH3);
      EXPECT_EQ(filter->has_key_query_batch(), hash == BLOOM_HASH_XXH3);
      const auto keys = keys_of_all_lengths("k-", 5);
      for (const auto &k : keys) filter->add_key(k.data(), k.size());
      for (const auto &k : keys) ASSERT_TRUE(filter->query_key(k.data(), k.size())) << hash << " " << flags;
      // A clone installs its own paths, pointing at its own bits.
      const auto copy = filter->clone();
      filter->clear();
      EXPECT_EQ(copy->has_key_query(), filter->has_key_query());
      const KeyArrays a = key_arrays(keys);
      std::vector<uint8_t> got(keys.size(), 0);
      copy->query_keys(a.ptrs.data(), a.lens.data(), keys.size(), got.data());
      EXPECT_EQ(got, std::vector<uint8_t>(keys.size(), 1)) << hash << " " << flags;
    }
  }
}

// Adds keys through bloom_add's key-level add (Filter::add_key_installed,
// KeyKernels::add) of every kernel set, and expects exactly the bits of the
// generic path -- hash with the filter's Hasher, then set the line's bits
// through the portable loop -- and the key count.
void expect_key_level_add_matches_generic(uint64_t capacity, uint64_t seed, uint32_t k,
                                          const std::vector<std::string> &keys) {
  auto want = make_blocked(capacity, 1e-3, seed, k);
  auto &want_blocked = static_cast<BlockedFilter &>(*want);
  want_blocked.use_kernels(core::blocked::portable_kernels());
  for (const auto &key : keys) {
    const core::Hash128 h = want->hasher()(key.data(), key.size());
    // The portable line add: the bits blocked_line.hpp's layout pins.
    auto *words = const_cast<uint64_t *>(want_blocked.bit_array().words());
    ASSERT_TRUE(want->config().blocked_layout2());
    (void)core::blocked::line_add(words + core::reduce_range(h.h1, want_blocked.lines()) * 8,
                                  core::blocked::line_seed(h.h2), k, core::blocked::kSaltMultipliers.data());
  }
  for (const Kernels *set : kernel_sets()) {
    auto got = make_blocked(capacity, 1e-3, seed, k);
    auto &got_blocked = static_cast<BlockedFilter &>(*got);
    got_blocked.use_kernels(*set);
    ASSERT_TRUE(got->has_key_add()) << set->name;
    for (const auto &key : keys) got->add_key_installed(key.data(), key.size());
    EXPECT_EQ(got->keys_added(), keys.size());
    const uint64_t *g = got_blocked.bit_array().words();
    const uint64_t *w = want_blocked.bit_array().words();
    const uint64_t n = got_blocked.bit_array().word_count();
    const auto diff = std::mismatch(g, g + n, w);
    ASSERT_EQ(diff.first, g + n) << set->name << " k = " << k << " seed " << seed << " word "
                                 << (diff.first - g) << " capacity " << capacity;
  }
}

// Small filters (Kernels::add_exact_k_in_cache for k <= 16): every k, both
// seeds, every XXH3 length class.
TEST(BlockedKeyPaths, KeyLevelAddSetsExactlyTheGenericBits) {
  std::vector<uint32_t> ks;
  for (uint32_t k = 1; k <= 20; ++k) ks.push_back(k);
  for (uint32_t k : {24u, 31u, 33u, 64u}) ks.push_back(k);
  const auto keys = keys_of_all_lengths("add-", 6);
  for (uint64_t seed : {uint64_t{0}, uint64_t{0x5eed}})
    for (uint32_t k : ks) expect_key_level_add_matches_generic(2000, seed, k, keys);
}

// Filters past kScalarOrAddBytes take the one-bit windows
// (Kernels::add_exact_k) instead of the scalar ORs: the same bits.
TEST(BlockedKeyPaths, KeyLevelAddOfALargeFilterSetsExactlyTheGenericBits) {
  const uint64_t capacity = 3000000;
  {
    auto probe = make_blocked(capacity, 1e-3, 0, 12);
    const auto &blocked = static_cast<BlockedFilter &>(*probe);
    ASSERT_GT(blocked.bit_array().word_count() * sizeof(uint64_t), core::blocked::kScalarOrAddBytes);
  }
  const auto keys = keys_of_all_lengths("large-", 6);
  for (uint64_t seed : {uint64_t{0}, uint64_t{0x5eed}})
    for (uint32_t k : {1u, 7u, 8u, 9u, 12u, 16u, 17u})
      expect_key_level_add_matches_generic(capacity, seed, k, keys);
}

std::vector<const void *> pointers_of(const std::vector<std::string> &keys) {
  std::vector<const void *> ptrs;
  for (const auto &k : keys) ptrs.push_back(k.data());
  return ptrs;
}

std::vector<size_t> lengths_of(const std::vector<std::string> &keys) {
  std::vector<size_t> lens;
  for (const auto &k : keys) lens.push_back(k.size());
  return lens;
}

void expect_same_words(const BlockedFilter &got, const BlockedFilter &want, const std::string &what) {
  const uint64_t words = got.bit_array().word_count();
  ASSERT_EQ(words, want.bit_array().word_count()) << what;
  for (uint64_t w = 0; w < words; ++w)
    ASSERT_EQ(got.bit_array().words()[w], want.bit_array().words()[w]) << what << " word " << w;
}

// bloom_add_batch's key-level batch add (KeyAddPath::add_batch) sets exactly
// the bits of the portable line add (64-byte lines) or block add (split
// blocks) of each key's hash, for every kernel set, every k (the exact-k
// kernels and the any-k one), both seeds, every XXH3 length class and
// batches that cross the pipeline's blocks of 32 keys, in filters added to
// unstaged (up to kUnstagedAddBytes) and staged; and counts the keys.
TEST(BlockedKeyPaths, KeyLevelBatchAddSetsExactlyTheGenericBits) {
  std::vector<uint32_t> ks;  // 0: split blocks (k = 8)
  for (uint32_t k = 0; k <= 18; ++k) ks.push_back(k);
  for (uint32_t k : {31u, 64u}) ks.push_back(k);
  const auto keys = keys_of_all_lengths("batch-", 5);
  const auto ptrs = pointers_of(keys);
  const auto lens = lengths_of(keys);
  // 3000 keys: a few KiB; 600,000: over 1 MiB, past kUnstagedAddBytes.
  for (uint64_t capacity : {uint64_t{3000}, uint64_t{600000}})
    for (uint64_t seed : {uint64_t{0}, uint64_t{0x5eed}})
      for (uint32_t k : ks) {
        const bool split = k == 0;
        const uint32_t flags = split ? BLOOM_FLAG_SPLIT_BLOCK : 0;
        auto want = make_blocked(capacity, 1e-3, seed, split ? 0 : k, flags);
        auto &want_blocked = static_cast<BlockedFilter &>(*want);
        ASSERT_EQ(want_blocked.bit_array().byte_size() > core::blocked::kUnstagedAddBytes, capacity > 3000);
        auto *words = const_cast<uint64_t *>(want_blocked.bit_array().words());
        for (const auto &key : keys) {
          const core::Hash128 h = want->hasher()(key.data(), key.size());
          const uint64_t line = core::reduce_range(h.h1, want_blocked.lines());
          const uint32_t x = core::blocked::line_seed(h.h2);
          if (split)
            (void)core::split_block::block_add(words + line * 4, x);
          else
            (void)core::blocked::line_add(words + line * 8, x, k, core::blocked::kSaltMultipliers.data());
        }
        for (const Kernels *set : kernel_sets())
          for (size_t n : {size_t{1}, size_t{31}, size_t{32}, size_t{33}, keys.size()}) {
            if (capacity > 3000 && n < 32) continue;  // the large filter's compares are the slow part
            auto got = make_blocked(capacity, 1e-3, seed, split ? 0 : k, flags);
            auto &got_blocked = static_cast<BlockedFilter &>(*got);
            got_blocked.use_kernels(*set);
            ASSERT_TRUE(got->has_key_add_batch()) << set->name;
            // The first n keys in one call, the rest in a second.
            got->add_keys(ptrs.data(), lens.data(), n);
            got->add_keys(ptrs.data() + n, lens.data() + n, keys.size() - n);
            EXPECT_EQ(got->keys_added(), keys.size());
            expect_same_words(got_blocked, want_blocked,
                              std::string(set->name) + " capacity " + std::to_string(capacity) +
                                  " k = " + std::to_string(k) + " seed " + std::to_string(seed) + " n " +
                                  std::to_string(n));
          }
      }
}

// Filters whose adds must go through the checked path have no key-level
// add: concurrent ones (atomic ORs, striped counts) and read-only mappings.
TEST(BlockedKeyPaths, ConcurrentFiltersTakeTheCheckedAdd) {
  auto filter = make_blocked(1000, 1e-3, 0, 0, BLOOM_FLAG_CONCURRENT);
  EXPECT_FALSE(filter->has_key_add());
  EXPECT_FALSE(filter->has_key_add_batch());
  filter->add_key("k", 1);
  EXPECT_EQ(filter->query_key("k", 1), 1);
  EXPECT_EQ(filter->keys_added(), 1u);
}

}  // namespace
}  // namespace bloom::test
