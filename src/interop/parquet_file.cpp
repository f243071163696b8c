// SPDX-License-Identifier: Apache-2.0
// A column chunk's Bloom filter out of a whole .parquet file: the footer
// (FileMetaData, Thrift compact, at the end: ... footer, its 4-byte
// little-endian length, "PAR1") lists the row groups; each row group's
// ColumnChunk has ColumnMetaData with path_in_schema (field 3) and, when the
// writer stored a filter, bloom_filter_offset (field 14, an absolute file
// offset) and bloom_filter_length (field 15, since Parquet 2.10). The filter
// there is the header-and-bitset import_parquet reads.
#include <string>
#include <vector>

#include "error.hpp"
#include "interop/foreign_codec.hpp"
#include "interop/thrift_compact.hpp"

namespace bloom::core {

namespace {

constexpr const char *kWhat = "Parquet file footer";

struct ColumnFilter {
  std::string path;
  int64_t offset = -1;
  int64_t length = -1;
};

// ColumnMetaData: the path and the filter's place.
void read_column_meta(thrift::Reader &r, ColumnFilter &c) {
  int16_t id = 0;
  uint8_t type = 0;
  while (r.next_field(id, type)) {
    if (id == 3 && type == thrift::kList) {
      uint8_t elem = 0;
      const uint64_t n = r.list_header(elem);
      if (elem != thrift::kBinary) r.bad("path_in_schema is not a list of strings");
      // Appended piece by piece: "." + r.binary() as one expression draws
      // GCC 12's -Wrestrict false positive at -O3.
      for (uint64_t i = 0; i < n; ++i) {
        if (i != 0) c.path += '.';
        c.path += r.binary();
      }
    } else if (id == 14 && type == thrift::kI64) {
      c.offset = r.zigzag();
    } else if (id == 15 && type == thrift::kI32) {
      c.length = r.zigzag();
    } else {
      r.skip(type);
    }
  }
}

std::vector<ColumnFilter> read_row_group(thrift::Reader &r) {
  std::vector<ColumnFilter> columns;
  int16_t id = 0;
  uint8_t type = 0;
  while (r.next_field(id, type)) {
    if (id != 1 || type != thrift::kList) {
      r.skip(type);
      continue;
    }
    uint8_t elem = 0;
    const uint64_t n = r.list_header(elem);
    if (elem != thrift::kStruct) r.bad("a row group's columns are not structs");
    for (uint64_t i = 0; i < n; ++i) {
      ColumnFilter c;
      int16_t cid = 0;
      uint8_t ctype = 0;
      while (r.next_field(cid, ctype)) {
        if (cid == 3 && ctype == thrift::kStruct)
          read_column_meta(r, c);
        else
          r.skip(ctype);
      }
      columns.push_back(std::move(c));
    }
  }
  return columns;
}

}  // namespace

std::unique_ptr<Filter> import_parquet_column(const unsigned char *in, size_t len, const std::string &column,
                                              uint32_t row_group) {
  if (len < 12 || std::string(reinterpret_cast<const char *>(in), 4) != "PAR1")
    fail(Status::kFormat, "not a Parquet file (no PAR1 magic at its start)");
  const std::string tail(reinterpret_cast<const char *>(in + len - 4), 4);
  if (tail == "PARE") fail(Status::kUnsupported, "Parquet file with an encrypted footer");
  if (tail != "PAR1") fail(Status::kFormat, "not a Parquet file (no PAR1 magic at its end)");
  const uint64_t footer = uint64_t{in[len - 8]} | uint64_t{in[len - 7]} << 8 | uint64_t{in[len - 6]} << 16 |
                          uint64_t{in[len - 5]} << 24;
  if (footer > len - 12)
    fail(Status::kFormat, "Parquet footer length " + std::to_string(footer) + " exceeds the file");
  const unsigned char *meta = in + len - 8 - footer;
  thrift::Reader r(meta, footer, kWhat);
  int16_t id = 0;
  uint8_t type = 0;
  uint64_t groups = 0;
  bool have_groups = false;
  std::vector<ColumnFilter> columns;
  while (r.next_field(id, type)) {
    if (id != 4 || type != thrift::kList) {
      r.skip(type);
      continue;
    }
    uint8_t elem = 0;
    groups = r.list_header(elem);
    have_groups = true;
    if (elem != thrift::kStruct) r.bad("row_groups is not a list of structs");
    for (uint64_t g = 0; g < groups; ++g) {
      if (g == row_group)
        columns = read_row_group(r);
      else
        r.skip(thrift::kStruct);
    }
  }
  // FileMetaData's row_groups is required, and the footer ends with it.
  if (!have_groups) r.bad("no row_groups field (a damaged footer?)");
  if (r.offset(meta) != footer) r.bad("the footer's length disagrees with its content");
  if (row_group >= groups)
    fail(Status::kInvalidArg, "row group " + std::to_string(row_group) + " does not exist (the file has " +
                                  std::to_string(groups) + ")");
  std::string names;
  for (const ColumnFilter &c : columns) {
    if (c.path != column) {
      names += (names.empty() ? "" : ", ") + c.path;
      continue;
    }
    if (c.offset < 0)
      fail(Status::kUnsupported,
           "column '" + column + "' has no Bloom filter in row group " + std::to_string(row_group));
    const uint64_t at = static_cast<uint64_t>(c.offset);
    if (at >= len - 8 - footer)
      fail(Status::kFormat, "bloom_filter_offset " + std::to_string(at) + " lies outside the data");
    const size_t avail = static_cast<size_t>(len - 8 - footer - at);
    const size_t extent =
        c.length >= 0 ? static_cast<size_t>(c.length) : parquet_filter_extent(in + at, avail);
    if (extent > avail)
      fail(Status::kFormat, "bloom_filter_length " + std::to_string(extent) + " runs past the data");
    return import_parquet(in + at, extent);
  }
  fail(Status::kInvalidArg,
       "no column '" + column + "' in row group " + std::to_string(row_group) + " (columns: " + names + ")");
}

}  // namespace bloom::core
