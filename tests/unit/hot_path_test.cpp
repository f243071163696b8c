// SPDX-License-Identifier: Apache-2.0
// The fast paths of issue 4: the per-thread add counter of concurrent filters
// and the classic kind's grouped probes and prefetching batch paths. Each
// test checks an answer (counts, no false negatives, batch == single), never
// a time.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "striped_counter.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

TEST(StripedCounter, SumsAddsFromManyThreads) {
  core::StripedCounter c;
  std::vector<std::thread> threads;
  for (int t = 0; t < 20; ++t)  // more threads than stripes: some share one
    threads.emplace_back([&c] {
      for (int i = 0; i < 5000; ++i) c.add(1);
      c.add(7);
    });
  for (auto &th : threads) th.join();
  EXPECT_EQ(c.load(), 20u * (5000 + 7));
  c.store(3);
  EXPECT_EQ(c.load(), 3u);
}

TEST(ConcurrentAdd, EveryThreadsAddsAreCountedAndFound) {
  bloom_options o = classic_options(40000, 0.01);
  o.flags = BLOOM_FLAG_CONCURRENT;
  FilterPtr f = make_filter(o);
  std::vector<std::vector<std::string>> parts;
  for (int t = 0; t < 4; ++t) parts.push_back(make_keys("t" + std::to_string(t) + "-", 5000));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      if (t % 2) {
        add_all(f.get(), parts[t]);
      } else {
        EXPECT_EQ(add_all_batch(f.get(), parts[t]), BLOOM_OK);
      }
    });
  for (auto &th : threads) th.join();
  EXPECT_EQ(keys_added(f.get()), 20000u);
  for (const auto &part : parts) EXPECT_EQ(count_positive(f.get(), part), part.size());

  // The count survives clone, adds up in merge and resets on clear.
  bloom_filter *copy = nullptr;
  ASSERT_EQ(bloom_clone(f.get(), &copy), BLOOM_OK);
  FilterPtr c(copy);
  EXPECT_EQ(keys_added(c.get()), 20000u);
  ASSERT_EQ(bloom_merge(c.get(), f.get()), BLOOM_OK);
  EXPECT_EQ(keys_added(c.get()), 40000u);
  ASSERT_EQ(bloom_clear(c.get()), BLOOM_OK);
  EXPECT_EQ(keys_added(c.get()), 0u);
}

// Batch answers must equal single-key answers for hits and misses, for k
// below, at and above the probe group of 4, with both probe schemes and both
// memory models (the batch paths prefetch and dispatch differently).
TEST(ClassicHotPath, BatchQueryEqualsSingleQueryForEveryK) {
  const auto added = make_keys("in-", 3000);
  const auto absent = make_keys("out-", 20000);
  for (uint32_t k : {1u, 3u, 4u, 5u, 8u, 13u}) {
    for (uint32_t flags : {0u, BLOOM_FLAG_PLAIN_DOUBLE_HASHING, BLOOM_FLAG_CONCURRENT}) {
      bloom_options o = classic_options(3000, 0.01);
      o.bits = 3000 * 10;
      o.hashes = k;
      o.flags = flags;
      FilterPtr f = make_filter(o);
      ASSERT_EQ(add_all_batch(f.get(), added), BLOOM_OK);
      for (const auto *set : {&added, &absent}) {
        const KeyArrays q = key_arrays(*set);
        std::vector<uint8_t> results(set->size());
        ASSERT_EQ(bloom_query_batch(f.get(), q.ptrs.data(), q.lens.data(), set->size(), results.data()),
                  BLOOM_OK);
        size_t hits = 0;
        for (size_t i = 0; i < set->size(); ++i) {
          const int single = bloom_query(f.get(), q.ptrs[i], q.lens[i]);
          ASSERT_EQ(single, results[i]) << "k=" << k << " flags=" << flags << " key " << (*set)[i];
          hits += results[i];
        }
        if (set == &added) {
          EXPECT_EQ(hits, added.size()) << "false negative, k=" << k << " flags=" << flags;
        }
        // At 10 bits per key the expected rate is at most 0.095 (k = 1:
        // 1 - e^-0.1); a quarter of 20,000 is over 40 sigma above that, so
        // only probes that never miss could fail this.
        if (set == &absent) {
          EXPECT_LT(hits, absent.size() / 4) << "k=" << k << " flags=" << flags;
        }
      }
    }
  }
}

}  // namespace
}  // namespace bloom::test
