// SPDX-License-Identifier: Apache-2.0
#include "redisbloom_chain.hpp"

#include <bloom/bloom.h>

#include <cmath>
#include <cstring>
#include <new>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "image_bytes.hpp"

namespace bloom_redis {

namespace {

constexpr size_t kHeaderFixed = 20;                // size, nfilters, options, growth
constexpr size_t kHeaderLink = 53;                 // one packed link
constexpr double kLn2 = 0.693147180559945;         // RedisBloom's ln(2)
constexpr double kLn2Squared = 0.480453013918201;  // and ln(2)^2, its bpe denominator
constexpr uint64_t kMaxGrowth = 32768;
constexpr size_t kImageHeader = image_bytes::kHeader;
constexpr size_t kDescriptor = image_bytes::kDescriptor;
using image_bytes::as_double;
using image_bytes::double_bits;
using image_bytes::le;
using image_bytes::pad64;
using image_bytes::put;

bool refuse(std::string *why, const std::string &text) {
  *why = text;
  return false;
}

}  // namespace

uint64_t RbChain::bit_bytes() const {
  uint64_t n = 0;
  for (const RbLink &l : links) n += l.bytes();
  return n;
}

bool parse_rb_header(const unsigned char *data, size_t len, RbChain *out, std::string *why) {
  if (len < kHeaderFixed) return refuse(why, "the header is shorter than 20 bytes");
  const uint64_t n = le(data + 8, 4);
  if (n < 1 || n > kRbMaxLinks)
    return refuse(why, "the header names " + std::to_string(n) + " sub-filters (1.." +
                           std::to_string(kRbMaxLinks) + " are accepted)");
  if (len != kHeaderFixed + kHeaderLink * n)
    return refuse(why, "the header is " + std::to_string(len) + " bytes, not the " +
                           std::to_string(kHeaderFixed + kHeaderLink * n) + " its " + std::to_string(n) +
                           " sub-filters take");
  RbChain c;
  c.size = le(data, 8);
  c.options = le(data + 12, 4);
  c.growth = le(data + 16, 4);
  c.links.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    const unsigned char *p = data + kHeaderFixed + kHeaderLink * i;
    RbLink &l = c.links[i];
    const uint64_t bytes = le(p, 8);
    l.bits = le(p + 8, 8);
    l.size = le(p + 16, 8);
    l.error = as_double(le(p + 24, 8));
    l.bpe = as_double(le(p + 32, 8));
    l.hashes = le(p + 40, 4);
    l.entries = le(p + 44, 8);
    l.n2 = p[52];
    if (bytes * 8 != l.bits || bytes > (uint64_t{1} << 40))
      return refuse(why, "sub-filter " + std::to_string(i) + " has " + std::to_string(bytes) + " bytes for " +
                             std::to_string(l.bits) + " bits");
  }
  if (!check_rb_chain(c, why)) return false;
  *out = std::move(c);
  return true;
}

ServerBytes rb_header_bytes(const RbChain &c) {
  ServerBytes h(kHeaderFixed + kHeaderLink * c.links.size(), 0);
  put(h.data(), c.size, 8);
  put(h.data() + 8, c.links.size(), 4);
  put(h.data() + 12, c.options, 4);
  put(h.data() + 16, c.growth, 4);
  for (size_t i = 0; i < c.links.size(); ++i) {
    const RbLink &l = c.links[i];
    unsigned char *p = h.data() + kHeaderFixed + kHeaderLink * i;
    put(p, l.bytes(), 8);
    put(p + 8, l.bits, 8);
    put(p + 16, l.size, 8);
    put(p + 24, double_bits(l.error), 8);
    put(p + 32, double_bits(l.bpe), 8);
    put(p + 40, l.hashes, 4);
    put(p + 44, l.entries, 8);
    p[52] = static_cast<unsigned char>(l.n2);
  }
  return h;
}

