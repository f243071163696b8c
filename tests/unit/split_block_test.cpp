// SPDX-License-Identifier: Apache-2.0
// The split-block option of the blocked kind (BLOOM_FLAG_SPLIT_BLOCK,
// split_block.hpp): validation, no false negatives on every path, the
// measured rate at or under p at several (n, p), every kernel set setting
// and reading exactly the layout's bits, concurrent adds, the format (1.4,
// round trip, merge refusals) and the sizing model.
#include "kinds/split_block.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "c_options.hpp"
#include "configure.hpp"
#include "kinds/blocked.hpp"
#include "kinds/registry.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

using core::BlockedFilter;
using core::blocked::Kernels;
namespace sb = core::split_block;

bloom_options split_options(uint64_t n, double p, uint32_t extra_flags = 0) {
  bloom_options o = classic_options(n, p);
  o.kind = BLOOM_KIND_BLOCKED;
  o.flags = BLOOM_FLAG_SPLIT_BLOCK | extra_flags;
  return o;
}

std::vector<const Kernels *> kernel_sets() {
  std::vector<const Kernels *> sets{&core::blocked::portable_kernels()};
  if (core::blocked::avx2_kernels() != nullptr) sets.push_back(core::blocked::avx2_kernels());
  return sets;
}

TEST(SplitBlock, ShapeAndInfo) {
  FilterPtr f = make_filter(split_options(1000000, 1e-4));
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.hashes, 8u);
  EXPECT_EQ(info.bits % 256, 0u);
  EXPECT_EQ(info.flags & BLOOM_FLAG_SPLIT_BLOCK, BLOOM_FLAG_SPLIT_BLOCK);
  EXPECT_EQ(info.format_minor, 4);
  // 26.34 bits per key at 1e-4 by the model (python: 256 / 9.7185).
  EXPECT_NEAR(static_cast<double>(info.bits) / 1e6, 26.34, 0.01);
  EXPECT_LE(sb::model_fp_rate(1e6, info.bits / 256), 1e-4);
  EXPECT_GT(sb::model_fp_rate(1e6, info.bits / 256 - 1), 1e-4);
}

TEST(SplitBlock, Validation) {
  bloom_filter *f = nullptr;
  bloom_options o = split_options(1000, 0.01);
  o.kind = BLOOM_KIND_CLASSIC;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG);
  EXPECT_NE(std::string(bloom_last_error()).find("blocked filters only"), std::string::npos);
  o = split_options(1000, 0.01);
  o.hashes = 7;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG);
  o.hashes = 8;
  o.bits = 256 * 3 + 64;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG);
  o.bits = 256 * 3;  // a multiple of 256 but not 512: fine for split blocks
  ASSERT_EQ(bloom_create(&o, &f), BLOOM_OK);
  bloom_destroy(f);
  o.flags |= BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG);
}

// No false negative through any path, and the measured rate at most p
// (plus 4 sigma of binomial noise) at several n and p, for each hasher.
void check_rate(uint64_t n, double p, size_t absent_count, int hash) {
  bloom_options o = split_options(n, p);
  o.hash = hash;
  FilterPtr single = make_filter(o);
  FilterPtr batch = make_filter(o);
  const auto keys = make_keys("split-present-", n);
  add_all(single.get(), keys);
  ASSERT_EQ(add_all_batch(batch.get(), keys), BLOOM_OK);
  EXPECT_EQ(count_positive(single.get(), keys), keys.size()) << "false negative";
  EXPECT_EQ(count_positive(batch.get(), keys), keys.size()) << "false negative (batch add)";
  EXPECT_EQ(serialize(single.get()), serialize(batch.get()));
  const auto absent = make_keys("split-absent-", absent_count);
  const KeyArrays a = key_arrays(absent);
  std::vector<uint8_t> got(absent.size());
  ASSERT_EQ(bloom_query_batch(single.get(), a.ptrs.data(), a.lens.data(), absent.size(), got.data()),
            BLOOM_OK);
  size_t fp = 0;
  for (size_t i = 0; i < absent.size(); ++i) {
    ASSERT_EQ(got[i], bloom_query(single.get(), absent[i].data(), absent[i].size()));
    fp += got[i];
  }
  const double sigma = std::sqrt(absent.size() * p * (1 - p));
  EXPECT_LE(static_cast<double>(fp), absent.size() * p + 4 * sigma)
      << "n=" << n << " p=" << p << " hash=" << hash << " measured "
      << static_cast<double>(fp) / absent.size();
}

