// SPDX-License-Identifier: Apache-2.0
// byte_order.hpp -- explicit little-endian loads and stores.
//
// The file format and the hashers are defined in little-endian byte order on
// every host; these helpers are the only place that knows how to get there.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace bloom::core {

inline uint64_t load_le64(const void *p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

inline uint32_t load_le32(const void *p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}

inline uint16_t load_le16(const void *p) {
  const auto *b = static_cast<const unsigned char *>(p);
  return static_cast<uint16_t>(b[0] | (b[1] << 8));
}

inline void store_le64(void *p, uint64_t v) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  std::memcpy(p, &v, sizeof v);
}

inline void store_le32(void *p, uint32_t v) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  std::memcpy(p, &v, sizeof v);
}

inline void store_le16(void *p, uint16_t v) {
  auto *b = static_cast<unsigned char *>(p);
  b[0] = static_cast<unsigned char>(v);
  b[1] = static_cast<unsigned char>(v >> 8);
}

inline uint64_t double_bits(double d) { return std::bit_cast<uint64_t>(d); }
inline double bits_double(uint64_t u) { return std::bit_cast<double>(u); }

}  // namespace bloom::core
