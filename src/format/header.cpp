// SPDX-License-Identifier: Apache-2.0
#include "format/header.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "byte_order.hpp"
#include "error.hpp"
#include "kind_table.hpp"

namespace bloom::core {

namespace {

// Field offsets; the layout table in docs/FORMAT.md mirrors this list.
enum Offset : size_t {
  kOffMagic = 0,
  kOffMajor = 8,
  kOffMinor = 10,
  kOffHeaderSize = 12,
  kOffKind = 14,
  kOffHash = 16,
  kOffReserved18 = 18,
  kOffFlags = 20,
  kOffHashes = 24,
  kOffCounterBits = 28,
  kOffSeed = 32,
  kOffBits = 40,
  kOffCapacity = 48,
  kOffFpRate = 56,
  kOffKeysAdded = 64,
  kOffPayloadSize = 72,
  kOffGrowth = 80,
  kOffTightening = 88,
  kOffStages = 96,
  // 100..119 reserved: written as zero, ignored by v1.0 readers.
};

// The format-only flags by name, for the message that refuses one.
const char *format_flag_name(uint32_t flags) {
  if (flags & kFlagBlockedLayout2) return "blocked layout 2";
  if (flags & kFlagMixedProbes) return "mixed probes";
  if (flags & kFlagWindowBlocked) return "the blocked window layout";
  if (flags & BLOOM_FLAG_SPLIT_BLOCK) return "split blocks";
  return "a format flag";
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

uint64_t checksum64(const void *data, size_t len) { return XXH3_64bits(data, len); }

uint16_t format_minor_for(const FilterConfig &c) {
  const bool uses_1_4 = c.modulo_probes() || c.split_block() || c.window_blocked();
  const uint16_t by_flags = uses_1_4 ? 4 : c.mixed_probes() ? 2 : c.blocked_layout2() ? 1 : kFormatMinor;
  const uint16_t by_kind = describe(c.kind).format_minor;
  return by_kind > by_flags ? by_kind : by_flags;
}

void encode_header(const Header &h, unsigned char *out) {
  std::memset(out, 0, kHeaderSize);
  std::memcpy(out + kOffMagic, kMagic, sizeof kMagic);
  store_le16(out + kOffMajor, h.format_major);
  store_le16(out + kOffMinor, h.format_minor);
  store_le16(out + kOffHeaderSize, kHeaderSize);
  store_le16(out + kOffKind, static_cast<uint16_t>(h.config.kind));
  store_le16(out + kOffHash, static_cast<uint16_t>(h.config.hash));
  store_le32(out + kOffFlags, h.config.flags);
  store_le32(out + kOffHashes, h.config.hashes);
  store_le32(out + kOffCounterBits, h.config.counter_bits);
  store_le64(out + kOffSeed, h.config.seed);
  store_le64(out + kOffBits, h.config.bits);
  store_le64(out + kOffCapacity, h.config.capacity);
  store_le64(out + kOffFpRate, double_bits(h.config.fp_rate));
  store_le64(out + kOffKeysAdded, h.keys_added);
  store_le64(out + kOffPayloadSize, h.payload_size);
  store_le64(out + kOffGrowth, double_bits(h.config.growth));
  store_le64(out + kOffTightening, double_bits(h.config.tightening));
  store_le32(out + kOffStages, h.stages);
  store_le64(out + kHeaderChecksumOffset, checksum64(out, kHeaderChecksumOffset));
}

ImagePrefix decode_image_prefix(const unsigned char *in) {
  static_assert(kOffGrowth + 8 <= kImagePrefixSize && kImagePrefixSize == BLOOM_IMAGE_PREFIX_SIZE);
  if (std::memcmp(in + kOffMagic, kMagic, sizeof kMagic) != 0)
    fail(Status::kFormat, "not a bloom filter (bad magic bytes)");
  if (load_le16(in + kOffMajor) != kFormatMajor)
    fail(Status::kVersion,
         "format version " + std::to_string(load_le16(in + kOffMajor)) + " is not readable by this library");
  // No payload is larger than 2^40 counters of 8 bits plus a stage table;
  // refusing more keeps the sum below from overflowing.
  const uint64_t payload = load_le64(in + kOffPayloadSize);
  if (payload > (uint64_t{1} << 44))
    fail(Status::kFormat, "payload size " + std::to_string(payload) + " is larger than any filter's");
  ImagePrefix p;
  p.image_size = kHeaderSize + payload + kTrailerSize;
  p.kind = load_le16(in + kOffKind);
  // Growing kinds record their growth factor; the field is 0 in the others.
  if (const KindDescriptor *d = find_kind(p.kind); d != nullptr && d->can(BLOOM_CAP_GROWS))
    p.growth = bits_double(load_le64(in + kOffGrowth));
  return p;
}

Header decode_header(const unsigned char *in, uint64_t total_len) {
  if (std::memcmp(in + kOffMagic, kMagic, sizeof kMagic) != 0)
    fail(Status::kFormat, "not a bloom filter (bad magic bytes)");
  const uint64_t stored = load_le64(in + kHeaderChecksumOffset);
  const uint64_t computed = checksum64(in, kHeaderChecksumOffset);
  if (stored != computed) {
    // Still CHECKSUM (a flipped bit in the version field is damage too),
    // but a later major version may keep its checksum elsewhere: say so.
    const uint16_t major = load_le16(in + kOffMajor);
    std::string version_note;
    if (major != kFormatMajor)
      version_note = "; the header reads format version " + std::to_string(major) + "." +
                     std::to_string(load_le16(in + kOffMinor)) + ", which this library (" +
                     std::to_string(kFormatMajor) + ".x) does not read either";
    fail(Status::kChecksum, "header checksum mismatch (stored " + hex(stored) + ", computed " +
                                hex(computed) + ")" + version_note);
  }

  Header h;
  h.format_major = load_le16(in + kOffMajor);
  h.format_minor = load_le16(in + kOffMinor);
  if (h.format_major != kFormatMajor)
    fail(Status::kVersion, "format version " + std::to_string(h.format_major) + "." +
                               std::to_string(h.format_minor) + " is not readable by this library (reads " +
                               std::to_string(kFormatMajor) + ".x)");
  const uint16_t header_size = load_le16(in + kOffHeaderSize);
  if (header_size != kHeaderSize)
    fail(Status::kFormat,
         "header size " + std::to_string(header_size) + " is not " + std::to_string(kHeaderSize));

  const uint16_t kind = load_le16(in + kOffKind);
  const uint16_t hash = load_le16(in + kOffHash);
  const KindDescriptor *descriptor = find_kind(kind);
  if (descriptor == nullptr) fail(Status::kFormat, "unknown filter kind " + std::to_string(kind));
  if (!is_valid_hash_kind(hash)) fail(Status::kFormat, "unknown hash " + std::to_string(hash));
  FilterConfig &c = h.config;
  c.kind = static_cast<Kind>(kind);
  c.hash = static_cast<HashKind>(hash);
  c.flags = load_le32(in + kOffFlags);
  c.hashes = load_le32(in + kOffHashes);
  c.counter_bits = load_le32(in + kOffCounterBits);
  c.seed = load_le64(in + kOffSeed);
  c.bits = load_le64(in + kOffBits);
  c.capacity = load_le64(in + kOffCapacity);
  c.fp_rate = bits_double(load_le64(in + kOffFpRate));
  c.growth = bits_double(load_le64(in + kOffGrowth));
  c.tightening = bits_double(load_le64(in + kOffTightening));
  h.keys_added = load_le64(in + kOffKeysAdded);
  h.payload_size = load_le64(in + kOffPayloadSize);
  h.stages = load_le32(in + kOffStages);

  if ((c.flags & ~kFileFlags) != 0) fail(Status::kFormat, "unknown flags " + hex(c.flags));
  const uint32_t foreign = c.flags & ~(kCommonFlags | descriptor->file_flags);
  if (foreign != 0)
    fail(Status::kFormat, "flags " + hex(c.flags) + ": " + format_flag_name(foreign) + " (" + hex(foreign) +
                              ") is not defined for " + descriptor->name + " filters");
  if (c.modulo_probes() &&
      (!descriptor->can(BLOOM_CAP_REDISBLOOM_HASH) || c.mixed_probes() || c.enhanced_probes()))
    fail(Status::kFormat,
         "the redisbloom hash (4) is defined only for classic and scalable filters with plain, "
         "unmixed probes (flags " +
             hex(c.flags) + ")");
  if (c.hashes < 1 || c.hashes > BLOOM_MAX_HASHES)
    fail(Status::kFormat, "hash count k = " + std::to_string(c.hashes) + " is outside [1, 64]");
  if (c.bits < 1) fail(Status::kFormat, "bit count m is 0");
  if (c.bits > BLOOM_MAX_BITS)
    fail(Status::kOverflow, "bit count m = " + std::to_string(c.bits) + " exceeds the 2^40 limit");
  if (!(c.fp_rate >= 0.0 && c.fp_rate < 1.0)) fail(Status::kFormat, "fp_rate field is not in [0, 1)");
  if (!std::isfinite(c.growth) || !std::isfinite(c.tightening))
    fail(Status::kFormat, "growth or tightening field is not a finite number");
  if (h.stages < 1) fail(Status::kFormat, "stage count is 0");

  const uint64_t framing = kHeaderSize + kTrailerSize;
  if (total_len < framing || h.payload_size != total_len - framing)
    fail(Status::kFormat, "payload size " + std::to_string(h.payload_size) + " does not match the " +
                              std::to_string(total_len) + "-byte input");
  return h;
}

}  // namespace bloom::core
