// SPDX-License-Identifier: Apache-2.0
// BLOOM_FLAG_CONCURRENT for the bit kinds (classic, partitioned, blocked):
// adds from several threads lose nothing, queries run alongside, and
// test-and-add of one new key from several threads says "new" exactly once.
// Meant to run under ThreadSanitizer too (-DBLOOM_SANITIZE=thread), so the
// sizes are modest.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <latch>
#include <thread>
#include <vector>

#include "test_util.hpp"

namespace bloom::test {
namespace {

constexpr int kThreads = 4;  // the writer prefixes below assume 4

class Concurrent : public ::testing::TestWithParam<int> {
 protected:
  bloom_options options(uint64_t n, double p) const {
    bloom_options o = classic_options(n, p);
    o.kind = GetParam();
    o.flags = BLOOM_FLAG_CONCURRENT;
    return o;
  }
};

std::string kind_name(const ::testing::TestParamInfo<int> &info) { return bloom_kind_name(info.param); }

INSTANTIATE_TEST_SUITE_P(Kinds, Concurrent,
                         ::testing::Values(BLOOM_KIND_CLASSIC, BLOOM_KIND_PARTITIONED, BLOOM_KIND_BLOCKED),
                         kind_name);

// The serialized payload (docs/FORMAT.md: a 128-byte header, the payload,
// an 8-byte checksum): the bits alone, without the header's flags.
std::vector<unsigned char> payload(const bloom_filter *f) {
  const std::vector<unsigned char> file = serialize(f);
  EXPECT_GE(file.size(), 136u);
  return {file.begin() + 128, file.end() - 8};
}

void add_batch(bloom_filter *f, const std::vector<std::string> &keys) {
  EXPECT_EQ(add_all_batch(f, keys), BLOOM_OK);
}

TEST_P(Concurrent, FourWritersLoseNothingWhileAReaderQueries) {
  constexpr size_t kPerThread = 20000;
  const bloom_options o = options(kThreads * kPerThread + 1000, 0.01);
  FilterPtr shared = make_filter(o);
  // Keys present before the writers start: the reader must see every one of
  // them at every moment.
  const auto early = make_keys("early-", 1000);
  add_all(shared.get(), early);

  std::vector<std::vector<std::string>> sets;
  for (const char *prefix : {"t0-", "t1-", "t2-", "t3-"}) sets.push_back(make_keys(prefix, kPerThread));

  std::latch start(kThreads + 1);
  std::atomic<bool> writing{true};
  std::atomic<size_t> reader_misses{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      if (t % 2 == 0) {  // half the writers add one by one, half in batches
        for (const auto &k : sets[t]) EXPECT_EQ(bloom_add(shared.get(), k.data(), k.size()), BLOOM_OK);
      } else {
        add_batch(shared.get(), sets[t]);
      }
    });
  }
  // The reader asks one key at a time and in batches: both have paths of
  // their own (for blocked XXH3 filters, kernels that load the line
  // atomically), and TSan checks them against the writers.
  std::thread reader([&] {
    const KeyArrays a = key_arrays(early);
    std::vector<uint8_t> out(early.size());
    start.arrive_and_wait();
    do {
      reader_misses += early.size() - count_positive(shared.get(), early);
      if (bloom_query_batch(shared.get(), a.ptrs.data(), a.lens.data(), early.size(), out.data()) != BLOOM_OK)
        reader_misses += early.size();
      for (uint8_t answer : out) reader_misses += answer == 1 ? 0 : 1;
    } while (writing.load());
  });
  for (auto &th : threads) th.join();
  writing = false;
  reader.join();
  EXPECT_EQ(reader_misses.load(), 0u);

  // Nothing lost, and the bits are exactly those of a one-thread build: a
  // Bloom filter is an OR of its keys' bits, whatever the order.
  FilterPtr serial = make_filter(o);
  add_all(serial.get(), early);
  for (const auto &s : sets) {
    EXPECT_EQ(count_positive(shared.get(), s), s.size());
    add_all(serial.get(), s);
  }
  EXPECT_EQ(serialize(shared.get()), serialize(serial.get()));
}

