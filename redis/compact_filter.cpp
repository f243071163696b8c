// SPDX-License-Identifier: Apache-2.0
#include "compact_filter.hpp"

#include <bloom/bloom.h>

#include <cmath>
#include <cstring>
#include <new>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "admit_filter.hpp"
#include "filter_params.hpp"
#include "image_bytes.hpp"
#include "redisbloom_chain.hpp"

namespace bloom_redis {

static_assert(sizeof(void *) != 8 || sizeof(CompactFilter) == 48, "CompactFilter is not 48 bytes");

CompactFilter *CompactFilter::make(uint64_t words) {
  void *p = server_alloc(sizeof(CompactFilter));
  if (p == nullptr) return nullptr;
  auto *c = new (p) CompactFilter;
  c->words_ = static_cast<uint64_t *>(server_alloc(words * 8));
  if (c->words_ == nullptr) {
    delete c;
    return nullptr;
  }
  std::memset(c->words_, 0, words * 8);
  return c;
}

namespace {

using image_bytes::as_double;
using image_bytes::kChecksum;
using image_bytes::kDescriptor;
using image_bytes::kHeader;
using image_bytes::le;
using image_bytes::pad64;
using image_bytes::put;

// Flag 0x20000 of the image (docs/FORMAT.md): each probe value is mixed.
constexpr uint64_t kImageMixedProbes = 0x20000;

// Where the stage's bits start in the image: after the header, and for a
// scalable filter after its stage table (one 40-byte entry, padded to 64).
uint64_t bits_offset(bool scalable) { return kHeader + (scalable ? pad64(kDescriptor) : 0); }

// A key's probe positions, as the live filter computes them
// (docs/FORMAT.md, "How a key becomes bits"). XXH3: the key's XXH3-128
// value (x, y) gives k probe values by double hashing, each mixed when
// the filter says so, then mapped to a bit by the multiply-high (bloom.h's
// bloom_classic_view). RedisBloom's hash: bit (a + i b) mod m of its
// MurmurHash64A pair (bloom_hash_key), as RedisBloom sets them.
class Probes {
 public:
  Probes(const CompactFilter &c, const void *key, size_t len)
      : m_(c.bits),
        enhanced_((c.flags & CompactFilter::kEnhanced) != 0),
        mixed_((c.flags & CompactFilter::kMixed) != 0),
        modulo_((c.flags & CompactFilter::kRedisBloomHash) != 0) {
    if (modulo_) {
      uint64_t h[2] = {0, 0};
      // Cannot fail: a known hash kind and out given.
      bloom_hash_key(BLOOM_HASH_REDISBLOOM, kRedisBloomSeed, key, len, h);
      x_ = h[0];
      y_ = h[1];
      return;
    }
    const XXH128_hash_t h = XXH3_128bits_withSeed(key, len, 0);
    x_ = h.low64;
    y_ = h.high64;
  }
  uint64_t next() {
    if (modulo_) return (x_ + i_++ * y_) % m_;
    uint64_t g = x_;
    x_ += y_;
    if (enhanced_) y_ += ++i_;
    if (mixed_) g = (g ^ (g >> 32)) * 0x9E3779B97F4A7C15u;
    return static_cast<uint64_t>((static_cast<unsigned __int128>(g) * m_) >> 64);
  }

