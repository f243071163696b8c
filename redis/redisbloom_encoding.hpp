// SPDX-License-Identifier: Apache-2.0
// redisbloom_encoding.hpp -- RedisBloom's RDB encoding of a chain (the
// value of its type "MBbloom--", also DUMP's payload), read and written
// field by field over any source of RDB fields: Redis's RedisModuleIO in
// redisbloom_type.cpp, a byte buffer in the fuzz target, so both run this
// one reader and writer.
//
// The fields, in order: size, nfilters, options, growth (encoding 4; 2
// before), then per link entries, error (double), hashes, bpe (double),
// bits, n2, its bits / 8 bytes (a string), size. Every count is checked
// before it sizes anything, and the bits kept grow only with what was read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "redisbloom_chain.hpp"
#include "server_allocator.hpp"

namespace bloom_redis {

// RedisBloom's encodings: 2 added the options, 4 the growth (2 before).
inline constexpr int kRbOptionsEncoding = 2;
inline constexpr int kRbGrowthEncoding = 4;

// In: load_unsigned() -> uint64_t, load_double() -> double,
// load_bytes(ServerBytes *append_to, uint64_t expected) -> bool (false when
// the string is not `expected` bytes long), failed() -> bool.
template <class In>
bool read_rb_encoding(In &in, int encver, RbChain *out, ServerBytes *bits, std::string *why) {
  if (encver < kRbOptionsEncoding || encver > kRbEncoding) {
    *why = "encoding " + std::to_string(encver) +
           " is not one this module reads (2..4; 0 and 1 are RedisBloom 1.x's 32-bit hashing)";
    return false;
  }
  RbChain c;
  c.size = in.load_unsigned();
  const uint64_t n = in.load_unsigned();
  c.options = in.load_unsigned();
  c.growth = encver >= kRbGrowthEncoding ? in.load_unsigned() : 2;
  if (in.failed()) return false;
  if (n < 1 || n > kRbMaxLinks) {
    *why = std::to_string(n) + " sub-filters (1.." + std::to_string(kRbMaxLinks) + " are accepted)";
    return false;
  }
  bits->clear();
  c.links.resize(n);
  for (RbLink &l : c.links) {
    l.entries = in.load_unsigned();
    l.error = in.load_double();
    l.hashes = in.load_unsigned();
    l.bpe = in.load_double();
    l.bits = in.load_unsigned();
    l.n2 = in.load_unsigned();
    if (in.failed()) return false;
    if (l.bits % 8 != 0 || !in.load_bytes(bits, l.bits / 8)) {
      if (!in.failed())
        *why = "a sub-filter of " + std::to_string(l.bits) + " bits holds another number of bytes";
      return false;
    }
    l.size = in.load_unsigned();
    if (in.failed()) return false;
  }
  *out = std::move(c);
  return true;
}

// Out: save_unsigned(uint64_t), save_double(double),
// save_bytes(const unsigned char *, uint64_t). link_bits[i] points to link
// i's bytes (image_to_rb_chain).
template <class Out>
void write_rb_encoding(Out &out, const RbChain &c, const std::vector<const unsigned char *> &link_bits) {
  out.save_unsigned(c.size);
  out.save_unsigned(c.links.size());
  out.save_unsigned(c.options);
  out.save_unsigned(c.growth);
  for (size_t i = 0; i < c.links.size(); ++i) {
    const RbLink &l = c.links[i];
    out.save_unsigned(l.entries);
    out.save_double(l.error);
    out.save_unsigned(l.hashes);
    out.save_double(l.bpe);
    out.save_unsigned(l.bits);
    out.save_unsigned(0);  // n2: sizes are not powers of two
    out.save_bytes(link_bits[i], l.bytes());
    out.save_unsigned(l.size);
  }
}

}  // namespace bloom_redis
