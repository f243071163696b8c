// SPDX-License-Identifier: Apache-2.0
// header.hpp -- the fixed 128-byte header of format v1 (docs/FORMAT.md).
//
// Every field is encoded byte by byte in little-endian order; no struct is
// ever written. The header carries its own checksum so that a damaged header
// is reported as such before any of its sizes is believed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "filter_config.hpp"

namespace bloom::core {

inline constexpr unsigned char kMagic[8] = {0x89, 'B', 'L', 'O', 'O', 'M', '\r', '\n'};
inline constexpr uint16_t kFormatMajor = 1;
inline constexpr uint16_t kFormatMinor = 0;
// The minor a file is written with: the minor that introduced its kind (3
// for the window kind, which 1.3 added: older readers refuse its kind
// number), or the highest minor whose additions it uses if that is higher:
// 4 for split blocks (BLOOM_FLAG_SPLIT_BLOCK), the blocked window layout
// (kFlagWindowBlocked) and the RedisBloom hash (older readers refuse the
// flag or the hash number), 2 for kFlagMixedProbes, 1 for
// kFlagBlockedLayout2, else 0, so files that need nothing new stay readable
// by older libraries byte for byte.
uint16_t format_minor_for(const FilterConfig &c);
inline constexpr size_t kHeaderSize = 128;
inline constexpr size_t kHeaderChecksumOffset = 120;
inline constexpr size_t kTrailerSize = 8;  // payload checksum

struct Header {
  uint16_t format_major = kFormatMajor;
  uint16_t format_minor = kFormatMinor;
  FilterConfig config;
  uint64_t keys_added = 0;
  uint64_t payload_size = 0;
  uint32_t stages = 1;
};

// Encodes h into out[0, kHeaderSize), checksum included.
void encode_header(const Header &h, unsigned char *out);

// Decodes and checks the header of an input of total_len bytes: magic,
// checksum, version, every field's range, and that header + payload +
// trailer add up to exactly total_len. Throws Error with a specific status
// and message; kind-specific checks happen in the kind's loader.
Header decode_header(const unsigned char *in, uint64_t total_len);

uint64_t checksum64(const void *data, size_t len);

// What the first kImagePrefixSize bytes of an image say before the rest has
// arrived (bloom_image_size): nothing in them is checked but the magic, the
// major version and that the payload could belong to some filter.
inline constexpr size_t kImagePrefixSize = 88;
struct ImagePrefix {
  uint64_t image_size = 0;  // header + payload + trailer
  int32_t kind = 0;         // as stored, not yet validated
  double growth = 0;        // scalable only, else 0; not yet validated
};
ImagePrefix decode_image_prefix(const unsigned char *in);

}  // namespace bloom::core
