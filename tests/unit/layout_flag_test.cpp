// SPDX-License-Identifier: Apache-2.0
// The format flags: 0x10000 (format 1.1, blocked layout 2), set on new
// blocked filters only, and 0x20000 (format 1.2, mixed probes), set on new
// small or low-p filters of the other kinds (mixed_probes_test.cpp). Neither is accepted from a caller or
// reported in bloom_info; each is refused in a file of a kind it is not defined for, and unknown higher flags
// stay refused.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "filter_config.hpp"
#include "image_tools.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

constexpr uint32_t kLayout2 = 0x10000;
constexpr uint32_t kMixed = 0x20000;
static_assert(core::kFlagBlockedLayout2 == kLayout2, "the value docs/FORMAT.md gives");
static_assert(core::kFlagMixedProbes == kMixed, "the value docs/FORMAT.md gives");

FilterPtr make(int32_t kind) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.capacity = 200;
  o.fp_rate = 0.01;
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_create(&o, &f), BLOOM_OK) << bloom_last_error();
  return FilterPtr(f);
}

uint32_t file_flags(const std::vector<unsigned char> &image) { return core::load_le32(&image[20]); }
uint16_t file_minor(const std::vector<unsigned char> &image) { return core::load_le16(&image[10]); }

bloom_status load(const std::vector<unsigned char> &image) {
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_deserialize(image.data(), image.size(), &f);
  bloom_destroy(f);
  return s;
}

TEST(LayoutFlag, NewFiltersCarryTheirKindsFlag) {
  for (int32_t kind = BLOOM_KIND_CLASSIC; kind <= BLOOM_KIND_SCALABLE; ++kind) {
    FilterPtr f = make(kind);
    const auto image = serialize(f.get());
    const bool blocked = kind == BLOOM_KIND_BLOCKED;
    EXPECT_EQ((file_flags(image) & kLayout2) != 0, blocked) << kind;
    EXPECT_EQ((file_flags(image) & kMixed) != 0, !blocked) << kind;
    EXPECT_EQ(file_minor(image), blocked ? 1 : 2) << kind;
    bloom_info info;
    info.struct_size = sizeof info;
    ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
    EXPECT_EQ(info.flags & (kLayout2 | kMixed), 0u)
        << "an internal flag leaked into bloom_info, kind " << kind;
    // What callers see instead: the version the file is written as.
    EXPECT_EQ(info.format_major, 1u) << kind;
    EXPECT_EQ(info.format_minor, file_minor(image)) << kind;
  }
}

// bloom_info's format version follows the filter, not the library: a
// blocked filter loaded from a 1.0 file reports 1.0 (and saves as 1.0),
// the same filter reloaded from its own save still 1.0, a new one 1.1.
TEST(LayoutFlag, InfoReportsTheFormatTheFilterSavesAs) {
  const auto version = [](const bloom_filter *f) {
    bloom_info info;
    info.struct_size = sizeof info;
    EXPECT_EQ(bloom_get_info(f, &info), BLOOM_OK);
    return std::to_string(info.format_major) + "." + std::to_string(info.format_minor);
  };
  bloom_filter *old = nullptr;
  const std::string path = std::string(BLOOM_TEST_GOLDEN_DIR) + "/blocked_xxh3_v1.bloom";
  ASSERT_EQ(bloom_load(path.c_str(), &old), BLOOM_OK) << bloom_last_error();
  FilterPtr loaded(old);
  EXPECT_EQ(version(loaded.get()), "1.0");
  const auto image = serialize(loaded.get());
  EXPECT_EQ(file_minor(image), 0);
  bloom_filter *again = nullptr;
  ASSERT_EQ(bloom_deserialize(image.data(), image.size(), &again), BLOOM_OK);
  FilterPtr reloaded(again);
  EXPECT_EQ(version(reloaded.get()), "1.0");
  FilterPtr fresh = make(BLOOM_KIND_BLOCKED);
  EXPECT_EQ(version(fresh.get()), "1.1");
  // (GoldenLayouts.* checks that such a pair refuses to merge.)
}

