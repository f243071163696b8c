// SPDX-License-Identifier: Apache-2.0
#include "image_header.hpp"

#include <bloom/bloom.h>

namespace bloom_redis {

namespace {
constexpr uint64_t kFraming = 128 + 8;
}  // namespace

uint64_t image_total_size(const unsigned char *data, size_t len) {
  uint64_t size = 0;
  return bloom_image_size(data, len, &size, nullptr, nullptr) == BLOOM_OK ? size : 0;
}

uint64_t image_size_allowed(const unsigned char *data, size_t len, uint64_t limit) {
  uint64_t size = 0;
  int32_t kind = 0;
  double growth = 0;
  if (bloom_image_size(data, len, &size, &kind, &growth) != BLOOM_OK) return 0;
  if (kind != BLOOM_KIND_SCALABLE) return limit;
  // bloom_deserialize refuses what is not a finite growth >= 1 anyway.
  if (!(growth >= 1.0 && growth <= 1e6)) return limit;
  // The last stage holds growth times the keys of the one before, at a
  // tighter rate: at most 1.09x the bits per key (stage rates are at most
  // 0.15 p), so under 1.1 x growth x what came before, itself < limit.
  const double allowed = static_cast<double>(limit) * (1.0 + 1.1 * growth) + static_cast<double>(kFraming);
  return allowed >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(allowed);
}

}  // namespace bloom_redis
