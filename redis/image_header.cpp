// SPDX-License-Identifier: Apache-2.0
#include "image_header.hpp"

#include <bloom/bloom.h>

#include <cstring>

namespace bloom_redis {

namespace {
constexpr unsigned char kMagic[8] = {0x89, 'B', 'L', 'O', 'O', 'M', '\r', '\n'};
constexpr size_t kPayloadSizeOffset = 72;
constexpr uint64_t kFraming = 128 + 8;
// No payload is larger than 2^40 counters of 8 bits; refusing more keeps
// the sum below from overflowing.
constexpr uint64_t kMaxPayload = uint64_t{1} << 44;

// The little-endian 64-bit field at data[offset] (the format's byte order).
uint64_t read_le64(const unsigned char *data, size_t offset) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | data[offset + i];
  return v;
}
}  // namespace

uint64_t image_total_size(const unsigned char *data, size_t len) {
  if (len < kImagePrefixBytes || std::memcmp(data, kMagic, sizeof kMagic) != 0) return 0;
  const uint64_t payload = read_le64(data, kPayloadSizeOffset);
  if (payload > kMaxPayload) return 0;
  return payload + kFraming;
}

uint64_t image_size_allowed(const unsigned char *data, size_t len, uint64_t limit) {
  constexpr size_t kKindOffset = 14, kGrowthOffset = 80;
  static_assert(kGrowthOffset + 8 <= kImagePrefixBytes);
  if (len < kImagePrefixBytes) return 0;
  const unsigned kind = data[kKindOffset] | (unsigned{data[kKindOffset + 1]} << 8);
  if (kind != BLOOM_KIND_SCALABLE) return limit;
  const uint64_t bits = read_le64(data, kGrowthOffset);
  double growth = 0;
  std::memcpy(&growth, &bits, sizeof growth);
  // bloom_deserialize refuses what is not a finite growth >= 1 anyway.
  if (!(growth >= 1.0 && growth <= 1e6)) return limit;
  // The last stage holds growth times the keys of the one before, at a
  // tighter rate: at most 1.09x the bits per key (stage rates are at most
  // 0.15 p), so under 1.1 x growth x what came before, itself < limit.
  const double allowed = static_cast<double>(limit) * (1.0 + 1.1 * growth) + static_cast<double>(kFraming);
  return allowed >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(allowed);
}

}  // namespace bloom_redis