TEST(LayoutFlag, CallersCannotPassIt) {
  for (int32_t kind : {BLOOM_KIND_BLOCKED, BLOOM_KIND_CLASSIC}) {
    for (uint32_t flag : {kLayout2, kMixed}) {
      bloom_options o;
      bloom_options_init(&o);
      o.kind = kind;
      o.capacity = 100;
      o.fp_rate = 0.01;
      o.flags = flag;
      bloom_filter *f = nullptr;
      EXPECT_EQ(bloom_create(&o, &f), BLOOM_E_INVALID_ARG) << kind << " " << flag;
      EXPECT_EQ(f, nullptr);
      EXPECT_NE(std::string(bloom_last_error())
                    .find(flag == kLayout2 ? "unknown flags 0x10000" : "unknown flags 0x20000"),
                std::string::npos)
          << bloom_last_error();
    }
  }
}

TEST(LayoutFlag, RefusedOnOtherKindsAndUnknownFlagsStayRefused) {
  for (int32_t kind = BLOOM_KIND_CLASSIC; kind <= BLOOM_KIND_SCALABLE; ++kind) {
    FilterPtr f = make(kind);
    const auto image = serialize(f.get());
    ASSERT_EQ(load(image), BLOOM_OK) << kind;
    auto flagged = image;
    core::store_le32(&flagged[20], file_flags(image) | kLayout2);
    fix_checksums(flagged);
    EXPECT_EQ(load(flagged), kind == BLOOM_KIND_BLOCKED ? BLOOM_OK : BLOOM_E_FORMAT) << kind;
    flagged = image;
    core::store_le32(&flagged[20], file_flags(image) | kMixed);
    fix_checksums(flagged);
    EXPECT_EQ(load(flagged), kind == BLOOM_KIND_BLOCKED ? BLOOM_E_FORMAT : BLOOM_OK) << kind;
    for (uint32_t unknown : {0x40000u, 0x80000000u, 0x4u}) {
      auto bad = image;
      core::store_le32(&bad[20], file_flags(image) | unknown);
      fix_checksums(bad);
      EXPECT_EQ(load(bad), BLOOM_E_FORMAT) << kind << " flag " << unknown;
    }
  }
}

// Adds 200 keys to a new filter of `kind`, strips `flag` from its image and
// loads that: the stripped filter reads positions another way, so it must
// not claim every key its bits were set for -- the flag is what keeps a
// file's bits meaningful.
void expect_stripping_the_flag_loses_keys(int32_t kind, uint32_t flag) {
  FilterPtr f = make(kind);
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) keys.push_back("flag-key-" + std::to_string(i));
  for (const auto &k : keys) ASSERT_EQ(bloom_add(f.get(), k.data(), k.size()), BLOOM_OK);
  for (const auto &k : keys) ASSERT_EQ(bloom_query(f.get(), k.data(), k.size()), 1) << kind;
  auto image = serialize(f.get());
  ASSERT_NE(file_flags(image) & flag, 0u) << kind;
  core::store_le32(&image[20], file_flags(image) & ~flag);
  fix_checksums(image);
  bloom_filter *raw = nullptr;
  ASSERT_EQ(bloom_deserialize(image.data(), image.size(), &raw), BLOOM_OK) << bloom_last_error();
  FilterPtr stripped(raw);
  size_t found = 0;
  for (const auto &k : keys) found += bloom_query(stripped.get(), k.data(), k.size()) == 1;
  EXPECT_LT(found, keys.size()) << "kind " << kind << ", flag " << flag << ": read other bits as its own";
}

// A blocked file stripped of 0x10000 is a layout 1 filter. (The golden tests
// pin that layout 1 files answer as recorded.)
TEST(LayoutFlag, TheFlagDecidesTheLayout) {
  expect_stripping_the_flag_loses_keys(BLOOM_KIND_BLOCKED, kLayout2);
}

// A classic, partitioned, counting or scalable file stripped of 0x20000
// reads its positions unmixed.
TEST(LayoutFlag, TheMixedFlagDecidesThePositions) {
  for (int32_t kind : {BLOOM_KIND_CLASSIC, BLOOM_KIND_PARTITIONED, BLOOM_KIND_COUNTING, BLOOM_KIND_SCALABLE})
    expect_stripping_the_flag_loses_keys(kind, kMixed);
}

}  // namespace
}  // namespace bloom::test
