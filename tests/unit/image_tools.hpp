// SPDX-License-Identifier: Apache-2.0
// image_tools.hpp -- editing serialized filter images (format v1) for the
// hostile-input tests and the fuzz targets; no GoogleTest here, so fuzz/
// can use it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "byte_order.hpp"
#include "format/header.hpp"

namespace bloom::test {

// A header field: offset and width in bytes (docs/FORMAT.md).
struct HeaderField {
  const char *name;
  size_t offset;
  size_t width;
};
inline constexpr HeaderField kHeaderFields[] = {
    {"format_major", 8, 2},  {"format_minor", 10, 2}, {"header_size", 12, 2},  {"kind", 14, 2},
    {"hash", 16, 2},         {"reserved18", 18, 2},   {"flags", 20, 4},        {"hashes", 24, 4},
    {"counter_bits", 28, 4}, {"seed", 32, 8},         {"bits", 40, 8},         {"capacity", 48, 8},
    {"fp_rate", 56, 8},      {"keys_added", 64, 8},   {"payload_size", 72, 8}, {"growth", 80, 8},
    {"tightening", 88, 8},   {"stages", 96, 4},
};
inline constexpr size_t kHeaderFieldCount = sizeof kHeaderFields / sizeof kHeaderFields[0];
inline constexpr size_t kPayloadSizeOffset = 72;

// The field of that name; a name not in kHeaderFields is a test's typo.
inline const HeaderField &header_field(std::string_view name) {
  for (const HeaderField &f : kHeaderFields)
    if (name == f.name) return f;
  throw std::invalid_argument("no header field named " + std::string(name));
}

inline void store_field(std::vector<unsigned char> &image, const HeaderField &f, uint64_t v) {
  if (f.width == 2) core::store_le16(&image[f.offset], static_cast<uint16_t>(v));
  if (f.width == 4) core::store_le32(&image[f.offset], static_cast<uint32_t>(v));
  if (f.width == 8) core::store_le64(&image[f.offset], v);
}

// Re-computes the payload checksum (when the header's payload size fits the
// image) and then the header checksum, so a mutated field reaches the
// validators instead of being stopped by a checksum.
inline void fix_checksums(std::vector<unsigned char> &image) {
  if (image.size() < core::kHeaderSize + core::kTrailerSize) return;
  const uint64_t payload = core::load_le64(&image[kPayloadSizeOffset]);
  if (payload == image.size() - core::kHeaderSize - core::kTrailerSize)
    core::store_le64(&image[image.size() - core::kTrailerSize],
                     core::checksum64(&image[core::kHeaderSize], payload));
  core::store_le64(&image[core::kHeaderChecksumOffset],
                   core::checksum64(image.data(), core::kHeaderChecksumOffset));
}

// The bytes a v1.0 writer produces for an accepted image: the minor version
// and the reserved header bytes are ignored on read and written as zero.
inline std::vector<unsigned char> normalized(std::vector<unsigned char> image) {
  if (image.size() < core::kHeaderSize) return image;
  // The writer stamps the minor its kind and flags need (format 1.4 for
  // split blocks, the RedisBloom hash and the window kind's blocked layout, 1.3 for the window
  // kind, 1.2 for kFlagMixedProbes, 1.1 for kFlagBlockedLayout2, else 1.0), whatever minor the
  // input carried.
  const uint32_t flags = core::load_le32(&image[20]);
  const bool window = core::load_le16(&image[14]) == BLOOM_KIND_WINDOW;
  const bool v1_4 = (flags & (BLOOM_FLAG_SPLIT_BLOCK | core::kFlagWindowBlocked)) != 0 ||
                    core::load_le16(&image[16]) == BLOOM_HASH_REDISBLOOM;
  const uint16_t minor = v1_4                                       ? 4
                         : window                                   ? 3
                         : (flags & core::kFlagMixedProbes) != 0    ? 2
                         : (flags & core::kFlagBlockedLayout2) != 0 ? 1
                                                                    : core::kFormatMinor;
  core::store_le16(&image[10], minor);
  core::store_le16(&image[18], 0);
  std::memset(&image[100], 0, 20);
  core::store_le64(&image[core::kHeaderChecksumOffset],
                   core::checksum64(image.data(), core::kHeaderChecksumOffset));
  return image;
}

inline bool is_refusal_status(int s) {
  return s == BLOOM_E_FORMAT || s == BLOOM_E_CHECKSUM || s == BLOOM_E_VERSION || s == BLOOM_E_OVERFLOW ||
         s == BLOOM_E_UNSUPPORTED;
}

}  // namespace bloom::test
