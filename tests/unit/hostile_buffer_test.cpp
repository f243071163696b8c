// SPDX-License-Identifier: Apache-2.0
// hostile_buffer_test.cpp -- damaged and lying images fed to bloom_deserialize.
//
// For a small filter of every kind and hasher: every truncation, every
// single-bit flip, 0xFF runs, random header bytes, and every header field
// set to 0, maximal and overflowing values with the checksums fixed so the
// field validators are reached. Each must be refused with a specific status
// and a message, or load as a filter that answers exactly like the saved one
// and re-serializes to the same bytes; and no load may allocate more than
// the input length justifies (deserialize_checked counts every allocation).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "hardening_util.hpp"

namespace bloom::test {
namespace {

struct KindHash {
  int kind;
  int hash;
};

std::string name_of(const ::testing::TestParamInfo<KindHash> &info) {
  return std::string(bloom_kind_name(info.param.kind)) + "_" + bloom_hash_name(info.param.hash);
}

std::vector<KindHash> every_kind_and_hash() {
  std::vector<KindHash> out;
  for (int k : kAllKinds)
    for (int h : kAllHashes) out.push_back({k, h});
  return out;
}

class HostileBuffer : public ::testing::TestWithParam<KindHash> {
 protected:
  void SetUp() override {
    BLOOM_MAKE_OR_SKIP(GetParam().kind, GetParam().hash, &original_);
    image_ = serialize(original_.get());
    expected_ = answers(original_.get());
  }

  // An accepted input must be the saved filter: same answers, same bytes.
  void expect_same_filter(const bloom_filter *g, const std::vector<unsigned char> &input,
                          const std::string &what) {
    EXPECT_EQ(answers(g), expected_) << what << ": accepted, but answers differ from the saved filter";
    EXPECT_EQ(serialize(g), input) << what << ": accepted, but re-serializes differently";
  }

  FilterPtr original_;
  std::vector<unsigned char> image_;
  std::vector<int> expected_;
};

TEST_P(HostileBuffer, TheIntactImageLoadsAndRoundTrips) {
  FilterPtr g;
  ASSERT_EQ(deserialize_checked(image_, &g, "intact"), BLOOM_OK) << bloom_last_error();
  expect_same_filter(g.get(), image_, "intact");
  for (size_t i = 0; i < kSmallKeys; ++i) EXPECT_EQ(expected_[i], 1) << "false negative for key " << i;
}

TEST_P(HostileBuffer, EveryTruncationIsRefusedAsFormat) {
  for (size_t len = 0; len < image_.size(); ++len) {
    const std::vector<unsigned char> cut(image_.begin(), image_.begin() + static_cast<ptrdiff_t>(len));
    FilterPtr g;
    const std::string what = "truncated to " + std::to_string(len) + " of " + std::to_string(image_.size());
    EXPECT_EQ(deserialize_checked(cut, &g, what), BLOOM_E_FORMAT) << what << ": " << bloom_last_error();
  }
  // And one byte too many.
  auto longer = image_;
  longer.push_back(0);
  FilterPtr g;
  EXPECT_EQ(deserialize_checked(longer, &g, "one extra byte"), BLOOM_E_FORMAT);
}

TEST_P(HostileBuffer, EverySingleBitFlipIsRefused) {
  for (size_t byte = 0; byte < image_.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      auto damaged = image_;
      damaged[byte] ^= static_cast<unsigned char>(1u << bit);
      const std::string what = "flip byte " + std::to_string(byte) + " bit " + std::to_string(bit);
      FilterPtr g;
      const bloom_status s = deserialize_checked(damaged, &g, what);
      if (byte < 8) {
        EXPECT_EQ(s, BLOOM_E_FORMAT) << what;  // magic
      } else if (byte < core::kHeaderSize) {
        EXPECT_EQ(s, BLOOM_E_CHECKSUM) << what;  // the header checksum covers the rest
      } else if (byte >= image_.size() - core::kTrailerSize) {
        EXPECT_EQ(s, BLOOM_E_CHECKSUM) << what;  // the payload checksum itself
      } else {
        // Damage inside the payload is CHECKSUM even where the kind refuses
        // the content first (bits set beyond m; a scalable stage table
        // claiming more than 2^40 bits), which used to read as FORMAT or
        // OVERFLOW.
        EXPECT_EQ(s, BLOOM_E_CHECKSUM) << what << ": " << bloom_last_error();
      }
      if (s == BLOOM_OK) expect_same_filter(g.get(), damaged, what);
    }
  }
}

TEST_P(HostileBuffer, RunsOfFFAreRefusedOrChangeNothing) {
  for (size_t run : {1u, 2u, 7u, 8u, 16u, 64u}) {
    for (size_t start = 0; start + run <= image_.size(); start += 3) {
      auto damaged = image_;
      for (size_t i = start; i < start + run; ++i) damaged[i] = 0xFF;
      const std::string what = "0xFF x" + std::to_string(run) + " at " + std::to_string(start);
      FilterPtr g;
      const bloom_status s = deserialize_checked(damaged, &g, what);
      if (damaged == image_) {
        EXPECT_EQ(s, BLOOM_OK) << what;
      } else {
        EXPECT_NE(s, BLOOM_OK) << what;
      }
      if (s == BLOOM_OK) expect_same_filter(g.get(), damaged, what);
    }
  }
}

TEST_P(HostileBuffer, RandomHeaderBytesAreRefused) {
  std::mt19937_64 rng(0xbadc0de + static_cast<unsigned>(GetParam().kind * 7 + GetParam().hash));
  for (int round = 0; round < 2000; ++round) {
    auto damaged = image_;
    const int count = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < count; ++i) damaged[rng() % core::kHeaderSize] = static_cast<unsigned char>(rng());
    const std::string what = "random header bytes, round " + std::to_string(round);
    FilterPtr g;
    const bloom_status s = deserialize_checked(damaged, &g, what);
    if (damaged != image_) {
      EXPECT_NE(s, BLOOM_OK) << what;
    }
    if (s == BLOOM_OK) expect_same_filter(g.get(), damaged, what);
  }
}

