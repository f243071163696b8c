// SPDX-License-Identifier: Apache-2.0
#include "interop/foreign_codec.hpp"

#include <string>

#include "error.hpp"
#include "format/header.hpp"
#include "interop/foreign_hash.hpp"
#include "kinds/registry.hpp"

namespace bloom::core {

bool is_valid_foreign_format(int32_t v) { return v >= 1 && v <= 3; }

const char *foreign_format_name(ForeignFormat f) {
  switch (f) {
    case ForeignFormat::kGuava:
      return "guava";
    case ForeignFormat::kBitsAndBlooms:
      return "bits-and-blooms";
    case ForeignFormat::kParquet:
      return "parquet";
  }
  return "?";
}

namespace {

HashKind hash_of(ForeignFormat f) {
  switch (f) {
    case ForeignFormat::kGuava:
      return HashKind::kGuava;
    case ForeignFormat::kBitsAndBlooms:
      return HashKind::kBitsAndBlooms;
    case ForeignFormat::kParquet:
    default:
      return HashKind::kParquet;
  }
}

void require_mode(const Filter &f, ForeignFormat format) {
  if (f.config().hash != hash_of(format))
    fail(Status::kUnsupported, std::string("only a filter made with the ") + foreign_format_name(format) +
                                   " hash exports as " + foreign_format_name(format) +
                                   "'s format (its keys set other bits); rebuild it from its keys with "
                                   "hash " +
                                   foreign_format_name(format));
}

}  // namespace

std::unique_ptr<Filter> import_foreign(ForeignFormat format, const unsigned char *in, size_t len) {
  switch (format) {
    case ForeignFormat::kGuava:
      return import_guava(in, len);
    case ForeignFormat::kBitsAndBlooms:
      return import_bits_and_blooms(in, len);
    case ForeignFormat::kParquet:
      return import_parquet(in, len);
  }
  fail(Status::kInvalidArg, "unknown format " + std::to_string(static_cast<int>(format)));
}

uint64_t foreign_export_size(const Filter &f, ForeignFormat format) {
  require_mode(f, format);
  switch (format) {
    case ForeignFormat::kGuava:
      return guava_export_size(f.config());
    case ForeignFormat::kBitsAndBlooms:
      return bits_and_blooms_export_size(f.config());
    case ForeignFormat::kParquet:
      return parquet_export_size(f.config());
  }
  fail(Status::kInvalidArg, "unknown format " + std::to_string(static_cast<int>(format)));
}

void export_foreign(const Filter &f, ForeignFormat format, unsigned char *out) {
  require_mode(f, format);
  switch (format) {
    case ForeignFormat::kGuava:
      return export_guava(f, out);
    case ForeignFormat::kBitsAndBlooms:
      return export_bits_and_blooms(f, out);
    case ForeignFormat::kParquet:
      return export_parquet(f, out);
  }
}

std::unique_ptr<Filter> filter_from_payload(const FilterConfig &c, ByteSource &src, uint64_t payload_size) {
  Header h;
  h.format_minor = format_minor_for(c);
  h.config = c;
  h.payload_size = payload_size;
  h.stages = 1;
  // load_filter validates the configuration (BLOOM_E_FORMAT for one create
  // would refuse) and the payload's size and padding bits.
  std::unique_ptr<Filter> f = load_filter(h, src, false);
  if (src.remaining() != 0) fail(Status::kFormat, "bytes left over after the filter's bits");
  return f;
}

void BigEndianWordsSource::read(void *out, size_t len) {
  if (len > len_ - pos_) fail(Status::kFormat, "truncated: the input ends inside the filter's bits");
  auto *o = static_cast<unsigned char *>(out);
  for (size_t i = 0; i < len; ++i, ++pos_) o[i] = base_[(pos_ & ~uint64_t{7}) + 7 - (pos_ & 7)];
}

void BigEndianWordsSink::write(const void *data, size_t len) {
  const auto *d = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < len; ++i, ++pos_) base_[(pos_ & ~uint64_t{7}) + 7 - (pos_ & 7)] = d[i];
}

uint64_t load_be(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

void store_be(unsigned char *p, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i, v >>= 8) p[i] = static_cast<unsigned char>(v);
}

}  // namespace bloom::core
