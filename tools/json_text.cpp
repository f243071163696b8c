// SPDX-License-Identifier: Apache-2.0
#include "json_text.hpp"

#include <bloom/bloom.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "numbers.hpp"

namespace bloom_cli {

namespace {

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0.
size_t utf8_sequence_length(const std::string &s, size_t i) {
  const auto byte = [&](size_t j) { return j < s.size() ? static_cast<unsigned char>(s[j]) : 0u; };
  const auto cont = [&](size_t j) { return (byte(j) & 0xC0) == 0x80; };
  const unsigned c = byte(i);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return byte(i + 1) >= lo && byte(i + 1) <= hi && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return byte(i + 1) >= lo && byte(i + 1) <= hi && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::string flags_text(uint32_t flags) {
  std::string s;
  if (flags & BLOOM_FLAG_CONCURRENT) s += "concurrent";
  if (flags & BLOOM_FLAG_PLAIN_DOUBLE_HASHING)
    s += s.empty() ? "plain-double-hashing" : ",plain-double-hashing";
  if (flags & BLOOM_FLAG_SPLIT_BLOCK) s += s.empty() ? "split-block" : ",split-block";
  return s.empty() ? "none" : s;
}

// JSON has no NaN or infinity (an estimate on a saturated filter is infinite).
// The shortest form that reads back as the same double (0.85, not 0.84999999999999998).
std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  for (int digits = 15; digits < 17; ++digits) {
    const std::string s = format_double(x, digits);
    if (std::strtod(s.c_str(), nullptr) == x) return s;
  }
  return format_double(x, 17);
}

// A JSON string. File names are bytes, JSON text is Unicode: a byte that is
// not part of well-formed UTF-8 becomes U+FFFD, so the output always parses.
std::string json_string(const std::string &s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t len = utf8_sequence_length(s, i);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
    } else {
      out.append(s, i, len);
      i += len;
    }
  }
  return out + "\"";
}

}  // namespace bloom_cli