// Header fields set to edge values with both checksums fixed: the value
// itself must be judged. A changed but self-consistent header may describe
// a different valid filter (another seed, say); then it must re-serialize
// to exactly the input (less the fields v1.0 ignores) and answer as its own
// re-serialization does. Otherwise the status is specific.
TEST_P(HostileBuffer, HeaderFieldsAtZeroMaxAndOverflowReachTheValidators) {
  for (const HeaderField &field : kHeaderFields) {
    const uint64_t max = field.width == 8 ? UINT64_MAX : (uint64_t{1} << (8 * field.width)) - 1;
    const uint64_t values[] = {0,
                               1,
                               max,
                               max - 1,
                               max / 2 + 1,
                               BLOOM_MAX_BITS,
                               BLOOM_MAX_BITS + 1,
                               uint64_t{1} << 32,
                               image_.size(),
                               image_.size() * 2,
                               65,
                               std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN()),
                               std::bit_cast<uint64_t>(std::numeric_limits<double>::infinity()),
                               std::bit_cast<uint64_t>(-1.0)};
    for (const uint64_t v : values) {
      auto damaged = image_;
      store_field(damaged, field, v);
      fix_checksums(damaged);
      const std::string what = std::string(field.name) + " = " + std::to_string(v);
      FilterPtr g;
      const bloom_status s = deserialize_checked(damaged, &g, what);
      if (s != BLOOM_OK) continue;  // deserialize_checked checked the refusal
      EXPECT_EQ(serialize(g.get()), normalized(damaged))
          << what << ": accepted, but re-serializes differently";
      FilterPtr again;
      ASSERT_EQ(deserialize_checked(serialize(g.get()), &again, what + " (again)"), BLOOM_OK);
      EXPECT_EQ(answers(again.get()), answers(g.get())) << what;
    }
  }
}

