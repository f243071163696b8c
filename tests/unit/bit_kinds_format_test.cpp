// SPDX-License-Identifier: Apache-2.0
// Hostile headers for the partitioned and blocked kinds: a header whose own
// checksum is right but whose parameters or payload size do not fit the kind
// is reported as BLOOM_E_FORMAT with a message, before anything is believed.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "format/header.hpp"
#include "image_tools.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

// A file image: a valid header for `config`, `payload` bytes of `fill`, and
// the payload's true checksum (a damaged payload is reported as CHECKSUM even
// when the kind refuses its content first).
std::vector<unsigned char> image(const core::FilterConfig &config, uint64_t payload, unsigned char fill = 0) {
  core::Header h;
  h.config = config;
  h.payload_size = payload;
  std::vector<unsigned char> out(core::kHeaderSize + payload + core::kTrailerSize, fill);
  core::encode_header(h, out.data());
  fix_checksums(out);
  return out;
}

core::FilterConfig config(core::Kind kind, uint64_t bits, uint32_t hashes) {
  core::FilterConfig c;
  c.kind = kind;
  c.bits = bits;
  c.hashes = hashes;
  c.capacity = 100;
  c.fp_rate = 0.01;
  return c;
}

void expect_format_error(const std::vector<unsigned char> &bytes, const char *needle) {
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_deserialize(bytes.data(), bytes.size(), &f), BLOOM_E_FORMAT) << needle;
  EXPECT_EQ(f, nullptr);
  EXPECT_NE(std::strstr(bloom_last_error(), needle), nullptr) << bloom_last_error();
}

TEST(BitKindsFormat, PayloadSizeMustFitM) {
  // 1024 bits need 128 bytes; 64 and 192 are consistent with the file length
  // but not with m.
  for (uint64_t payload : {64ull, 192ull}) {
    expect_format_error(image(config(core::Kind::kBlocked, 1024, 6), payload), "does not fit m");
    expect_format_error(image(config(core::Kind::kPartitioned, 1024, 6), payload), "does not fit m");
  }
}

TEST(BitKindsFormat, BlockedMNotAMultipleOfALineIsRejected) {
  expect_format_error(image(config(core::Kind::kBlocked, 1000, 6), 128), "multiple of 512");
}

TEST(BitKindsFormat, PartitionedWithFewerBitsThanSlicesIsRejected) {
  expect_format_error(image(config(core::Kind::kPartitioned, 5, 7), 8), "m >= k");
}

TEST(BitKindsFormat, PartitionedPaddingBitsMustBeClear) {
  // m = 1000 leaves 24 padding bits in the last word; all-ones sets them.
  expect_format_error(image(config(core::Kind::kPartitioned, 1000, 7), 128, 0xff), "beyond m");
}

TEST(BitKindsFormat, BlockedRejectsThePlainProbeFlag) {
  core::FilterConfig c = config(core::Kind::kBlocked, 1024, 6);
  c.flags = BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
  expect_format_error(image(c, 128), "PLAIN_DOUBLE_HASHING");
}

}  // namespace
}  // namespace bloom::test
