// SPDX-License-Identifier: Apache-2.0
// map_test.cpp -- bloom_map: zero-copy, read-only, validated once at map
// time, shared by several processes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "hardening_util.hpp"

namespace bloom::test {
namespace {

class MapKind : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    BLOOM_MAKE_OR_SKIP(GetParam(), BLOOM_HASH_XXH3, &original_);
    path_ = temp_path(std::string("map_") + bloom_kind_name(GetParam()) + ".bloom");
    ASSERT_EQ(bloom_save(original_.get(), path_.c_str()), BLOOM_OK) << bloom_last_error();
    bloom_filter *g = nullptr;
    const bloom_status s = bloom_map(path_.c_str(), &g);
    if (s == BLOOM_E_UNSUPPORTED)
      GTEST_SKIP() << "bloom_map of kind " << bloom_kind_name(GetParam())
                   << " is not supported in this build: " << bloom_last_error();
    ASSERT_EQ(s, BLOOM_OK) << bloom_last_error();
    mapped_.reset(g);
  }
  void TearDown() override {
    mapped_.reset();
    if (!path_.empty()) ::unlink(path_.c_str());
  }

  FilterPtr original_;
  FilterPtr mapped_;
  std::string path_;
};

TEST_P(MapKind, AnswersAndBytesEqualTheSavedFilter) {
  EXPECT_EQ(answers(mapped_.get()), answers(original_.get()));
  EXPECT_EQ(serialize(mapped_.get()), serialize(original_.get()));
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(mapped_.get(), &info), BLOOM_OK);
  EXPECT_EQ(info.read_only, 1);
}

TEST_P(MapKind, EveryWriteIsUnsupportedAndChangesNothing) {
  const auto before = serialize(mapped_.get());
  const char *key = "new-key";
  const void *keys[] = {key};
  const size_t lens[] = {7};
  EXPECT_EQ(bloom_add(mapped_.get(), key, 7), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_test_and_add(mapped_.get(), key, 7), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_add_batch(mapped_.get(), keys, lens, 1), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_remove(mapped_.get(), "hostile-key-1", 13), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_clear(mapped_.get()), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_merge(mapped_.get(), original_.get()), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_intersect(mapped_.get(), original_.get()), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(serialize(mapped_.get()), before);
  // A mapped filter may be the source of a merge, and its clone is writable.
  bloom_filter *c = nullptr;
  ASSERT_EQ(bloom_clone(mapped_.get(), &c), BLOOM_OK) << bloom_last_error();
  FilterPtr copy(c);
  // (Window filters merge with nothing: bloom.h.)
  EXPECT_EQ(bloom_merge(copy.get(), mapped_.get()),
            GetParam() == BLOOM_KIND_WINDOW ? BLOOM_E_UNSUPPORTED : BLOOM_OK)
      << bloom_last_error();
  EXPECT_EQ(bloom_add(copy.get(), key, 7), BLOOM_OK);
  EXPECT_EQ(bloom_query(copy.get(), key, 7), 1);
}

// The checksum is verified when the file is mapped, so mapping a damaged
// file fails. (It is verified once: queries do not re-hash the payload, so a
// file changed in place after mapping would go unnoticed; bloom_map's
// contract forbids that, and bloom_save replaces files by rename.)
TEST_P(MapKind, ChecksumIsVerifiedOnceAtMapTime) {
  auto image = serialize(original_.get());
  image[image.size() - core::kTrailerSize - 1] ^= 0x01;
  const std::string bad = path_ + ".bad";
  {
    std::ofstream out(bad, std::ios::binary);
    out.write(reinterpret_cast<const char *>(image.data()), static_cast<std::streamsize>(image.size()));
  }
  bloom_filter *g = nullptr;
  const bloom_status s = bloom_map(bad.c_str(), &g);
  EXPECT_TRUE(s == BLOOM_E_CHECKSUM || s == BLOOM_E_FORMAT) << s << " " << bloom_last_error();
  EXPECT_EQ(g, nullptr);
  ::unlink(bad.c_str());
}

// Four processes map one file and query it at once; each checks every
// answer against the original and reports through its exit status.
TEST_P(MapKind, FourProcessesQueryOneMappingAtOnce) {
  const std::vector<int> expected = answers(original_.get());
  std::fflush(nullptr);
  std::vector<pid_t> children;
  for (int c = 0; c < 4; ++c) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      bloom_filter *g = nullptr;
      if (bloom_map(path_.c_str(), &g) != BLOOM_OK) _exit(2);
      int bad = 0;
      for (int round = 0; round < 20; ++round) bad += answers(g) == expected ? 0 : 1;
      bloom_destroy(g);
      _exit(bad == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "child crashed";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "2 = could not map, 1 = wrong answers";
  }
}

// Threads share one mapped handle (queries are read-only). Run under TSan.
TEST_P(MapKind, ConcurrentQueriesOnOneMappedHandle) {
  const std::vector<int> expected = answers(original_.get());
  std::vector<int> ok(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] { ok[t] = answers(mapped_.get()) == expected ? 1 : 0; });
  for (auto &th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(ok[t], 1) << "thread " << t;
}

INSTANTIATE_TEST_SUITE_P(AllKinds, MapKind, ::testing::ValuesIn(kAllKinds),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return std::string(bloom_kind_name(info.param));
                         });

}  // namespace
}  // namespace bloom::test