// The refusals whose status does not depend on the kind.
TEST_P(HostileBuffer, SpecificHeaderValuesGetSpecificStatuses) {
  struct Case {
    const char *field;
    uint64_t value;
    bloom_status expected;
  } cases[] = {
      {"format_major", 0, BLOOM_E_VERSION},
      {"format_major", 2, BLOOM_E_VERSION},
      {"format_major", 0xFFFF, BLOOM_E_VERSION},
      {"header_size", 0, BLOOM_E_FORMAT},
      {"header_size", 0xFFFF, BLOOM_E_FORMAT},
      {"kind", 0, BLOOM_E_FORMAT},
      // The first number past the library's kinds, asked of the library so
      // that a new kind does not turn this case into a valid file.
      {"kind", static_cast<uint64_t>(bloom_kind_at(bloom_kind_count() - 1)) + 1, BLOOM_E_FORMAT},
      {"kind", 0xFFFF, BLOOM_E_FORMAT},
      {"hash", 0, BLOOM_E_FORMAT},
      {"hash", 0xFFFF, BLOOM_E_FORMAT},
      {"flags", 0xFFFFFFFF, BLOOM_E_FORMAT},
      {"hashes", 0, BLOOM_E_FORMAT},
      {"hashes", 65, BLOOM_E_FORMAT},
      {"hashes", 0xFFFFFFFF, BLOOM_E_FORMAT},
      {"bits", 0, BLOOM_E_FORMAT},
      {"bits", BLOOM_MAX_BITS + 1, BLOOM_E_OVERFLOW},
      {"bits", UINT64_MAX, BLOOM_E_OVERFLOW},
      {"payload_size", 0, BLOOM_E_FORMAT},
      {"payload_size", UINT64_MAX, BLOOM_E_FORMAT},
      {"payload_size", UINT64_MAX - 135, BLOOM_E_FORMAT},  // + 136 wraps to 0
      {"stages", 0, BLOOM_E_FORMAT},
      {"fp_rate", std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN()), BLOOM_E_FORMAT},
      {"fp_rate", std::bit_cast<uint64_t>(1.0), BLOOM_E_FORMAT},
      {"growth", std::bit_cast<uint64_t>(std::numeric_limits<double>::infinity()), BLOOM_E_FORMAT},
      {"tightening", std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN()), BLOOM_E_FORMAT},
  };
  for (const Case &c : cases) {
    auto damaged = image_;
    store_field(damaged, header_field(c.field), c.value);
    fix_checksums(damaged);
    const std::string what = std::string(c.field) + " = " + std::to_string(c.value);
    FilterPtr g;
    EXPECT_EQ(deserialize_checked(damaged, &g, what), c.expected) << what << ": " << bloom_last_error();
  }
}

// A header whose checksum fails is CHECKSUM whatever it says, but when its
// major version is not 1 the message names the version too (a later format
// may keep its checksum elsewhere).
TEST_P(HostileBuffer, ADamagedHeaderOfAnotherVersionSaysBoth) {
  auto other = image_;
  store_field(other, header_field("format_major"), 2);  // the header checksum left as it was
  FilterPtr g;
  EXPECT_EQ(deserialize_checked(other, &g, "major 2"), BLOOM_E_CHECKSUM);
  const std::string message = bloom_last_error();
  EXPECT_NE(message.find("header checksum mismatch"), std::string::npos) << message;
  EXPECT_NE(message.find("format version 2."), std::string::npos) << message;
}

// A payload size that claims far more than the input holds, with every other
// field consistent, must fail before any allocation of that size: Guava's
// loader allocated ~17 GB for a 6-byte stream (google/guava#8463).
TEST_P(HostileBuffer, LyingSizesNeverAllocateMoreThanTheInput) {
  for (const uint64_t bits : {BLOOM_MAX_BITS, BLOOM_MAX_BITS / 2, uint64_t{1} << 33, uint64_t{1} << 20}) {
    auto damaged = image_;
    core::store_le64(&damaged[40], bits);
    fix_checksums(damaged);
    FilterPtr g;
    const std::string what =
        "bits = " + std::to_string(bits) + " in a " + std::to_string(damaged.size()) + "-byte image";
    EXPECT_NE(deserialize_checked(damaged, &g, what), BLOOM_OK) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(AllKinds, HostileBuffer, ::testing::ValuesIn(every_kind_and_hash()), name_of);

}  // namespace
}  // namespace bloom::test