 private:
  uint64_t x_, y_, i_ = 0, m_;
  bool enhanced_, mixed_, modulo_;
};

// Whether every probed bit is set.
bool all_set(const CompactFilter &c, const void *key, size_t len) {
  Probes p(c, key, len);
  const uint64_t *words = c.words();
  for (unsigned i = 0; i < c.hashes; ++i) {
    const uint64_t pos = p.next();
    if ((words[pos >> 6] >> (pos & 63) & 1) == 0) return false;
  }
  return true;
}

// Sets every probed bit; returns whether all were set already (one pass,
// as the library's test-and-add).
bool set_all(CompactFilter &c, const void *key, size_t len) {
  Probes p(c, key, len);
  uint64_t *words = c.words();
  bool all = true;
  for (unsigned i = 0; i < c.hashes; ++i) {
    const uint64_t pos = p.next();
    const uint64_t bit = uint64_t{1} << (pos & 63);
    all = all && (words[pos >> 6] & bit) != 0;
    words[pos >> 6] |= bit;
  }
  return all;
}

}  // namespace

bool compact_image(const CompactFilter &c, ServerBytes *out, std::string *error) {
  // An empty filter of the same parameters gives every field of the image
  // but the bits and the counts, which are then written in. Its size
  // follows from the capacity and rate alone, which a forged value need
  // not match to its bits (the fuzzer's RedisBloom chain of 4e9 items in
  // 64 bytes asked for gigabytes): past four times the largest compact
  // filter no such filter can be its image, and none is made.
  uint64_t bits = 0;
  uint32_t hashes = 0;
  if (bloom_optimal_params(c.capacity, c.fp_rate / 2, &bits, &hashes) != BLOOM_OK ||
      bits > 4 * 8 * kCompactMaxBytes) {
    *error = "rebuilding a small filter: its capacity and rate make a large one";
    return false;
  }
  bloom_options o;
  bloom_options_init(&o);
  o.kind = c.scalable() ? BLOOM_KIND_SCALABLE : BLOOM_KIND_CLASSIC;
  o.capacity = c.capacity;
  o.fp_rate = c.fp_rate;
  if ((c.flags & CompactFilter::kRedisBloomHash) != 0) o.hash = BLOOM_HASH_REDISBLOOM;
  if ((c.flags & CompactFilter::kEnhanced) == 0) o.flags |= BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
  if (c.scalable()) {
    o.growth = c.growth;
    o.tightening = kTightening;
  }
  bloom_filter *empty = nullptr;
  bloom_status st = bloom_create(&o, &empty);
  if (st != BLOOM_OK) {
    *error = bloom_error("rebuilding a small filter", st);
    return false;
  }
  const bool serialized = serialize_filter(empty, out, error);
  bloom_destroy(empty);
  if (!serialized) return false;
  const uint64_t bytes = c.word_count() * 8;
  const uint64_t at = bits_offset(c.scalable());
  if (out->size() < at + bytes + kChecksum) {
    *error = "rebuilding a small filter: the image is shorter than its bits";
    return false;
  }
  unsigned char *h = out->data();
  std::memcpy(h + at, c.words(), bytes);
  put(h + 64, c.calls, 8);
  if (c.scalable()) put(h + kHeader + 16, c.items, 8);
  put(h + 120, XXH3_64bits(h, 120), 8);
  const uint64_t payload = out->size() - kHeader - kChecksum;
  put(h + kHeader + payload, XXH3_64bits(h + kHeader, payload), 8);
  return true;
}

CompactFilter *compact_form(const FilterValue &v) {
  if (v.loading() || v.transfer || v.forgets_keys || !v.idempotent_add || v.shape.stages != 1 ||
      v.shape.bit_bytes > kCompactMaxBytes ||
      (v.shape.kind != BLOOM_KIND_CLASSIC && v.shape.kind != BLOOM_KIND_SCALABLE))
    return nullptr;
  ServerBytes image;
  std::string error;
  if (!serialize_filter(v.filter, &image, &error) || image.size() < kHeader + kChecksum) return nullptr;
  const unsigned char *h = image.data();
  const bool scalable = le(h + 14, 2) == BLOOM_KIND_SCALABLE;
  const unsigned char *stage = h + kHeader;  // a scalable filter's one table entry
  const uint64_t bits = scalable ? le(stage, 8) : le(h + 40, 8);
  const uint64_t hashes = scalable ? le(stage + 32, 4) : le(h + 24, 4);
  const uint64_t capacity = le(h + 48, 8);
  const double growth = scalable ? as_double(le(h + 80, 8)) : 0;
  const uint64_t flags = le(h + 20, 4);
  const uint64_t hash = le(h + 16, 2);
  const bool xxh3 = hash == BLOOM_HASH_XXH3 && le(h + 32, 8) == 0;
  const bool redisbloom = hash == BLOOM_HASH_REDISBLOOM && le(h + 32, 8) == kRedisBloomSeed;
  if (!(xxh3 || redisbloom) || bits == 0 || bits / 8 > kCompactMaxBytes || hashes == 0 || hashes > 255 ||
      capacity == 0 || capacity > UINT32_MAX || (scalable && le(stage + 8, 8) != capacity) ||
      (scalable && !(growth >= 1 && growth <= UINT32_MAX && growth == std::floor(growth))))
    return nullptr;
  const uint64_t words = (bits + 63) / 64;
  if (image.size() < bits_offset(scalable) + words * 8 + kChecksum) return nullptr;

  CompactFilter *c = CompactFilter::make(words);
  if (c == nullptr) return nullptr;
  c->hashes = static_cast<uint8_t>(hashes);
  c->flags =
      static_cast<uint8_t>((scalable ? CompactFilter::kScalable : 0) |
                           ((flags & BLOOM_FLAG_PLAIN_DOUBLE_HASHING) == 0 ? CompactFilter::kEnhanced : 0) |
                           ((flags & kImageMixedProbes) != 0 ? CompactFilter::kMixed : 0) |
                           (redisbloom ? CompactFilter::kRedisBloomHash : 0) |
                           (v.redisbloom_form ? CompactFilter::kRedisBloomForm : 0));
  c->growth = static_cast<uint32_t>(growth);
  c->bits = static_cast<uint32_t>(bits);
  c->capacity = static_cast<uint32_t>(capacity);
  c->fp_rate = as_double(le(h + 56, 8));
  c->calls = le(h + 64, 8);
  c->items = scalable ? le(stage + 16, 8) : c->calls;
  std::memcpy(c->words(), h + bits_offset(scalable), words * 8);
  // Kept only if nothing is lost: the image rebuilt from the compact form
  // is the live filter's, and the counts are the value's.
  ServerBytes rebuilt;
  if (c->items != v.items || !compact_image(*c, &rebuilt, &error) || rebuilt != image) {
    delete c;
    return nullptr;
  }
  return c;
}

FilterValue *expand_compact(const CompactFilter &c, std::string *error) {
  ServerBytes image;
  if (!compact_image(c, &image, error)) return nullptr;
  FilterValue *v = admit_image(image.data(), image.size(), error);
  if (v != nullptr) v->redisbloom_form = (c.flags & CompactFilter::kRedisBloomForm) != 0;
  return v;
}

CompactFilter *copy_compact(const CompactFilter &c) {
  CompactFilter *copy = CompactFilter::make(c.word_count());
  if (copy == nullptr) return nullptr;
  copy->hashes = c.hashes;
  copy->flags = c.flags;
  copy->growth = c.growth;
  copy->bits = c.bits;
  copy->capacity = c.capacity;
  copy->fp_rate = c.fp_rate;
  copy->items = c.items;
  copy->calls = c.calls;
  std::memcpy(copy->words(), c.words(), c.word_count() * 8);
  return copy;
}

bool compact_query(const CompactFilter &c, const void *key, size_t len) { return all_set(c, key, len); }

int compact_add(CompactFilter &c, const void *key, size_t len, std::string *error) {
  if (c.items >= c.capacity) {
    // A full stage: a present key changes nothing (a scalable filter
    // counts the call); a new one grows a stage, which only the live
    // filter does (with its byte limit), or a non-scaling filter refuses.
    if (compact_query(c, key, len)) {
      if (c.scalable()) ++c.calls;
      return 0;
    }
    if (c.scalable()) return kNeedsLiveFilter;
    *error = "ERR non scaling filter is full";
    return -1;
  }
  // As the library counts: a scalable filter's keys_added counts every
  // add, a classic one's new keys only.
  if (c.scalable()) ++c.calls;
  if (set_all(c, key, len)) return 0;
  ++c.items;
  if (!c.scalable()) ++c.calls;
  return 1;
}

bool live_image(const StoredValue &s, ServerBytes *out, std::string *error) {
  if (const CompactFilter *c = as_compact(&s)) return compact_image(*c, out, error);
  return serialize_filter(static_cast<const FilterValue &>(s).filter, out, error);
}

FilterShape compact_shape(const CompactFilter &c) {
  FilterShape s;
  s.kind = c.scalable() ? BLOOM_KIND_SCALABLE : BLOOM_KIND_CLASSIC;
  s.stages = 1;
  s.capacity = c.capacity;
  s.fp_rate = c.fp_rate;
  s.growth = c.scalable() ? c.growth : 0;
  s.bit_bytes = c.word_count() * 8;
  return s;
}

size_t compact_memory(const CompactFilter &c) { return block_size(&c) + block_size(c.words()); }

}  // namespace bloom_redis
