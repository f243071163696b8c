// SPDX-License-Identifier: Apache-2.0
// image_bytes.hpp -- reading and writing the fields of bloom's serialized
// image (docs/FORMAT.md): little-endian integers and doubles at fixed
// offsets, and the sizes of its header and scalable stage table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bloom_redis::image_bytes {

inline constexpr size_t kHeader = 128;     // the image's header
inline constexpr size_t kDescriptor = 40;  // one scalable stage's table entry
inline constexpr size_t kChecksum = 8;     // after the payload

inline uint64_t le(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
inline void put(unsigned char *p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
inline double as_double(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
inline uint64_t double_bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
inline uint64_t pad64(uint64_t n) { return (n + 63) / 64 * 64; }

}  // namespace bloom_redis::image_bytes
