// SPDX-License-Identifier: Apache-2.0
// thrift_compact.hpp -- a bounded reader of Thrift's compact protocol, enough
// for Parquet's BloomFilterHeader (and its file footer): field headers,
// varints, zigzag integers, and skipping any value of any type, nested at
// most kMaxDepth deep. Every read checks the bytes left, so hostile input
// ends in Error(FORMAT), never past its end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace bloom::core::thrift {

// Compact protocol type codes.
enum Type : uint8_t {
  kStop = 0,
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

class Reader {
 public:
  Reader(const unsigned char *p, size_t len, const char *what) : p_(p), end_(p + len), what_(what) {}

  size_t offset(const unsigned char *start) const { return static_cast<size_t>(p_ - start); }
  const unsigned char *position() const { return p_; }

  // The next field of the current struct: false at its stop byte.
  // last_id is the previous field's id (0 at the start of a struct).
  bool next_field(int16_t &last_id, uint8_t &type);
  uint64_t varint();
  int64_t zigzag() {
    const uint64_t v = varint();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  uint8_t byte();
  // A list's (or set's) header: its element count (checked against the
  // bytes left, each element taking at least one) and element type.
  uint64_t list_header(uint8_t &elem);
  // A binary (or string) value, in place.
  std::string binary();
  // Skips one value of the type (nested values included).
  void skip(uint8_t type, int depth = 0);
  [[noreturn]] void bad(const std::string &why) const;

  static constexpr int kMaxDepth = 16;

 private:
  void skip_element(uint8_t type, int depth);
  const unsigned char *p_;
  const unsigned char *end_;
  const char *what_;
};

}  // namespace bloom::core::thrift