namespace {

// The rules a chain's own fields must meet, as read.
bool check_chain_fields(const RbChain &c, std::string *why) {
  const uint64_t n = c.links.size();
  if (n < 1 || n > kRbMaxLinks)
    return refuse(why,
                  std::to_string(n) + " sub-filters (1.." + std::to_string(kRbMaxLinks) + " are accepted)");
  if ((c.options & ~uint64_t{15}) != 0) return refuse(why, "unknown options " + std::to_string(c.options));
  if ((c.options & RbChain::kForce64) == 0)
    return refuse(why,
                  "the filter uses RedisBloom's 32-bit hashing (made before RedisBloom 2.0), which this "
                  "module does not implement");
  if ((c.options & RbChain::kNoRound) == 0 || (c.options & RbChain::kEntsIsBits) != 0)
    return refuse(why, "the filter's sizes are rounded to powers of two (options " +
                           std::to_string(c.options) + "), which this module does not implement");
  if (c.nonscaling() && n != 1) return refuse(why, "a NONSCALING filter with more than one sub-filter");
  if (!c.nonscaling() && (c.growth < 1 || c.growth > kMaxGrowth))
    return refuse(why, "expansion " + std::to_string(c.growth) + " is outside 1..32768");
  uint64_t items = 0, bits = 0, capacity = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const RbLink &l = c.links[i];
    const std::string at = "sub-filter " + std::to_string(i) + ": ";
    if (l.bits < 64 || l.bits % 64 != 0 || l.bits > BLOOM_MAX_BITS)
      return refuse(why, at + std::to_string(l.bits) + " bits (a multiple of 64 up to 2^40 is needed)");
    bits += l.bits;
    if (bits > BLOOM_MAX_BITS) return refuse(why, "the sub-filters add up to more than 2^40 bits");
    if (l.hashes < 1 || l.hashes > BLOOM_MAX_HASHES)
      return refuse(why, at + std::to_string(l.hashes) + " hashes (1..64 are accepted)");
    if (!(l.error > 0.0 && l.error < 1.0)) return refuse(why, at + "error rate outside (0, 1)");
    if (l.entries < 1) return refuse(why, at + "capacity 0");
    if (l.entries > kRbMaxCapacity - capacity)
      return refuse(why, "the sub-filters' capacities add up to 2^63 or more");
    capacity += l.entries;
    // RedisBloom's own consistency rule: k = ceil(ln2 bpe).
    if (!(l.bpe > 0.0 && l.bpe < 1e4) || static_cast<double>(l.hashes) != std::ceil(kLn2 * l.bpe))
      return refuse(why, at + std::to_string(l.hashes) + " hashes do not match its bits per entry");
    if (l.n2 != 0) return refuse(why, at + "a power-of-two size (n2 = " + std::to_string(l.n2) + ")");
    if (l.size > UINT64_MAX - items) return refuse(why, "item counts overflow");
    items += l.size;
  }
  if (items != c.size)
    return refuse(why, "the sub-filters hold " + std::to_string(items) + " items but the filter says " +
                           std::to_string(c.size));
  return true;
}

}  // namespace

RbChain saved_form(const RbChain &c) {
  RbChain s = c;
  s.options = RbChain::kNoRound | RbChain::kForce64 | (c.nonscaling() ? RbChain::kNoScaling : 0);
  if (c.nonscaling()) s.growth = 2;
  for (RbLink &l : s.links) l.bpe = std::fabs(std::log(l.error) / kLn2Squared);
  return s;
}

bool check_rb_chain(const RbChain &c, std::string *why) {
  if (!check_chain_fields(c, why)) return false;
  if (check_chain_fields(saved_form(c), why)) return true;
  *why = "it could not be saved back: " + *why + " (its error rate disagrees with its bits per entry)";
  return false;
}

namespace {
uint64_t rb_payload_size(const RbChain &c) {
  const bool classic = c.nonscaling();
  uint64_t payload = classic ? 0 : pad64(kDescriptor * c.links.size());
  for (const RbLink &l : c.links) payload += classic ? l.bytes() : pad64(l.bytes());
  return payload;
}
}  // namespace

uint64_t rb_image_size(const RbChain &c) { return kImageHeader + rb_payload_size(c) + 8; }

