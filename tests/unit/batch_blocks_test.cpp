// SPDX-License-Identifier: Apache-2.0
// Batch calls work through their keys in blocks, software-pipelined: the next
// block is hashed and its memory prefetched before the current one is added
// or probed. These tests cut the same keys into batches of every size around
// the block edges (1, 31, 32, 33, 64, 65, 97 and all at once) and check that
// every kind, hasher and concurrency flag ends with exactly the filter that
// single adds build, and that batch answers equal single answers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hardening_util.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

struct Case {
  int kind;
  int hash;
  uint32_t flags;
};

std::string name_of(const ::testing::TestParamInfo<Case> &info) {
  std::string name = std::string(bloom_kind_name(info.param.kind)) + "_" + bloom_hash_name(info.param.hash);
  if (info.param.flags & BLOOM_FLAG_CONCURRENT) name += "_concurrent";
  return name;
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (int kind : kAllKinds)
    for (int hash : kAllHashes) {
      all.push_back({kind, hash, 0});
      // Scalable filters refuse the concurrent flag.
      if (kind != BLOOM_KIND_SCALABLE) all.push_back({kind, hash, BLOOM_FLAG_CONCURRENT});
    }
  return all;
}

class BatchBlocks : public ::testing::TestWithParam<Case> {
 protected:
  bloom_options options() const {
    bloom_options o = classic_options(3000, 0.01);
    o.kind = static_cast<bloom_kind>(GetParam().kind);
    o.hash = static_cast<bloom_hash>(GetParam().hash);
    o.flags = GetParam().flags;
    return o;
  }
};

constexpr size_t kSizes[] = {1, 31, 32, 33, 64, 65, 97, 0 /* all at once */};

// Keys of 0 to 40 bytes, so every XXH3 length class and the long-key path
// fall inside each block. Truncation makes some short keys repeat; both
// filters of a comparison see the same sequence, so that is harmless.
std::vector<std::string> mixed_length_keys(const std::string &prefix, size_t n) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) {
    std::string k = prefix + std::to_string(i);
    k.resize((i * 7) % 41, static_cast<char>('a' + i % 26));
    keys.push_back(k);
  }
  return keys;
}

TEST_P(BatchBlocks, BatchAddsOfEverySizeBuildTheSingleAddFilter) {
  const auto keys = mixed_length_keys("add-", 1000);
  FilterPtr single = make_filter(options());
  add_all(single.get(), keys);
  const auto want = serialize(single.get());
  const KeyArrays a = key_arrays(keys);
  for (size_t n : kSizes) {
    const size_t step = n == 0 ? keys.size() : n;
    FilterPtr batch = make_filter(options());
    for (size_t start = 0; start < keys.size(); start += step) {
      const size_t count = std::min(step, keys.size() - start);
      ASSERT_EQ(bloom_add_batch(batch.get(), &a.ptrs[start], &a.lens[start], count), BLOOM_OK)
          << bloom_last_error();
    }
    EXPECT_EQ(serialize(batch.get()), want) << "batches of " << step;
  }
}

TEST_P(BatchBlocks, BatchQueriesOfEverySizeAnswerLikeSingleQueries) {
  const auto present = mixed_length_keys("in-", 1000);
  FilterPtr f = make_filter(options());
  add_all(f.get(), present);
  std::vector<std::string> probes = present;
  const auto absent = mixed_length_keys("out-", 1000);
  probes.insert(probes.end(), absent.begin(), absent.end());
  std::vector<uint8_t> want;
  for (const auto &k : probes) want.push_back(static_cast<uint8_t>(bloom_query(f.get(), k.data(), k.size())));
  const KeyArrays a = key_arrays(probes);
  for (size_t n : kSizes) {
    const size_t step = n == 0 ? probes.size() : n;
    std::vector<uint8_t> got(probes.size(), 2);
    for (size_t start = 0; start < probes.size(); start += step) {
      const size_t count = std::min(step, probes.size() - start);
      ASSERT_EQ(bloom_query_batch(f.get(), &a.ptrs[start], &a.lens[start], count, &got[start]), BLOOM_OK)
          << bloom_last_error();
    }
    EXPECT_EQ(got, want) << "batches of " << step;
  }
  for (size_t i = 0; i < present.size(); ++i) ASSERT_EQ(want[i], 1) << "false negative: " << present[i];
}

INSTANTIATE_TEST_SUITE_P(AllKinds, BatchBlocks, ::testing::ValuesIn(cases()), name_of);

}  // namespace
}  // namespace bloom::test
