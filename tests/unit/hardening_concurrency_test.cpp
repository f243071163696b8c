// SPDX-License-Identifier: Apache-2.0
// hardening_concurrency_test.cpp -- the thread-safety promises of bloom.h, exercised
// so the TSan build (.ci/steps.d/20-tsan.sh runs every test whose name has
// "Concurren" in it) can see any data race: concurrent adds and queries on a
// BLOOM_FLAG_CONCURRENT filter, test_and_add races, and concurrent
// read-only calls (query, serialize, clone, get_info) on any filter.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "hardening_util.hpp"

namespace bloom::test {
namespace {

constexpr int kThreads = 4;
constexpr size_t kKeysPerThread = 2000;

class Concurrency : public ::testing::TestWithParam<int> {};

// The kinds that take BLOOM_FLAG_CONCURRENT; scalable refuses it
// (Scalable.ParametersAreValidated checks that refusal).
constexpr int kConcurrentKinds[] = {BLOOM_KIND_CLASSIC, BLOOM_KIND_PARTITIONED, BLOOM_KIND_BLOCKED,
                                    BLOOM_KIND_COUNTING};

// Creates a concurrent filter of the kind.
#define BLOOM_MAKE_CONCURRENT(options, ptr)                                           \
  do {                                                                                \
    bloom_filter *bloom_raw_ = nullptr;                                               \
    ASSERT_EQ(bloom_create(&(options), &bloom_raw_), BLOOM_OK) << bloom_last_error(); \
    (ptr).reset(bloom_raw_);                                                          \
  } while (0)

TEST_P(Concurrency, ConcurrentAddsAndQueriesLoseNoKey) {
  bloom_options o = small_options(GetParam(), BLOOM_HASH_XXH3);
  o.capacity = kThreads * kKeysPerThread;
  o.flags = BLOOM_FLAG_CONCURRENT;
  FilterPtr f;
  BLOOM_MAKE_CONCURRENT(o, f);
  std::atomic<size_t> missing{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const auto keys = make_keys("t" + std::to_string(t) + "-", kKeysPerThread);
      for (const auto &k : keys) {
        bloom_add(f.get(), k.data(), k.size());
        // Read-your-own-write: the key is there at once.
        if (bloom_query(f.get(), k.data(), k.size()) != 1) missing.fetch_add(1);
      }
    });
  }
  for (auto &th : threads) th.join();
  EXPECT_EQ(missing.load(), 0u);
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(count_positive(f.get(), make_keys("t" + std::to_string(t) + "-", kKeysPerThread)),
              kKeysPerThread);
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.keys_added, uint64_t{kThreads} * kKeysPerThread);
}

TEST_P(Concurrency, ConcurrentTestAndAddTellsExactlyOneThreadTheKeyWasNew) {
  bloom_options o = small_options(GetParam(), BLOOM_HASH_XXH3);
  o.capacity = 100000;
  o.flags = BLOOM_FLAG_CONCURRENT;
  FilterPtr f;
  BLOOM_MAKE_CONCURRENT(o, f);
  const auto keys = make_keys("shared-", 500);
  std::vector<std::atomic<int>> new_count(keys.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (size_t i = 0; i < keys.size(); ++i)
        if (bloom_test_and_add(f.get(), keys[i].data(), keys[i].size()) == 0) new_count[i].fetch_add(1);
    });
  for (auto &th : threads) th.join();
  // A key can be reported "maybe present" to everyone only if it collided
  // with earlier keys (a false positive); at 100,000 capacity and 500 keys
  // that is rare but possible, so only "at most one" is certain.
  size_t exactly_one = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_LE(new_count[i].load(), 1) << keys[i] << " was reported new to several threads";
    exactly_one += new_count[i].load() == 1 ? 1 : 0;
  }
  EXPECT_GE(exactly_one, keys.size() - 5) << "too many keys reported present to all threads";
}

// Read-only calls from many threads on one filter of any kind.
TEST_P(Concurrency, ConcurrentReadOnlyCallsAgree) {
  FilterPtr f;
  BLOOM_MAKE_OR_SKIP(GetParam(), BLOOM_HASH_XXH3, &f);
  const auto expected_answers = answers(f.get());
  const auto expected_bytes = serialize(f.get());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      if (answers(f.get()) != expected_answers) wrong.fetch_add(1);
      size_t size = 0, written = 0;
      if (bloom_serialized_size(f.get(), &size) != BLOOM_OK) wrong.fetch_add(1);
      std::vector<unsigned char> buf(size);
      if (bloom_serialize(f.get(), buf.data(), buf.size(), &written) != BLOOM_OK || buf != expected_bytes)
        wrong.fetch_add(1);
      bloom_filter *c = nullptr;
      if (bloom_clone(f.get(), &c) != BLOOM_OK) wrong.fetch_add(1);
      bloom_destroy(c);
      bloom_info info;
      info.struct_size = sizeof info;
      if (bloom_get_info(f.get(), &info) != BLOOM_OK) wrong.fetch_add(1);
    });
  for (auto &th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(ConcurrentKinds, Concurrency, ::testing::ValuesIn(kConcurrentKinds),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return std::string(bloom_kind_name(info.param));
                         });

}  // namespace
}  // namespace bloom::test
