// SPDX-License-Identifier: Apache-2.0
// foreign_codec.hpp -- other systems' filter files to and from filters of
// their hash modes (foreign_hash.hpp): bloom_import / bloom_export.
//
//   format           file                                      filter
//   guava            BloomFilter.writeTo                       classic, guava hash
//   bits-and-blooms  BloomFilter.WriteTo (v3)                  classic, bits-and-blooms hash
//   parquet          Thrift BloomFilterHeader + bitset         blocked split, parquet hash
//
// Each reader checks every field against the others and the input's length
// before allocating, and refuses what it cannot represent exactly with a
// status and a message (FORMAT: damaged or not that format; UNSUPPORTED:
// valid for that system but not representable here, e.g. Guava's older
// strategy; OVERFLOW: beyond the library's 2^40 bits or 64 hashes). The bit
// arrays are the same bits in another byte order, so an export of an
// imported filter gives the input back byte for byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "filter.hpp"
#include "format/byte_stream.hpp"

namespace bloom::core {

// bloom_format's values.
enum class ForeignFormat : int32_t { kGuava = 1, kBitsAndBlooms = 2, kParquet = 3 };

bool is_valid_foreign_format(int32_t v);
const char *foreign_format_name(ForeignFormat f);

std::unique_ptr<Filter> import_foreign(ForeignFormat format, const unsigned char *in, size_t len);
// The exact size of export_foreign's output; throws UNSUPPORTED unless f is
// a filter of the format's hash mode (or OVERFLOW past the format's limits).
uint64_t foreign_export_size(const Filter &f, ForeignFormat format);
// Writes foreign_export_size(f, format) bytes to out.
void export_foreign(const Filter &f, ForeignFormat format, unsigned char *out);

// --- shared by the per-format codecs (foreign_codec.cpp) --------------------

// A filter of config c (kind, hash, flags, m, k) whose payload, in this
// library's byte order, src yields: validated and read as a load is.
std::unique_ptr<Filter> filter_from_payload(const FilterConfig &c, ByteSource &src, uint64_t payload_size);

// A ByteSource over 64-bit big-endian words that yields them little-endian
// (Guava's and bits-and-blooms' arrays are big-endian longs).
class BigEndianWordsSource final : public ByteSource {
 public:
  BigEndianWordsSource(const unsigned char *words, uint64_t len) : base_(words), len_(len) {}
  void read(void *out, size_t len) override;
  const void *borrow(size_t) override { return nullptr; }
  uint64_t remaining() const override { return len_ - pos_; }

 private:
  const unsigned char *base_;
  uint64_t len_;
  uint64_t pos_ = 0;
};

// A ByteSink that stores little-endian 64-bit words as big-endian ones.
class BigEndianWordsSink final : public ByteSink {
 public:
  explicit BigEndianWordsSink(unsigned char *out) : base_(out) {}
  void write(const void *data, size_t len) override;
  uint64_t written() const { return pos_; }

 private:
  unsigned char *base_;
  uint64_t pos_ = 0;
};

// Big-endian fields of the Java and Go headers.
uint64_t load_be(const unsigned char *p, int bytes);
void store_be(unsigned char *p, uint64_t v, int bytes);

// The per-format codecs (guava_codec.cpp, bits_and_blooms_codec.cpp,
// parquet_codec.cpp).
std::unique_ptr<Filter> import_guava(const unsigned char *in, size_t len);
uint64_t guava_export_size(const FilterConfig &c);
void export_guava(const Filter &f, unsigned char *out);
std::unique_ptr<Filter> import_bits_and_blooms(const unsigned char *in, size_t len);
uint64_t bits_and_blooms_export_size(const FilterConfig &c);
void export_bits_and_blooms(const Filter &f, unsigned char *out);
std::unique_ptr<Filter> import_parquet(const unsigned char *in, size_t len);
// The bytes of the header-and-bitset filter starting at in (at most avail).
size_t parquet_filter_extent(const unsigned char *in, size_t avail);
// The filter of a column (its dotted path) in one row group of a whole
// .parquet file (parquet_file.cpp).
std::unique_ptr<Filter> import_parquet_column(const unsigned char *in, size_t len, const std::string &column,
                                              uint32_t row_group);
uint64_t parquet_export_size(const FilterConfig &c);
void export_parquet(const Filter &f, unsigned char *out);

}  // namespace bloom::core