TEST(SplitBlock, FprAtMostPAcrossShapes) {
  check_rate(100000, 0.01, 400000, BLOOM_HASH_XXH3);
  check_rate(200000, 1e-3, 1000000, BLOOM_HASH_XXH3);
  check_rate(1000000, 1e-4, 2000000, BLOOM_HASH_XXH3);
  check_rate(1000, 0.05, 200000, BLOOM_HASH_XXH3);
  check_rate(100000, 0.01, 400000, BLOOM_HASH_MURMUR3);
  check_rate(100000, 0.01, 400000, BLOOM_HASH_FNV1A);
}

// Every kernel set's block add and query match the portable layout bit
// for bit (the scalar fallback gives the AVX2 path's bits), on random
// backgrounds.
TEST(SplitBlock, EveryKernelSetSetsAndReadsTheLayoutsBits) {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 20000; ++trial) {
    const auto x = static_cast<uint32_t>(rng());
    uint64_t mask[sb::kBlockWords];
    sb::block_mask(x, mask);
    // The layout: bit (x * M_i) >> 27 of 32-bit word i, nothing else.
    uint64_t want_mask[sb::kBlockWords] = {};
    for (uint32_t i = 0; i < 8; ++i) {
      const uint32_t bit = i * 32 + ((x * core::blocked::kSaltMultipliers[i]) >> 27);
      want_mask[bit / 64] |= uint64_t{1} << (bit % 64);
    }
    ASSERT_EQ(std::memcmp(mask, want_mask, sizeof mask), 0);
    uint64_t background[sb::kBlockWords];
    for (auto &w : background) w = rng() & rng() & (trial % 2 ? rng() : ~uint64_t{0});
    bool want_all = true;
    for (uint32_t w = 0; w < sb::kBlockWords; ++w) want_all &= (background[w] & mask[w]) == mask[w];
    for (const Kernels *s : kernel_sets()) {
      alignas(32) uint64_t block[sb::kBlockWords];
      std::memcpy(block, background, sizeof block);
      EXPECT_EQ(s->split_query(block, x), want_all) << s->name;
      EXPECT_EQ(s->split_add(block, x), want_all) << s->name;
      for (uint32_t w = 0; w < sb::kBlockWords; ++w) ASSERT_EQ(block[w], background[w] | mask[w]) << s->name;
      EXPECT_TRUE(s->split_query(block, x)) << s->name;
    }
  }
}

// The key-level paths (XXH3-64: query, batch query, add) of every kernel
// set agree with the generic Hash128 path key by key, and clearing any one
// of a key's 8 bits makes every path answer 0.
TEST(SplitBlock, KeyPathsOfEveryKernelSetAgree) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{0x5eed}})
    for (uint32_t flags : {0u, static_cast<uint32_t>(BLOOM_FLAG_CONCURRENT)}) {
      bloom_options o = split_options(500, 0.01, flags);
      o.seed = seed;
      std::vector<std::string> keys;
      for (size_t len : {0, 1, 3, 4, 8, 9, 16, 17, 40, 200})
        for (int i = 0; i < 20; ++i) {
          std::string k = std::to_string(i) + "-" + std::to_string(len) + "-";
          k.resize(len, static_cast<char>('a' + i));
          keys.push_back(k);
        }
      auto reference = core::create_filter(core::configure(capi::to_core_options(o)));
      static_cast<BlockedFilter &>(*reference).use_kernels(core::blocked::portable_kernels());
      for (const auto &k : keys) reference->add_key(k.data(), k.size());
      for (const Kernels *s : kernel_sets()) {
        auto f = core::create_filter(core::configure(capi::to_core_options(o)));
        auto &blocked = static_cast<BlockedFilter &>(*f);
        blocked.use_kernels(*s);
        EXPECT_TRUE(f->has_key_query());
        for (const auto &k : keys) {
          if (f->has_key_add())
            f->add_key_installed(k.data(), k.size());
          else
            f->add_key(k.data(), k.size());
        }
        EXPECT_EQ(f->keys_added(), keys.size());
        const auto &a = blocked.bit_array();
        const auto &b = static_cast<BlockedFilter &>(*reference).bit_array();
        ASSERT_EQ(std::memcmp(a.words(), b.words(), a.byte_size()), 0) << s->name;
        // Each key alone: clearing any of its bits turns every answer to 0.
        for (size_t i = 0; i < keys.size(); i += 17) {
          f->clear();
          f->add_key(keys[i].data(), keys[i].size());
          auto *words = const_cast<uint64_t *>(a.words());
          const void *ptr = keys[i].data();
          const size_t len = keys[i].size();
          auto answers = [&](uint8_t want) {
            ASSERT_EQ(f->query_key(keys[i].data(), len), want) << s->name;
            uint8_t got = 2;
            f->query_keys(&ptr, &len, 1, &got);
            ASSERT_EQ(got, want) << s->name;
            ASSERT_EQ(f->query(f->hasher()(keys[i].data(), len)) ? 1 : 0, want) << s->name;
          };
          answers(1);
          int bits = 0;
          for (uint64_t w = 0; w < a.word_count(); ++w)
            for (uint64_t rest = words[w]; rest != 0; rest &= rest - 1) {
              const uint64_t bit = rest & (~rest + 1);
              words[w] ^= bit;
              answers(0);
              words[w] ^= bit;
              ++bits;
            }
          EXPECT_EQ(bits, 8);
        }
      }
    }
}

