// SPDX-License-Identifier: Apache-2.0
// cpp_wrapper_test.cpp -- the header-only C++ wrapper (include/bloom/bloom.hpp):
// RAII and moves, keys as string_view and byte spans, exceptions carrying the
// status and message, batches, set operations, persistence, info.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "bloom/bloom.hpp"

namespace {

std::vector<std::string> keys(const std::string &prefix, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; i++) out.push_back(prefix + std::to_string(i));
  return out;
}

std::vector<std::string_view> views(const std::vector<std::string> &ks) { return {ks.begin(), ks.end()}; }

std::string scratch(const char *name) {
  return ::testing::TempDir() + "cpp_wrapper_" + std::to_string(getpid()) + "_" + name;
}

bloom::filter small() { return bloom::filter(bloom::options().capacity(1000).fp_rate(0.01)); }

}  // namespace

static_assert(!std::is_copy_constructible_v<bloom::filter>);
static_assert(!std::is_copy_assignable_v<bloom::filter>);
static_assert(std::is_nothrow_move_constructible_v<bloom::filter>);
static_assert(std::is_nothrow_move_assignable_v<bloom::filter>);

TEST(CppWrapper, AddAndContainsStringAndBytes) {
  bloom::filter f = small();
  f.add("alice");
  f.add(std::string_view("with\0nul", 8));
  const std::byte raw[] = {std::byte{0}, std::byte{0xff}, std::byte{7}};
  f.add(bloom::bytes_view(raw));
  EXPECT_TRUE(f.contains("alice"));
  EXPECT_TRUE(f.contains(std::string_view("with\0nul", 8)));
  EXPECT_TRUE(f.contains(bloom::bytes_view(raw)));
  // A string_view key is its bytes: the same key as a byte span of them.
  EXPECT_TRUE(f.contains(std::as_bytes(std::span<const char>("alice", 5))));
  EXPECT_FALSE(f.contains("with"));  // prefix of a key: a different key
  int false_positives = 0;
  for (const auto &k : keys("absent-", 1000)) false_positives += f.contains(k);
  EXPECT_LT(false_positives, 40);  // p = 0.01 with 3 keys added: almost empty
}

TEST(CppWrapper, MoveTransfersOwnership) {
  bloom::filter a = small();
  a.add("k");
  bloom_filter *handle = a.c_handle();
  bloom::filter b(std::move(a));
  EXPECT_EQ(a.c_handle(), nullptr);  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_EQ(b.c_handle(), handle);
  bloom::filter c = small();
  c = std::move(b);
  EXPECT_EQ(c.c_handle(), handle);
  EXPECT_TRUE(c.contains("k"));
  bloom_filter *raw = c.release();
  EXPECT_EQ(c.c_handle(), nullptr);
  bloom::filter d = bloom::filter::adopt(raw);
  EXPECT_TRUE(d.contains("k"));
  EXPECT_THROW(bloom::filter::adopt(nullptr), bloom::error);
}

TEST(CppWrapper, ErrorsCarryStatusAndMessage) {
  try {
    bloom::filter f(bloom::options().fp_rate(1.5));
    FAIL() << "p = 1.5 accepted";
  } catch (const bloom::error &e) {
    EXPECT_EQ(e.status(), BLOOM_E_INVALID_ARG);
    EXPECT_NE(e.detail().find("bloom_create"), std::string::npos) << e.detail();
    EXPECT_NE(std::string(e.what()).find("invalid argument"), std::string::npos) << e.what();
  }
  try {
    bloom::filter::load(scratch("missing.bloom"));
    FAIL() << "loading a missing file succeeded";
  } catch (const bloom::error &e) {
    EXPECT_EQ(e.status(), BLOOM_E_IO);
  }
  bloom::filter f = small();
  try {
    f.remove("x");  // classic: no remove
    FAIL();
  } catch (const bloom::error &e) {
    EXPECT_EQ(e.status(), BLOOM_E_UNSUPPORTED);
  }
  EXPECT_THROW(bloom::optimal_params(0, 0.01), bloom::error);
}

