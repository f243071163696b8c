// SPDX-License-Identifier: Apache-2.0
#include "interop/thrift_compact.hpp"

#include "error.hpp"

namespace bloom::core::thrift {

void Reader::bad(const std::string &why) const { fail(Status::kFormat, std::string(what_) + ": " + why); }

uint8_t Reader::byte() {
  if (p_ == end_) bad("truncated");
  return *p_++;
}

uint64_t Reader::varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const uint8_t b = byte();
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return v;
  }
  bad("a varint longer than 10 bytes");
}

uint64_t Reader::list_header(uint8_t &elem) {
  const uint8_t h = byte();
  uint64_t n = h >> 4;
  if (n == 15) n = varint();
  elem = h & 0x0f;
  if (n > static_cast<uint64_t>(end_ - p_)) bad("a list longer than the input");
  return n;
}

std::string Reader::binary() {
  const uint64_t n = varint();
  if (n > static_cast<uint64_t>(end_ - p_)) bad("truncated binary field");
  const std::string s(reinterpret_cast<const char *>(p_), static_cast<size_t>(n));
  p_ += n;
  return s;
}

bool Reader::next_field(int16_t &last_id, uint8_t &type) {
  const uint8_t h = byte();
  type = h & 0x0f;
  if (type == kStop) return false;
  const uint8_t delta = h >> 4;
  if (delta != 0) {
    last_id = static_cast<int16_t>(last_id + delta);
  } else {
    const int64_t id = zigzag();
    if (id < INT16_MIN || id > INT16_MAX) bad("field id out of range");
    last_id = static_cast<int16_t>(id);
  }
  return true;
}

// Inside lists, sets and maps a boolean is a byte of its own.
void Reader::skip_element(uint8_t type, int depth) {
  if (type == kTrue || type == kFalse)
    (void)byte();
  else
    skip(type, depth);
}

void Reader::skip(uint8_t type, int depth) {
  if (depth > kMaxDepth) bad("values nested too deep");
  switch (type) {
    case kTrue:
    case kFalse:
      return;
    case kByte:
      (void)byte();
      return;
    case kI16:
    case kI32:
    case kI64:
      (void)varint();
      return;
    case kDouble:
      for (int i = 0; i < 8; ++i) (void)byte();
      return;
    case kBinary: {
      const uint64_t n = varint();
      if (n > static_cast<uint64_t>(end_ - p_)) bad("truncated binary field");
      p_ += n;
      return;
    }
    case kList:
    case kSet: {
      // Every element takes at least one byte (compact lists store booleans
      // as bytes; empty structs their stop byte), so n is bounded by the input.
      uint8_t elem = 0;
      const uint64_t n = list_header(elem);
      for (uint64_t i = 0; i < n; ++i) skip_element(elem, depth + 1);
      return;
    }
    case kMap: {
      const uint64_t n = varint();
      if (n == 0) return;
      if (n > static_cast<uint64_t>(end_ - p_)) bad("a map longer than the input");
      const uint8_t kv = byte();
      for (uint64_t i = 0; i < n; ++i) {
        skip_element(kv >> 4, depth + 1);
        skip_element(kv & 0x0f, depth + 1);
      }
      return;
    }
    case kStruct: {
      int16_t id = 0;
      uint8_t t = 0;
      while (next_field(id, t)) skip(t, depth + 1);
      return;
    }
    default:
      bad("unknown field type " + std::to_string(type));
  }
}

}  // namespace bloom::core::thrift
