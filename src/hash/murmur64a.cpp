// SPDX-License-Identifier: Apache-2.0
#include "hash/murmur64a.hpp"

#include "byte_order.hpp"

namespace bloom::core {

uint64_t murmur64a(const void *data, size_t len, uint64_t seed) {
  constexpr uint64_t m = 0xc6a4a7935bd1e995ULL;
  constexpr int r = 47;
  const auto *p = static_cast<const unsigned char *>(data);
  uint64_t h = seed ^ (static_cast<uint64_t>(len) * m);
  const size_t blocks = len / 8;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k = load_le64(p + 8 * i);
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
  }
  const unsigned char *tail = p + 8 * blocks;
  const size_t rest = len & 7;
  if (rest != 0) {
    for (size_t i = 0; i < rest; ++i) h ^= static_cast<uint64_t>(tail[i]) << (8 * i);
    h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}

}  // namespace bloom::core