TEST_P(Concurrent, TestAndAddOfTheSameKeysSaysNewExactlyOnce) {
  // Filled to 10% of capacity at p = 1e-4, a key's bits are all set by other
  // keys with probability below 1e-12, so every key must be reported new by
  // exactly one thread.
  constexpr size_t kKeys = 20000;
  FilterPtr f = make_filter(options(kKeys * 10, 0.0001));
  const auto keys = make_keys("dedup-", kKeys);
  std::vector<std::atomic<int>> news(kKeys);
  std::atomic<int> errors{0};
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      start.arrive_and_wait();
      // Same order in every thread: the threads race on the same key.
      for (size_t i = 0; i < kKeys; ++i) {
        const int r = bloom_test_and_add(f.get(), keys[i].data(), keys[i].size());
        if (r == 0)
          news[i].fetch_add(1);
        else if (r != 1)
          errors.fetch_add(1);
      }
    });
  }
  for (auto &th : threads) th.join();
  EXPECT_EQ(errors.load(), 0);
  size_t wrong = 0;
  for (size_t i = 0; i < kKeys; ++i) wrong += news[i].load() != 1;
  EXPECT_EQ(wrong, 0u);
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.keys_added, kKeys);  // counted once per new key
  EXPECT_EQ(count_positive(f.get(), keys), kKeys);
}

TEST_P(Concurrent, TestAndAddRacesPlainAddsWithoutLosingKeys) {
  // Two threads test-and-add, two add the same keys plainly: every key ends
  // present, and test-and-add never reports one key new twice.
  constexpr size_t kKeys = 10000;
  FilterPtr f = make_filter(options(kKeys * 10, 0.0001));
  const auto keys = make_keys("mix-", kKeys);
  std::vector<std::atomic<int>> news(kKeys);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (size_t i = 0; i < kKeys; ++i) {
        if (t < 2) {
          if (bloom_test_and_add(f.get(), keys[i].data(), keys[i].size()) == 0) news[i].fetch_add(1);
        } else {
          EXPECT_EQ(bloom_add(f.get(), keys[i].data(), keys[i].size()), BLOOM_OK);
        }
      }
    });
  }
  for (auto &th : threads) th.join();
  size_t twice = 0;
  for (size_t i = 0; i < kKeys; ++i) twice += news[i].load() > 1;
  EXPECT_EQ(twice, 0u);
  EXPECT_EQ(count_positive(f.get(), keys), kKeys);
}

// Two threads add disjoint keys through bloom_add_batch, in batches larger
// than the blocks the library cuts them into, so both threads write the
// same regions of the array at once (the blocked kind sorts a batch by
// region and locks each; the others prefetch ahead and OR atomically).
// Every key is found, and the bits are exactly a plain filter's: the
// concurrent mode changes how bits are set, never which.
TEST_P(Concurrent, TwoBatchWritersOfDisjointKeysMatchAPlainFilter) {
  constexpr size_t kPerThread = 30000;
  constexpr size_t kBatch = 3000;
  std::vector<uint32_t> flag_sets = {0};
  if (bloom_kind_caps(GetParam()) & BLOOM_CAP_SPLIT_BLOCK) flag_sets.push_back(BLOOM_FLAG_SPLIT_BLOCK);
  for (const uint32_t extra : flag_sets) {
    SCOPED_TRACE(extra);
    bloom_options o = options(2 * kPerThread, 0.01);
    o.flags |= extra;
    FilterPtr shared = make_filter(o);
    const std::vector<std::vector<std::string>> sets = {make_keys("left-", kPerThread),
                                                        make_keys("right-", kPerThread)};
    std::latch start(2);
    std::vector<std::thread> threads;
    for (const auto &keys : sets) {
      threads.emplace_back([&] {
        const KeyArrays a = key_arrays(keys);
        start.arrive_and_wait();
        for (size_t s = 0; s < keys.size(); s += kBatch) {
          const size_t count = std::min(kBatch, keys.size() - s);
          EXPECT_EQ(bloom_add_batch(shared.get(), &a.ptrs[s], &a.lens[s], count), BLOOM_OK);
        }
      });
    }
    for (auto &th : threads) th.join();

    bloom_options plain_options = o;
    plain_options.flags &= ~BLOOM_FLAG_CONCURRENT;
    FilterPtr plain = make_filter(plain_options);
    for (const auto &keys : sets) {
      EXPECT_EQ(count_positive(shared.get(), keys), keys.size());
      EXPECT_EQ(add_all_batch(plain.get(), keys), BLOOM_OK);
    }
    EXPECT_EQ(payload(shared.get()), payload(plain.get()));
    const auto absent = make_keys("absent-", 20000);
    EXPECT_EQ(count_positive(shared.get(), absent), count_positive(plain.get(), absent));
  }
}

}  // namespace
}  // namespace bloom::test
