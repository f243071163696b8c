// SPDX-License-Identifier: Apache-2.0
// bloom_image_size: what a reader that receives an image in pieces (the
// Redis module's BF.LOADCHUNK) learns from its first 88 bytes.
#include <gtest/gtest.h>

#include <vector>

#include "test_util.hpp"

namespace bloom::test {
namespace {

TEST(ImageSize, EveryKindFromItsPrefix) {
  for (int kind = 1; bloom_kind_name(kind) != nullptr; ++kind) {
    bloom_options o = classic_options(500, 0.01);
    o.kind = kind;
    o.growth = 3.0;
    FilterPtr f = make_filter(o);
    ASSERT_NE(f, nullptr) << kind;
    add_all(f.get(), make_keys("k", 2000));  // a scalable filter grows stages
    const auto image = serialize(f.get());
    uint64_t size = 0;
    int32_t got_kind = 0;
    double growth = -1;
    ASSERT_EQ(bloom_image_size(image.data(), BLOOM_IMAGE_PREFIX_SIZE, &size, &got_kind, &growth), BLOOM_OK)
        << bloom_last_error();
    EXPECT_EQ(size, image.size()) << kind;
    EXPECT_EQ(got_kind, kind);
    EXPECT_EQ(growth, kind == BLOOM_KIND_SCALABLE ? 3.0 : 0.0) << kind;
    // The whole image answers the same; kind and growth may be NULL.
    uint64_t again = 0;
    ASSERT_EQ(bloom_image_size(image.data(), image.size(), &again, nullptr, nullptr), BLOOM_OK);
    EXPECT_EQ(again, image.size());
  }
}

TEST(ImageSize, RefusesWhatIsNotAnImagePrefix) {
  FilterPtr f = make_filter(classic_options(100, 0.01));
  auto image = serialize(f.get());
  uint64_t size = 7;
  EXPECT_EQ(bloom_image_size(image.data(), BLOOM_IMAGE_PREFIX_SIZE - 1, &size, nullptr, nullptr),
            BLOOM_E_BUFFER_TOO_SMALL);
  EXPECT_EQ(bloom_image_size(nullptr, 100, &size, nullptr, nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_image_size(image.data(), image.size(), nullptr, nullptr, nullptr), BLOOM_E_INVALID_ARG);
  auto other_major = image;
  other_major[8] = 2;  // the format's major version, little-endian u16 at 8
  EXPECT_EQ(bloom_image_size(other_major.data(), other_major.size(), &size, nullptr, nullptr),
            BLOOM_E_VERSION);
  auto bad_magic = image;
  bad_magic[1] = 'X';
  EXPECT_EQ(bloom_image_size(bad_magic.data(), bad_magic.size(), &size, nullptr, nullptr), BLOOM_E_FORMAT);
  auto huge = image;
  huge[72 + 6] = 0x01;  // payload size 2^48: larger than any filter's
  EXPECT_EQ(bloom_image_size(huge.data(), huge.size(), &size, nullptr, nullptr), BLOOM_E_FORMAT);
  EXPECT_EQ(size, 7u);  // untouched on failure
}

}  // namespace
}  // namespace bloom::test
