// SPDX-License-Identifier: Apache-2.0
// bloom_import / bloom_export: other libraries' files byte for byte, and
// hostile input refused with the right status. The valid inputs are what
// Guava 31.1 and bits-and-blooms 3.3.1 wrote for 10 keys at 0.01
// (foreign_hash_test.cpp has the keys) and parquet-java's fixture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bloom/bloom.h"

namespace {

using Bytes = std::vector<unsigned char>;

Bytes from_hex(const std::string &hex) {
  Bytes b;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    b.push_back(static_cast<unsigned char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return b;
}

const Bytes kGuava = from_hex("01070000000200140082090040848060006012102009");
const Bytes kBitsAndBlooms =
    from_hex("0000000000000060000000000000000700000000000000608c808600a220002a0000000002008c04");

Bytes parquet_fixture() {
  std::ifstream in(std::string(BLOOM_TEST_INTEROP_DIR) + "/parquet/bloom_filter.xxhash.bin",
                   std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), {});
}

int import_status(int format, const Bytes &b) {
  bloom_filter *f = reinterpret_cast<bloom_filter *>(uintptr_t{1});
  const int s = bloom_import(format, b.data(), b.size(), &f);
  if (s == BLOOM_OK) {
    bloom_destroy(f);
  } else {
    EXPECT_EQ(f, nullptr);
    EXPECT_NE(std::strstr(bloom_last_error(), "bloom_import"), nullptr);
  }
  return s;
}

Bytes export_of(const bloom_filter *f, int format) {
  size_t size = 0;
  EXPECT_EQ(bloom_export_size(f, format, &size), BLOOM_OK) << bloom_last_error();
  Bytes out(size);
  size_t written = 0;
  EXPECT_EQ(bloom_export(f, format, out.data(), out.size(), &written), BLOOM_OK) << bloom_last_error();
  EXPECT_EQ(written, size);
  return out;
}

TEST(ForeignCodec, EachFormatRoundTripsByteForByte) {
  const std::pair<int, Bytes> cases[] = {{BLOOM_FORMAT_GUAVA, kGuava},
                                         {BLOOM_FORMAT_BITS_AND_BLOOMS, kBitsAndBlooms},
                                         {BLOOM_FORMAT_PARQUET, parquet_fixture()}};
  for (const auto &[format, bytes] : cases) {
    bloom_filter *f = nullptr;
    ASSERT_EQ(bloom_import(format, bytes.data(), bytes.size(), &f), BLOOM_OK) << bloom_last_error();
    EXPECT_EQ(export_of(f, format), bytes) << format;
    // Adds keep the size and set bits (a new key may or may not change bytes).
    ASSERT_EQ(bloom_add(f, "new key", 7), BLOOM_OK);
    EXPECT_EQ(bloom_query(f, "new key", 7), 1);
    EXPECT_EQ(export_of(f, format).size(), bytes.size());
    // Only its own format: another's hash puts keys elsewhere.
    const int other = format == BLOOM_FORMAT_GUAVA ? BLOOM_FORMAT_BITS_AND_BLOOMS : BLOOM_FORMAT_GUAVA;
    size_t size = 0;
    EXPECT_EQ(bloom_export_size(f, other, &size), BLOOM_E_UNSUPPORTED);
    bloom_destroy(f);
  }
}

TEST(ForeignCodec, EveryTruncationAndExtensionIsRefused) {
  const std::pair<int, Bytes> cases[] = {{BLOOM_FORMAT_GUAVA, kGuava},
                                         {BLOOM_FORMAT_BITS_AND_BLOOMS, kBitsAndBlooms},
                                         {BLOOM_FORMAT_PARQUET, parquet_fixture()}};
  for (const auto &[format, bytes] : cases) {
    for (size_t n = 0; n < bytes.size(); ++n)
      EXPECT_EQ(import_status(format, Bytes(bytes.begin(), bytes.begin() + static_cast<long>(n))),
                BLOOM_E_FORMAT)
          << format << " truncated to " << n;
    Bytes longer = bytes;
    longer.push_back(0);
    EXPECT_EQ(import_status(format, longer), BLOOM_E_FORMAT) << format;
  }
}

TEST(ForeignCodec, GuavaFieldsAreChecked) {
  Bytes b = kGuava;
  b[0] = 0;  // MURMUR128_MITZ_32: valid Guava, another hashing
  EXPECT_EQ(import_status(BLOOM_FORMAT_GUAVA, b), BLOOM_E_UNSUPPORTED);
  b[0] = 2;
  EXPECT_EQ(import_status(BLOOM_FORMAT_GUAVA, b), BLOOM_E_FORMAT);
  b = kGuava;
  b[1] = 0;
  EXPECT_EQ(import_status(BLOOM_FORMAT_GUAVA, b), BLOOM_E_FORMAT);
  b[1] = 65;
  EXPECT_EQ(import_status(BLOOM_FORMAT_GUAVA, b), BLOOM_E_OVERFLOW);
  b = kGuava;
  b[2] = 0x80;  // a negative Java int
  EXPECT_EQ(import_status(BLOOM_FORMAT_GUAVA, b), BLOOM_E_FORMAT);
  b = kGuava;
  b[5] = 0xff;  // 255 longs claimed, 2 present: refused before allocating
  EXPECT_EQ(import_status(BLOOM_FORMAT_GUAVA, b), BLOOM_E_FORMAT);
}

TEST(ForeignCodec, BitsAndBloomsFieldsAreChecked) {
  Bytes b = kBitsAndBlooms;
  b[23] = 0x61;  // bit set length 97 for m = 96
  EXPECT_EQ(import_status(BLOOM_FORMAT_BITS_AND_BLOOMS, b), BLOOM_E_FORMAT);
  b = kBitsAndBlooms;
  b[24 + 8] = 0x80;  // bit 127 set: beyond m = 96
  EXPECT_EQ(import_status(BLOOM_FORMAT_BITS_AND_BLOOMS, b), BLOOM_E_FORMAT);
  b = kBitsAndBlooms;
  b[15] = 65;  // k
  EXPECT_EQ(import_status(BLOOM_FORMAT_BITS_AND_BLOOMS, b), BLOOM_E_OVERFLOW);
  b = kBitsAndBlooms;
  b[2] = 1;  // m = 2^40 + 96: too big, and the input is short anyway
  b[18] = 1;
  EXPECT_EQ(import_status(BLOOM_FORMAT_BITS_AND_BLOOMS, b), BLOOM_E_OVERFLOW);
}

TEST(ForeignCodec, ParquetHeaderIsChecked) {
  const Bytes fixture = parquet_fixture();
  Bytes b = fixture;
  b[4] = 0x2c;  // algorithm: the union's field 2, not BLOCK
  EXPECT_EQ(import_status(BLOOM_FORMAT_PARQUET, b), BLOOM_E_UNSUPPORTED);
  b = fixture;
  b[8] = 0x2c;  // hash: not XXHASH
  EXPECT_EQ(import_status(BLOOM_FORMAT_PARQUET, b), BLOOM_E_UNSUPPORTED);
  b = fixture;
  b[0] = 0x16;  // numBytes as an i64: the wrong type
  EXPECT_EQ(import_status(BLOOM_FORMAT_PARQUET, b), BLOOM_E_FORMAT);
  // numBytes 1000: not whole 32-byte blocks (and the bitset's length then).
  Bytes odd = {0x15, 0xd0, 0x0f, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
               0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  odd.resize(odd.size() + 1000);
  EXPECT_EQ(import_status(BLOOM_FORMAT_PARQUET, odd), BLOOM_E_FORMAT);
  // An unknown field (a later Parquet's) is skipped, as Thrift's rules say.
  Bytes extra(fixture.begin(), fixture.begin() + 15);                // without the stop
  const unsigned char field5[] = {0x18, 0x03, 'a', 'b', 'c', 0x00};  // field 5, binary "abc", stop
  extra.insert(extra.end(), field5, field5 + sizeof field5);
  extra.insert(extra.end(), fixture.begin() + 16, fixture.end());
  bloom_filter *f = nullptr;
  ASSERT_EQ(bloom_import(BLOOM_FORMAT_PARQUET, extra.data(), extra.size(), &f), BLOOM_OK)
      << bloom_last_error();
  EXPECT_EQ(bloom_query(f, "hello", 5), 1);
  bloom_destroy(f);
  // Nested too deep: refused, not a stack overflow.
  Bytes deep = {0x15, 0x80, 0x10};
  for (int i = 0; i < 10000; ++i) deep.push_back(0x5c);  // field id + 5, struct, nested
  EXPECT_EQ(import_status(BLOOM_FORMAT_PARQUET, deep), BLOOM_E_FORMAT);
}

TEST(ForeignCodec, ArgumentsAreChecked) {
  bloom_filter *f = nullptr;
  EXPECT_EQ(bloom_import(0, kGuava.data(), kGuava.size(), &f), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_import(BLOOM_FORMAT_GUAVA, nullptr, 3, &f), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_import(BLOOM_FORMAT_GUAVA, kGuava.data(), kGuava.size(), nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_import(BLOOM_FORMAT_GUAVA, nullptr, 0, &f), BLOOM_E_FORMAT);
  ASSERT_EQ(bloom_import(BLOOM_FORMAT_GUAVA, kGuava.data(), kGuava.size(), &f), BLOOM_OK);
  size_t written = 0;
  EXPECT_EQ(bloom_export(f, BLOOM_FORMAT_GUAVA, nullptr, 5, &written), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_export(f, BLOOM_FORMAT_GUAVA, nullptr, 0, &written), BLOOM_E_BUFFER_TOO_SMALL);
  EXPECT_EQ(written, kGuava.size());
  EXPECT_EQ(bloom_export(f, BLOOM_FORMAT_GUAVA, nullptr, 0, nullptr), BLOOM_E_INVALID_ARG);
  EXPECT_EQ(bloom_export_size(f, 7, &written), BLOOM_E_INVALID_ARG);
  bloom_destroy(f);
}

}  // namespace

namespace {

Bytes parquet_file() {
  std::ifstream in(std::string(BLOOM_TEST_INTEROP_DIR) + "/parquet/data_index_bloom_encoding_stats.parquet",
                   std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), {});
}

int column_status(const Bytes &file, const char *column, uint32_t row_group) {
  bloom_filter *f = reinterpret_cast<bloom_filter *>(uintptr_t{1});
  const int s = bloom_import_parquet_column(file.data(), file.size(), column, row_group, &f);
  if (s == BLOOM_OK)
    bloom_destroy(f);
  else
    EXPECT_EQ(f, nullptr);
  return s;
}

// parquet-java's file (tests/interop/parquet/README.md): one row group whose
// STRING column "String" has a filter; its statistics name two of its
// values, "Hello" (min) and "today" (max).
TEST(ForeignCodec, ParquetFileColumnFilter) {
  const Bytes file = parquet_file();
  ASSERT_GT(file.size(), 12u);
  bloom_filter *f = nullptr;
  ASSERT_EQ(bloom_import_parquet_column(file.data(), file.size(), "String", 0, &f), BLOOM_OK)
      << bloom_last_error();
  EXPECT_EQ(bloom_query(f, "Hello", 5), 1);
  EXPECT_EQ(bloom_query(f, "today", 5), 1);
  // The filter is the file's bytes at bloom_filter_offset, exported as they are.
  const Bytes exported = export_of(f, BLOOM_FORMAT_PARQUET);
  EXPECT_EQ(exported.size(), 16u + 1024u);
  EXPECT_NE(std::search(file.begin(), file.end(), exported.begin(), exported.end()), file.end());
  bloom_destroy(f);

  EXPECT_EQ(column_status(file, "Strin", 0), BLOOM_E_INVALID_ARG);
  EXPECT_NE(std::strstr(bloom_last_error(), "columns: String"), nullptr) << bloom_last_error();
  EXPECT_EQ(column_status(file, "String", 1), BLOOM_E_INVALID_ARG);
  for (size_t n = 0; n < file.size(); n += 7)
    EXPECT_NE(column_status(Bytes(file.begin(), file.begin() + static_cast<long>(n)), "String", 0), BLOOM_OK)
        << n;
  Bytes damaged = file;
  damaged[damaged.size() - 8] ^= 0x40;  // the footer's length
  EXPECT_EQ(column_status(damaged, "String", 0), BLOOM_E_FORMAT);
  EXPECT_EQ(bloom_import_parquet_column(file.data(), file.size(), nullptr, 0, &f), BLOOM_E_INVALID_ARG);
}

}  // namespace
