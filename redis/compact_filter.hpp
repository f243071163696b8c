// SPDX-License-Identifier: Apache-2.0
// compact_filter.hpp -- a small filter kept as its bits and a few counts.
//
// Many deployments keep a filter per user or per session: thousands of keys
// each holding a filter of a few hundred items. As a live bloom filter such
// a key pays for the library's scalable and stage objects and the module's
// value (768 bytes in jemalloc's blocks) beside its bits (1,024 bytes for
// BF.RESERVE k 0.05 1000), where RedisBloom pays about 80. So a filter with
// one stage of at most kCompactMaxBytes of bits, of the classic or scalable
// kind hashing with XXH3 or RedisBloom's hash, is stored as a
// CompactFilter: 48 bytes and its bit array. BF.ADD, BF.MADD, BF.INSERT,
// BF.EXISTS, BF.MEXISTS and BF.CARD work on it directly with the live
// filter's probes (bloom.h's bloom_classic_view and bloom_hash_key describe
// them); anything else -- a second stage, a merge, BF.INFO, a save -- works
// on the live filter it stands for, rebuilt from bloom's image of it
// (expand_compact), which is byte for byte the image the live filter would
// have after the same adds.
//
// A value is compacted only after that exactness is checked: compact_form
// rebuilds the image from the compact form and compares it with the live
// filter's, and keeps the live filter when they differ (another seed,
// growth or hash: a file made elsewhere).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "filter_value.hpp"
#include "server_allocator.hpp"

namespace bloom_redis {

// Bits of a compact filter at most (64 KiB): past it the 768 bytes a live
// filter costs are under 1.2 % of the value, and the library's batched
// adds, which prefetch, pay off.
inline constexpr uint64_t kCompactMaxBytes = 64 * 1024;

// 48 bytes on 64-bit hosts (compact_filter.cpp checks), jemalloc's 48-byte
// class, and the bit array in a block of its own: BF.RESERVE k 0.05 1000
// takes 48 + 1,024 bytes, MEMORY USAGE 1,104 with the key's entry: the
// figure RedisBloom's own test of that filter expects on Redis 7
// (test_mem_usage). One block for both took 1,024 (968 bytes of bits + 40),
// 1,056 in all, which that test refuses.
struct CompactFilter : StoredValue {
  enum Flag : uint8_t {
    kScalable = 1,
    kEnhanced = 2,
    kMixed = 4,
    kRedisBloomHash = 8,   // RedisBloom's hash and modulo probes
    kRedisBloomForm = 16,  // FilterValue::redisbloom_form of the live filter
  };

  // A filter of `words` 64-bit words of bits (zeroed), NULL when out of
  // memory. `delete` frees it.
  static CompactFilter *make(uint64_t words);
  CompactFilter(const CompactFilter &) = delete;
  CompactFilter &operator=(const CompactFilter &) = delete;
  ~CompactFilter() { server_free(words_); }
  static void operator delete(void *p) noexcept { server_free(p); }

  bool scalable() const { return (flags & kScalable) != 0; }
  uint64_t word_count() const { return (uint64_t{bits} + 63) / 64; }
  uint64_t *words() { return words_; }
  const uint64_t *words() const { return words_; }

  uint8_t hashes = 0;     // k
  uint8_t flags = 0;      // Flag bits
  uint32_t growth = 0;    // a scalable filter's expansion
  uint32_t bits = 0;      // m (at most 8 kCompactMaxBytes)
  uint32_t capacity = 0;  // the stage's capacity, as BF.INFO reports it
  double fp_rate = 0;     // the filter's error rate
  uint64_t items = 0;     // distinct keys added (BF.CARD, the stage's count)
  uint64_t calls = 0;     // the filter's keys_added (a scalable filter counts repeats too)

 private:
  CompactFilter() { form = ValueForm::kCompact; }
  uint64_t *words_ = nullptr;  // word_count() words, from Redis's allocator
};

// s's compact form, or NULL when s is a FilterValue.
inline const CompactFilter *as_compact(const StoredValue *s) {
  return s->form == ValueForm::kCompact ? static_cast<const CompactFilter *>(s) : nullptr;
}
inline CompactFilter *as_compact(StoredValue *s) {
  return s->form == ValueForm::kCompact ? static_cast<CompactFilter *>(s) : nullptr;
}

// s when it is a value a BF.LOADCHUNK restore is still filling, else NULL.
inline const FilterValue *restoring(const StoredValue *s) {
  const auto *v = static_cast<const FilterValue *>(s);
  return as_compact(s) == nullptr && v->loading() ? v : nullptr;
}

// bloom's image of a live value in either form (not one a BF.LOADCHUNK
// restore is still filling): what saves, dumps and digests read. Returns
// false with *error set.
bool live_image(const StoredValue &s, ServerBytes *out, std::string *error);

// The compact form of v, or NULL when v has none (more than one stage,
// another kind or hash, over kCompactMaxBytes, a transfer under way, the
// rebuilt image differs, out of memory). v is not changed.
CompactFilter *compact_form(const FilterValue &v);

// bloom's image of the filter c stands for. Returns false with *error set.
bool compact_image(const CompactFilter &c, ServerBytes *out, std::string *error);

// The live filter c stands for, as a new value. NULL with *error set.
FilterValue *expand_compact(const CompactFilter &c, std::string *error);

// A copy of c (COPY). NULL when out of memory.
CompactFilter *copy_compact(const CompactFilter &c);

// Whether the key may be in c: bloom_query's answer.
bool compact_query(const CompactFilter &c, const void *key, size_t len);

// compact_add's answer when c cannot take the add: a new key for a
// scalable filter whose stage is full grows a stage, which only the live
// filter does.
inline constexpr int kNeedsLiveFilter = 2;

// add_item on the compact form: 1 new, 0 maybe present (nothing changed),
// -1 with *error set (a full non-scaling filter refuses new keys), or
// kNeedsLiveFilter (nothing changed).
int compact_add(CompactFilter &c, const void *key, size_t len, std::string *error);

// The live filter's shape (bloom_get_info's parameters, FilterShape),
// from c's own fields: BF.INFO answers a compact filter in O(1), as it does
// a live one from its cached shape.
FilterShape compact_shape(const CompactFilter &c);

// Bytes c holds in Redis's allocator, each block as the allocator sized it.
size_t compact_memory(const CompactFilter &c);

}  // namespace bloom_redis
