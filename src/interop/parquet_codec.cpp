// SPDX-License-Identifier: Apache-2.0
// A Parquet split-block Bloom filter as a column chunk stores it (Parquet's
// BloomFilter.md): a Thrift compact-protocol BloomFilterHeader
//   1: i32 numBytes
//   2: BloomFilterAlgorithm   (union; 1: BLOCK, an empty struct)
//   3: BloomFilterHash        (union; 1: XXHASH, an empty struct)
//   4: BloomFilterCompression (union; 1: UNCOMPRESSED, an empty struct)
// then numBytes of bitset: blocks of eight little-endian 32-bit words, the
// same bytes as this library's split-block payload. Other algorithms, hashes
// or compressions are valid Parquet this library cannot answer for:
// BLOOM_E_UNSUPPORTED. Fields this reader does not know are skipped, as
// Thrift's rules for later versions say.
#include <string>

#include "error.hpp"
#include "format/memory_stream.hpp"
#include "interop/foreign_codec.hpp"
#include "interop/thrift_compact.hpp"

namespace bloom::core {

namespace {

constexpr const char *kWhat = "Parquet Bloom filter header";

// Reads a union whose only member this library takes is field 1 (an empty
// struct); returns whether that is what it held.
bool union_is_first(thrift::Reader &r) {
  int16_t id = 0;
  uint8_t type = 0;
  bool first = false, other = false;
  while (r.next_field(id, type)) {
    if (id == 1 && type == thrift::kStruct)
      first = true;
    else
      other = true;
    r.skip(type);
  }
  return first && !other;
}

// What the writer of the header emits for numBytes n (parquet-java's).
size_t write_header(unsigned char *out, uint64_t n) {
  size_t i = 0;
  out[i++] = 0x15;      // field 1, i32
  uint64_t z = n << 1;  // zigzag of a non-negative value
  while (z >= 0x80) {
    out[i++] = static_cast<unsigned char>(z | 0x80);
    z >>= 7;
  }
  out[i++] = static_cast<unsigned char>(z);
  // Fields 2, 3 and 4: a union holding its field 1, an empty struct.
  for (int f = 0; f < 3; ++f) {
    out[i++] = 0x1c;  // next field, struct
    out[i++] = 0x1c;  // its field 1, struct
    out[i++] = 0x00;  // the empty struct's stop
    out[i++] = 0x00;  // the union's stop
  }
  out[i++] = 0x00;  // the header's stop
  return i;
}

size_t header_size(uint64_t n) {
  unsigned char buf[32];
  return write_header(buf, n);
}

struct ParquetHeader {
  size_t size;         // the header's bytes
  uint64_t num_bytes;  // the bitset's
};

ParquetHeader parse_header(const unsigned char *in, size_t len) {
  thrift::Reader r(in, len, kWhat);
  int16_t id = 0;
  uint8_t type = 0;
  bool have_size = false, have_algorithm = false, have_hash = false, have_compression = false;
  int64_t num_bytes = 0;
  while (r.next_field(id, type)) {
    if (id == 1 && type == thrift::kI32) {
      num_bytes = r.zigzag();
      have_size = true;
    } else if (id >= 2 && id <= 4 && type == thrift::kStruct) {
      const bool ok = union_is_first(r);
      if (!ok)
        fail(Status::kUnsupported, std::string("Parquet Bloom filter with another ") +
                                       (id == 2   ? "algorithm than BLOCK"
                                        : id == 3 ? "hash than XXHASH"
                                                  : "compression than UNCOMPRESSED"));
      (id == 2 ? have_algorithm : id == 3 ? have_hash : have_compression) = true;
    } else if (id >= 1 && id <= 4) {
      r.bad("field " + std::to_string(id) + " has the wrong type");
    } else {
      r.skip(type);
    }
  }
  if (!have_size || !have_algorithm || !have_hash || !have_compression)
    r.bad("a required field (numBytes, algorithm, hash or compression) is missing");
  if (num_bytes <= 0 || num_bytes > 0x7fffffff || num_bytes % 32 != 0)
    r.bad("numBytes = " + std::to_string(num_bytes) + " is not a positive multiple of 32 (whole blocks)");
  return {r.offset(in), static_cast<uint64_t>(num_bytes)};
}

}  // namespace

size_t parquet_filter_extent(const unsigned char *in, size_t avail) {
  const ParquetHeader h = parse_header(in, avail);
  if (h.num_bytes > avail - h.size)
    fail(Status::kFormat,
         "Parquet Bloom filter of " + std::to_string(h.num_bytes) + " bytes runs past the data");
  return h.size + static_cast<size_t>(h.num_bytes);
}

std::unique_ptr<Filter> import_parquet(const unsigned char *in, size_t len) {
  const ParquetHeader parsed = parse_header(in, len);
  const size_t header = parsed.size;
  const uint64_t bytes = parsed.num_bytes;
  if (len - header != bytes)
    fail(Status::kFormat, "Parquet Bloom filter of " + std::to_string(bytes) + " bytes after a " +
                              std::to_string(header) + "-byte header; the input has " + std::to_string(len));
  FilterConfig c;
  c.kind = Kind::kBlocked;
  c.hash = HashKind::kParquet;
  c.flags = BLOOM_FLAG_SPLIT_BLOCK | kFlagBlockedLayout2;
  c.bits = bytes * 8;
  c.hashes = 8;
  MemorySource src(in + header, bytes);
  return filter_from_payload(c, src, bytes);
}

uint64_t parquet_export_size(const FilterConfig &c) {
  const uint64_t bytes = c.bits / 8;
  if (bytes > 0x7fffffff)
    fail(Status::kOverflow,
         "Parquet filters hold at most 2^31 - 1 bytes; this one has " + std::to_string(bytes));
  return header_size(bytes) + bytes;
}

void export_parquet(const Filter &f, unsigned char *out) {
  const uint64_t bytes = f.config().bits / 8;
  const size_t header = write_header(out, bytes);
  MemorySink sink(out + header);
  f.write_payload(sink);
  if (sink.written() != bytes) fail(Status::kFormat, "internal: bitset size mismatch");
}

}  // namespace bloom::core