TEST(CppWrapper, BatchesAnswerLikeSingleCalls) {
  bloom::filter f(bloom::options().capacity(5000).fp_rate(0.01).hash(bloom::hash::murmur3).seed(9));
  const auto in = keys("in-", 3000);
  f.add_batch(views(in));
  auto probe = keys("out-", 2000);
  probe.insert(probe.end(), in.begin(), in.begin() + 100);
  const auto results = f.contains_batch(views(probe));
  ASSERT_EQ(results.size(), probe.size());
  for (size_t i = 0; i < probe.size(); i++) EXPECT_EQ(results[i] == 1, f.contains(probe[i])) << probe[i];
  for (size_t i = 2000; i < probe.size(); i++) EXPECT_EQ(results[i], 1);
  EXPECT_EQ(f.info().keys_added, 3000u);
  f.add_batch(std::span<const std::string_view>{});
  EXPECT_TRUE(f.contains_batch(std::span<const bloom::bytes_view>{}).empty());
}

TEST(CppWrapper, ByteSpanBatches) {
  bloom::filter f = small();
  const std::vector<std::byte> a = {std::byte{1}, std::byte{2}}, b = {std::byte{0}}, empty;
  const std::vector<bloom::bytes_view> in = {a, b, empty};
  f.add_batch(in);
  EXPECT_EQ(f.contains_batch(in), (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_TRUE(f.contains(std::string_view("\x01\x02", 2)));  // the same bytes as a string
  const std::vector<std::byte> c = {std::byte{9}, std::byte{9}, std::byte{9}};
  const std::vector<bloom::bytes_view> out = {c};
  EXPECT_EQ(f.contains_batch(out).size(), 1u);
}

TEST(CppWrapper, TestAndAddDeduplicates) {
  bloom::filter f = small();
  EXPECT_FALSE(f.test_and_add("msg-1"));
  EXPECT_TRUE(f.test_and_add("msg-1"));
  EXPECT_FALSE(f.test_and_add("msg-2"));
}

TEST(CppWrapper, SetOperations) {
  bloom::filter a = small(), b = small();
  a.add("a");
  a.add("both");
  b.add("b");
  b.add("both");
  bloom::filter u = a | b;
  EXPECT_TRUE(u.contains("a") && u.contains("b") && u.contains("both"));
  bloom::filter i = a & b;
  EXPECT_TRUE(i.contains("both"));
  EXPECT_FALSE(a.contains("b"));  // operands unchanged
  a |= b;
  EXPECT_TRUE(a.contains("b"));
  bloom::filter other(bloom::options().capacity(1000).fp_rate(0.01).seed(1));
  try {
    a |= other;
    FAIL() << "merged filters with different seeds";
  } catch (const bloom::error &e) {
    EXPECT_EQ(e.status(), BLOOM_E_INCOMPATIBLE);
  }
}

TEST(CppWrapper, SaveLoadMapSerialize) {
  bloom::filter f(bloom::options().capacity(2000).fp_rate(0.001));
  const auto in = keys("k", 2000);
  f.add_batch(views(in));
  const std::string path = scratch("roundtrip.bloom");
  f.save(path);
  const bloom::filter loaded = bloom::filter::load(path);
  const uint16_t one = 1;
  if (*reinterpret_cast<const unsigned char *>(&one) != 1) {  // big-endian: bloom_map refuses
    EXPECT_THROW((void)bloom::filter::map(path), bloom::error);
    GTEST_SKIP() << "bloom_map needs a little-endian host";
  }
  const bloom::filter mapped = bloom::filter::map(path);
  const auto image = f.serialize();
  const bloom::filter copy = bloom::filter::deserialize(image);
  const auto probe = keys("p", 3000);
  const auto want = f.contains_batch(views(probe));
  EXPECT_EQ(loaded.contains_batch(views(probe)), want);
  EXPECT_EQ(mapped.contains_batch(views(probe)), want);
  EXPECT_EQ(copy.contains_batch(views(probe)), want);
  EXPECT_EQ(copy.serialize(), image);
  EXPECT_EQ(mapped.info().read_only, 1);
  bloom::filter writable = mapped.clone();
  writable.add("new");
  EXPECT_TRUE(writable.contains("new"));
  auto damaged = image;
  damaged[200] ^= std::byte{0x01};
  try {
    bloom::filter::deserialize(damaged);
    FAIL() << "a flipped payload bit was accepted";
  } catch (const bloom::error &e) {
    EXPECT_EQ(e.status(), BLOOM_E_CHECKSUM);
  }
  std::remove(path.c_str());
}

TEST(CppWrapper, InfoAndOptionsBuilder) {
  const auto p = bloom::optimal_params(10000, 0.001);
  bloom::filter f(bloom::options()
                      .capacity(10000)
                      .fp_rate(0.001)
                      .hash(bloom::hash::fnv1a)
                      .seed(77)
                      .concurrent()
                      .plain_double_hashing());
  const bloom::info i = f.info();
  EXPECT_EQ(i.kind_name(), "classic");
  EXPECT_EQ(i.hash_name(), "fnv1a");
  EXPECT_EQ(i.seed, 77u);
  EXPECT_TRUE(i.concurrent());
  EXPECT_EQ(i.flags & BLOOM_FLAG_PLAIN_DOUBLE_HASHING, BLOOM_FLAG_PLAIN_DOUBLE_HASHING);
  EXPECT_EQ(i.bits, p.bits);
  EXPECT_EQ(i.hashes, p.hashes);
  const bloom::filter g(bloom::options().bits(4096).hashes(3).concurrent(true).concurrent(false));
  EXPECT_EQ(g.info().bits, 4096u);
  EXPECT_EQ(g.info().hashes, 3u);
  EXPECT_FALSE(g.info().concurrent());
  EXPECT_NEAR(bloom::expected_fp_rate(1000, 9586, 7), std::pow(1 - std::exp(-7.0 * 1000 / 9586), 7), 1e-4);
  EXPECT_EQ(bloom::version(), std::string_view(bloom_version_string()));
}

TEST(CppWrapper, ClearKeepsParameters) {
  bloom::filter f = small();
  f.add("x");
  const auto before = f.info();
  f.clear();
  EXPECT_FALSE(f.contains("x"));
  EXPECT_EQ(f.info().bits, before.bits);
  EXPECT_EQ(f.info().keys_added, 0u);
}

TEST(CppWrapper, CountingRemove) {
  // remove forgets; try_remove of a never-added key is false.
  bloom::filter f(bloom::options().kind(bloom::kind::counting).capacity(1000));
  f.add("a");
  f.remove("a");
  EXPECT_FALSE(f.contains("a"));
  EXPECT_FALSE(f.try_remove("never"));
  f.add("b");
  EXPECT_TRUE(f.try_remove("b"));
  // The byte-span form, as every other key function has.
  const std::byte c[] = {std::byte{'c'}, std::byte{0}, std::byte{'c'}};
  EXPECT_FALSE(f.try_remove(bloom::bytes_view(c)));
  f.add(bloom::bytes_view(c));
  EXPECT_TRUE(f.try_remove(bloom::bytes_view(c)));
  EXPECT_FALSE(f.contains(bloom::bytes_view(c)));
}

// A const filter hands out only a const C handle, so C calls that change a
// filter do not compile through it.
static_assert(
    std::is_same_v<decltype(std::declval<const bloom::filter &>().c_handle()), const bloom_filter *>);
static_assert(std::is_same_v<decltype(std::declval<bloom::filter &>().c_handle()), bloom_filter *>);

TEST(CppWrapper, APathWithANulIsRefusedNotCutShort) {
  const bloom::filter f = small();
  const std::string cut = scratch("nul_a");
  const std::filesystem::path with_nul(cut + std::string("\0.bak", 5));
  for (int op = 0; op < 3; ++op) {
    try {
      if (op == 0) f.save(with_nul);
      if (op == 1) (void)bloom::filter::load(with_nul);
      if (op == 2) (void)bloom::filter::map(with_nul);
      FAIL() << "operation " << op << " took a path with a NUL";
    } catch (const bloom::error &e) {
      EXPECT_EQ(e.status(), BLOOM_E_INVALID_ARG) << op;
    }
  }
  EXPECT_NE(::access(cut.c_str(), F_OK), 0) << "the save wrote the path cut at the NUL";
}

TEST(CppWrapper, StageInfoOfAScalableFilter) {
  bloom::filter f(bloom::options().kind(bloom::kind::scalable).capacity(100).fp_rate(0.01));
  for (const auto &k : keys("s", 1000)) f.add(k);
  const uint32_t stages = f.info().stages;
  ASSERT_GT(stages, 1u);
  // Stage i holds 100 * 2^i keys (growth 2); adds the chain already
  // reports present go into no stage, so the stages hold at most the adds.
  uint64_t keys_added = 0;
  for (uint32_t i = 0; i < stages; ++i) {
    EXPECT_EQ(f.stage_info(i).capacity, uint64_t{100} << i) << i;
    keys_added += f.stage_info(i).keys_added;
  }
  EXPECT_GT(keys_added, 0u);
  EXPECT_LE(keys_added, f.info().keys_added);
  try {
    (void)f.stage_info(stages);
    FAIL() << "a stage past the last was answered";
  } catch (const bloom::error &e) {
    EXPECT_EQ(e.status(), BLOOM_E_INVALID_ARG);
  }
}
