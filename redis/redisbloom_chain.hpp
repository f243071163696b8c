// SPDX-License-Identifier: Apache-2.0
// redisbloom_chain.hpp -- RedisBloom's Bloom filter ("MBbloom--", a chain of
// sub-filters) as data: its BF.SCANDUMP header, the fields of its RDB
// encoding, and the conversion to and from bloom's own image of a filter of
// the RedisBloom hash kind (BLOOM_HASH_REDISBLOOM: docs/FORMAT.md).
//
// Written from RedisBloom's documented behaviour and checked against its
// output (redis/tests/fixtures/redisbloom): no RedisBloom code is used.
//
// A chain has a count of items, options (1 NOROUND, 2 ENTS_IS_BITS,
// 4 FORCE64, 8 NO_SCALING), an integer growth and its links; each link has
// entries (its capacity), error, hashes, bits per entry (bpe), bits (a
// multiple of 64), n2 (0, or log2 of a power-of-two size), its count of
// items and bits / 8 bytes of bits. This module serves the chains
// RedisBloom 2.0 and later make: FORCE64 (MurmurHash64A) with NOROUND.
// Everything read is checked before it sizes an allocation; a chain that
// fails a check is refused with the reason, never half-built.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "server_allocator.hpp"

namespace bloom_redis {

struct RbLink {
  uint64_t entries = 0;  // capacity
  double error = 0;
  uint64_t hashes = 0;
  double bpe = 0;
  uint64_t bits = 0;
  uint64_t n2 = 0;
  uint64_t size = 0;  // items added to this link
  uint64_t bytes() const { return bits / 8; }
};

struct RbChain {
  uint64_t size = 0;  // items added
  uint64_t options = 0;
  uint64_t growth = 2;
  std::vector<RbLink> links;

  bool nonscaling() const { return (options & kNoScaling) != 0; }
  // Bytes of bits of all links (valid after check_rb_chain).
  uint64_t bit_bytes() const;

  static constexpr uint64_t kNoRound = 1, kEntsIsBits = 2, kForce64 = 4, kNoScaling = 8;
};

// The data type name and encoding version RedisBloom writes.
inline constexpr const char *kRbTypeName = "MBbloom--";
inline constexpr int kRbEncoding = 4;
// Sub-filters accepted in one chain: the library's scalable stage limit.
inline constexpr uint64_t kRbMaxLinks = 1024;
// RedisBloom's hash seed (MurmurHash64A's first), which its filters, and
// bloom's of its hash kind, record in the image's seed field.
inline constexpr uint64_t kRedisBloomSeed = 0xc6a4a7935bd1e995ULL;

// Reads BF.SCANDUMP's first chunk (a packed little-endian header: size u64,
// nfilters u32, options u32, growth u32, then per link bytes u64, bits u64,
// size u64, error f64, bpe f64, hashes u32, entries u64, n2 u8).
bool parse_rb_header(const unsigned char *data, size_t len, RbChain *out, std::string *why);

// BF.SCANDUMP's first chunk for a chain, as RedisBloom writes it (the
// layout parse_rb_header reads). Throws std::bad_alloc.
ServerBytes rb_header_bytes(const RbChain &c);

// The one check of a chain, for every way one arrives (RESTORE and RDB
// load of "MBbloom--", BF.LOADCHUNK of RedisBloom's stream, and the save's
// own self-check): whether this module can serve it exactly as RedisBloom
// did AND write it back in a form that passes this check again. A save
// keeps only what bloom's image holds and derives the rest (saved_form), so
// a chain is accepted only when its saved form is accepted too: a value
// whose error rate disagreed with its bits per entry once loaded, then
// saved a chain its load refused, and the server could not restart.
bool check_rb_chain(const RbChain &c, std::string *why);

// The chain as a save writes it back: each link's bits per entry derived
// from its error rate (RedisBloom's calc_bpe: |ln e| / ln(2)^2), the
// options RedisBloom 2.0+ writes (NOROUND | FORCE64, plus NO_SCALING), and
// growth 2 for a NO_SCALING chain (bloom's classic filter keeps none).
RbChain saved_form(const RbChain &c);

// Total capacity a chain may declare: BF.INFO answers it as a signed
// 64-bit integer, and no chain RedisBloom builds comes near it.
inline constexpr uint64_t kRbMaxCapacity = (uint64_t{1} << 63) - 1;

// bloom's image (format 1.4) of the chain: a classic filter for a
// NO_SCALING chain, else a scalable one; bits holds bit_bytes() bytes,
// the links' bytes in order. The image still goes through
// bloom_deserialize, which validates it again.
bool rb_chain_to_image(const RbChain &c, const unsigned char *bits, ServerBytes *out, std::string *why);

// The size of that image (valid after check_rb_chain): what the filter
// will serialize to, which MAX_FILTER_BYTES limits.
uint64_t rb_image_size(const RbChain &c);

// The chain of a serialized filter of the RedisBloom hash kind (classic or
// scalable), with a pointer into image to each link's bytes.
bool image_to_rb_chain(const unsigned char *image, size_t len, RbChain *out,
                       std::vector<const unsigned char *> *link_bits, std::string *why);

}  // namespace bloom_redis