bool rb_chain_to_image(const RbChain &c, const unsigned char *bits, ServerBytes *out, std::string *why) {
  const bool classic = c.nonscaling();
  const uint64_t n = c.links.size();
  const uint64_t table = classic ? 0 : pad64(kDescriptor * n);
  const uint64_t payload = rb_payload_size(c);
  try {
    out->assign(kImageHeader + payload + 8, 0);
  } catch (const std::bad_alloc &) {
    return refuse(why, "out of memory");
  }
  unsigned char *h = out->data();
  const RbLink &first = c.links[0];
  static const unsigned char kMagic[8] = {0x89, 'B', 'L', 'O', 'O', 'M', '\r', '\n'};
  std::memcpy(h, kMagic, 8);
  put(h + 8, 1, 2);  // format 1.4
  put(h + 10, 4, 2);
  put(h + 12, kImageHeader, 2);
  put(h + 14, classic ? BLOOM_KIND_CLASSIC : BLOOM_KIND_SCALABLE, 2);
  put(h + 16, BLOOM_HASH_REDISBLOOM, 2);
  put(h + 20, BLOOM_FLAG_PLAIN_DOUBLE_HASHING, 4);
  put(h + 24, first.hashes, 4);
  put(h + 32, kRedisBloomSeed, 8);
  put(h + 40, first.bits, 8);
  put(h + 48, first.entries, 8);
  // A scalable chain's first stage runs at half the filter's rate.
  put(h + 56, double_bits(classic ? first.error : first.error * 2), 8);
  put(h + 64, c.size, 8);
  put(h + 72, payload, 8);
  if (!classic) {
    put(h + 80, double_bits(static_cast<double>(c.growth)), 8);
    put(h + 88, double_bits(0.5), 8);
  }
  put(h + 96, n, 4);
  put(h + 120, XXH3_64bits(h, 120), 8);

  unsigned char *p = h + kImageHeader;
  if (!classic) {
    for (uint64_t i = 0; i < n; ++i) {
      const RbLink &l = c.links[i];
      unsigned char *d = p + kDescriptor * i;
      put(d, l.bits, 8);
      put(d + 8, l.entries, 8);
      put(d + 16, l.size, 8);
      put(d + 24, double_bits(l.error), 8);
      put(d + 32, l.hashes, 4);
    }
  }
  unsigned char *at = p + table;
  for (const RbLink &l : c.links) {
    std::memcpy(at, bits, l.bytes());
    bits += l.bytes();
    at += classic ? l.bytes() : pad64(l.bytes());
  }
  put(p + payload, XXH3_64bits(p, payload), 8);
  return true;
}

bool image_to_rb_chain(const unsigned char *image, size_t len, RbChain *out,
                       std::vector<const unsigned char *> *link_bits, std::string *why) {
  if (len < kImageHeader + 8) return refuse(why, "the image is too short");
  const uint64_t kind = le(image + 14, 2);
  if (le(image + 16, 2) != BLOOM_HASH_REDISBLOOM ||
      (kind != BLOOM_KIND_CLASSIC && kind != BLOOM_KIND_SCALABLE))
    return refuse(why, "the filter is not of RedisBloom's hash kind");
  const uint64_t stages = le(image + 96, 4);
  const uint64_t payload = le(image + 72, 8);
  if (payload != len - kImageHeader - 8 || stages < 1 || stages > kRbMaxLinks)
    return refuse(why, "the image's sizes disagree");
  RbChain c;
  link_bits->clear();
  const unsigned char *p = image + kImageHeader;
  if (kind == BLOOM_KIND_CLASSIC) {
    RbLink l;
    l.hashes = le(image + 24, 4);
    l.bits = le(image + 40, 8);
    l.entries = le(image + 48, 8);
    l.error = as_double(le(image + 56, 8));
    l.size = le(image + 64, 8);
    if (l.bits / 8 != payload) return refuse(why, "the image's sizes disagree");
    c.options = RbChain::kNoRound | RbChain::kForce64 | RbChain::kNoScaling;
    c.links.push_back(l);
    link_bits->push_back(p);
  } else {
    c.options = RbChain::kNoRound | RbChain::kForce64;
    const double growth = as_double(le(image + 80, 8));
    if (!(growth >= 1.0 && growth <= static_cast<double>(kMaxGrowth)))
      return refuse(why, "the image's growth is not RedisBloom's");
    c.growth = static_cast<uint64_t>(growth);
    const uint64_t table = pad64(kDescriptor * stages);
    uint64_t at = table;
    for (uint64_t i = 0; i < stages; ++i) {
      if (at > payload) return refuse(why, "the image's sizes disagree");
      const unsigned char *d = p + kDescriptor * i;
      RbLink l;
      l.bits = le(d, 8);
      l.entries = le(d + 8, 8);
      l.size = le(d + 16, 8);
      l.error = as_double(le(d + 24, 8));
      l.hashes = le(d + 32, 4);
      if (l.bits % 64 != 0 || pad64(l.bits / 8) > payload - at)
        return refuse(why, "the image's sizes disagree");
      link_bits->push_back(p + at);
      at += pad64(l.bits / 8);
      c.links.push_back(l);
    }
  }
  for (const RbLink &l : c.links) c.size += l.size;
  c = saved_form(c);
  if (!check_rb_chain(c, why)) return false;
  *out = std::move(c);
  return true;
}

}  // namespace bloom_redis