TEST(SplitBlock, SaveLoadRoundTripAndMergeRules) {
  FilterPtr f = make_filter(split_options(10000, 0.01));
  const auto keys = make_keys("k-", 10000);
  add_all(f.get(), keys);
  const std::vector<unsigned char> bytes = serialize(f.get());
  // Format 1.4 in the header (offset 10: minor, little-endian).
  ASSERT_GT(bytes.size(), 12u);
  EXPECT_EQ(bytes[10] | (bytes[11] << 8), 4);
  bloom_filter *g = nullptr;
  ASSERT_EQ(bloom_deserialize(bytes.data(), bytes.size(), &g), BLOOM_OK);
  FilterPtr loaded(g);
  EXPECT_EQ(count_positive(loaded.get(), keys), keys.size());
  EXPECT_EQ(serialize(loaded.get()), bytes);
  // A 64-byte blocked filter of the same m and k does not merge with it.
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
  bloom_options o = classic_options(10000, 0.01);
  o.kind = BLOOM_KIND_BLOCKED;
  o.bits = info.bits - info.bits % 512;
  o.hashes = 8;
  FilterPtr plain = make_filter(o);
  o.flags = BLOOM_FLAG_SPLIT_BLOCK;
  FilterPtr split_same = make_filter(o);
  EXPECT_EQ(bloom_merge(plain.get(), split_same.get()), BLOOM_E_INCOMPATIBLE);
  EXPECT_NE(std::string(bloom_last_error()).find("block size"), std::string::npos);
  FilterPtr split_other = make_filter(o);
  EXPECT_EQ(bloom_merge(split_other.get(), split_same.get()), BLOOM_OK);
}

// Two threads adding into one concurrent split-block filter (single adds
// and batches), a third querying keys already in: no key is lost, none
// read as absent once added, and the count is exact (TSan runs this:
// *Concurren*).
TEST(SplitBlock, ConcurrentAddsLoseNoKey) {
  FilterPtr f = make_filter(split_options(40000, 0.01, BLOOM_FLAG_CONCURRENT));
  const auto a = make_keys("thread-a-", 20000);
  const auto b = make_keys("thread-b-", 20000);
  const auto early = make_keys("early-", 1000);
  add_all(f.get(), early);
  std::thread ta([&] { add_all(f.get(), a); });
  std::thread tb([&] { EXPECT_EQ(add_all_batch(f.get(), b), BLOOM_OK); });
  size_t early_hits = 0;
  for (int pass = 0; pass < 5; ++pass) early_hits += count_positive(f.get(), early);
  ta.join();
  tb.join();
  EXPECT_EQ(early_hits, 5 * early.size());
  EXPECT_EQ(count_positive(f.get(), a), a.size());
  EXPECT_EQ(count_positive(f.get(), b), b.size());
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.keys_added, early.size() + a.size() + b.size());
}

// The model against a direct simulation of its own assumption: c keys in a
// block set one uniform bit per word each. Monte Carlo at lambda = 9.72 (the
// 1e-4 sizing) within 5%, and exact at lambda -> 0.
TEST(SplitBlock, ModelMatchesSimulation) {
  EXPECT_EQ(sb::model_fp_rate(0.0, 10), 0.0);
  std::mt19937_64 rng(5);
  const uint64_t blocks = 20000;
  const double n = 9.7185 * blocks;
  std::vector<uint64_t> words(blocks * sb::kBlockWords);
  for (uint64_t i = 0; i < static_cast<uint64_t>(n); ++i) {
    const uint64_t b = rng() % blocks;
    uint64_t mask[sb::kBlockWords];
    sb::block_mask(static_cast<uint32_t>(rng()), mask);
    for (uint32_t w = 0; w < sb::kBlockWords; ++w) words[b * sb::kBlockWords + w] |= mask[w];
  }
  double rate = 0;
  for (uint64_t b = 0; b < blocks; ++b) rate += sb::block_fp_rate(&words[b * sb::kBlockWords]);
  rate /= static_cast<double>(blocks);
  const double model = sb::model_fp_rate(n, blocks);
  EXPECT_NEAR(rate, model, 0.05 * model);
  EXPECT_NEAR(model, 1e-4, 0.01e-4);
}

}  // namespace
}  // namespace bloom::test
