// SPDX-License-Identifier: Apache-2.0
// golden_cases.hpp -- the filters pinned in tests/golden/.
//
// Each case is written once by bloom_make_golden (tests/golden/make_golden.cpp)
// as <name>.bloom plus <name>.answers, committed, and never rewritten: every
// later version of the library must read it and answer exactly as recorded
// (RocksDB's "schema" test idea). Append new cases; never edit an old row.
#pragma once

#include <cstdint>
#include <string>

#include "bloom/bloom.h"

namespace bloom::golden {

struct Case {
  const char *name;
  int32_t kind;
  int32_t hash;
  uint64_t seed;
  uint32_t flags;
  uint64_t capacity;
  double fp_rate;
  uint64_t keys;  // "golden-key-0" .. "golden-key-<keys-1>" are added
  // false for a file in a layout bloom_create no longer makes (format 1.0
  // blocked filters use layout 1, new ones layout 2; format 1.0 classic,
  // partitioned, counting and scalable filters unmixed probes, new ones mixed
  // probes of format 1.2): the test then re-adds the keys to the loaded
  // filter instead of building a new one, which still pins that every key
  // sets the same bits.
  bool built_by_create = true;
  // false for a filter sized differently since it was recorded (scalable
  // stages of at most 4096 bits are sized by the exact rate since 0.2: the
  // small stages of these files are the textbook formula's): the file must
  // still load and answer as recorded, but rebuilding it, or re-adding its
  // keys after clear(), which starts the stages anew, gives other m.
  bool sized_as_now = true;
  // Window kind: 0 = a count window of `capacity` keys; > 0 = a time window
  // whose clock build() advances 5 ms before each key (first at 1,000 ms).
  uint64_t window_ms = 0;
};

inline constexpr Case kCases[] = {
    {"classic_xxh3_v1", BLOOM_KIND_CLASSIC, BLOOM_HASH_XXH3, 0, 0, 1000, 0.01, 1000, false},
    {"classic_murmur3_v1", BLOOM_KIND_CLASSIC, BLOOM_HASH_MURMUR3, 7, 0, 1000, 0.01, 800, false},
    {"classic_fnv1a_plain_v1", BLOOM_KIND_CLASSIC, BLOOM_HASH_FNV1A, 0x1234567890abcdefULL,
     BLOOM_FLAG_PLAIN_DOUBLE_HASHING, 500, 0.001, 500, false},
    {"counting_xxh3_v1", BLOOM_KIND_COUNTING, BLOOM_HASH_XXH3, 0, 0, 1000, 0.01, 1000, false},
    {"counting_murmur3_plain_v1", BLOOM_KIND_COUNTING, BLOOM_HASH_MURMUR3, 11,
     BLOOM_FLAG_PLAIN_DOUBLE_HASHING, 500, 0.02, 400, false},
    {"scalable_xxh3_v1", BLOOM_KIND_SCALABLE, BLOOM_HASH_XXH3, 0, 0, 200, 0.01, 2000, false,
     false},  // 4 stages
    {"scalable_fnv1a_plain_v1", BLOOM_KIND_SCALABLE, BLOOM_HASH_FNV1A, 42, BLOOM_FLAG_PLAIN_DOUBLE_HASHING,
     100, 0.001, 1000, false, false},  // 4 stages
    {"partitioned_xxh3_v1", BLOOM_KIND_PARTITIONED, BLOOM_HASH_XXH3, 0, 0, 1000, 0.01, 1000, false},
    {"partitioned_murmur3_plain_v1", BLOOM_KIND_PARTITIONED, BLOOM_HASH_MURMUR3, 11,
     BLOOM_FLAG_PLAIN_DOUBLE_HASHING, 700, 0.001, 700, false},
    {"blocked_xxh3_v1", BLOOM_KIND_BLOCKED, BLOOM_HASH_XXH3, 0, 0, 1000, 0.01, 1000, false},
    {"blocked_fnv1a_v1", BLOOM_KIND_BLOCKED, BLOOM_HASH_FNV1A, 0xfeedfacecafebeefULL, 0, 2000, 0.0001, 1500,
     false},
    // Format 1.1: blocked layout 2 (salted in-line multipliers; XXH3-64 keys).
    {"blocked_xxh3_v1_1", BLOOM_KIND_BLOCKED, BLOOM_HASH_XXH3, 0, 0, 1000, 0.01, 1000},
    {"blocked_xxh3_seeded_v1_1", BLOOM_KIND_BLOCKED, BLOOM_HASH_XXH3, 0x0123456789abcdefULL, 0, 3000, 0.0001,
     2500},
    {"blocked_murmur3_v1_1", BLOOM_KIND_BLOCKED, BLOOM_HASH_MURMUR3, 99, 0, 1000, 1e-6, 1000},  // k = 20
    // Format 1.2: mixed probes for the kinds that probe a whole array.
    {"classic_xxh3_v1_2", BLOOM_KIND_CLASSIC, BLOOM_HASH_XXH3, 0, 0, 1000, 0.01, 1000},
    {"classic_murmur3_plain_v1_2", BLOOM_KIND_CLASSIC, BLOOM_HASH_MURMUR3, 7, BLOOM_FLAG_PLAIN_DOUBLE_HASHING,
     1000, 1e-6, 1000},  // k = 20
    {"partitioned_fnv1a_v1_2", BLOOM_KIND_PARTITIONED, BLOOM_HASH_FNV1A, 11, 0, 700, 0.001, 700},
    {"counting_xxh3_v1_2", BLOOM_KIND_COUNTING, BLOOM_HASH_XXH3, 0, 0, 1000, 0.01, 1000},
    {"scalable_xxh3_v1_2", BLOOM_KIND_SCALABLE, BLOOM_HASH_XXH3, 0, 0, 200, 0.01, 2000, true,
     false},  // 4 stages
    // Library 0.2: filters of at most 4096 bits sized by the exact rate.
    {"scalable_xxh3_v1_2_exact", BLOOM_KIND_SCALABLE, BLOOM_HASH_XXH3, 0, 0, 200, 0.01, 2000},  // 4 stages
    {"classic_xxh3_v1_2_exact", BLOOM_KIND_CLASSIC, BLOOM_HASH_XXH3, 0, 0, 20, 0.01, 20},  // m 192 -> 194
    {"partitioned_xxh3_v1_2_exact", BLOOM_KIND_PARTITIONED, BLOOM_HASH_XXH3, 0, 0, 5, 0.01, 5},
    // Format 1.4: split blocks (32-byte blocks, k = 8), XXH3-64 and a 128-bit hash.
    {"blocked_split_xxh3_v1_4", BLOOM_KIND_BLOCKED, BLOOM_HASH_XXH3, 0, BLOOM_FLAG_SPLIT_BLOCK, 1000, 0.01, 1000},
    {"blocked_split_murmur3_v1_4", BLOOM_KIND_BLOCKED, BLOOM_HASH_MURMUR3, 0x5eedULL, BLOOM_FLAG_SPLIT_BLOCK, 700,
     0.0001, 700},
    // Format 1.3: the window kind. 1,000 keys in a count window of 1,000
    // retire 23 generations (g = 42), so the ring's position is pinned too;
    // the time window's keys span 5 s of a 6 s window (l = 61: generations of
    // 99 ms, about 20 keys each, under g = 25).
    // New windows are blocked since 1.4: the 1.3 files are rebuilt in their
    // loaded layout (count), or only loaded (time: re-adding after a clear
    // would need the clock replayed).
    {"window_xxh3_v1_3", BLOOM_KIND_WINDOW, BLOOM_HASH_XXH3, 0, 0, 1000, 0.01, 1000, false},
    {"window_murmur3_plain_time_v1_3", BLOOM_KIND_WINDOW, BLOOM_HASH_MURMUR3, 5,
     BLOOM_FLAG_PLAIN_DOUBLE_HASHING, 1500, 0.001, 1000, true, false, 6000},
    // Format 1.4: the window kind's blocked layout (8 slices to a line), the
    // same two cases.
    {"window_xxh3_v1_4", BLOOM_KIND_WINDOW, BLOOM_HASH_XXH3, 0, 0, 1000, 0.01, 1000},
    {"window_murmur3_plain_time_v1_4", BLOOM_KIND_WINDOW, BLOOM_HASH_MURMUR3, 5,
     BLOOM_FLAG_PLAIN_DOUBLE_HASHING, 1500, 0.001, 1000, true, true, 6000},
    // Format 1.4: RedisBloom's hashing, bit positions and sizing (seed 0 =
    // RedisBloom's fixed seed); the shapes of fixtures f3 and f2 of
    // redis/tests/fixtures/redisbloom (the scalable one grows 5 stages).
    {"classic_redisbloom_v1_4", BLOOM_KIND_CLASSIC, BLOOM_HASH_REDISBLOOM, 0, 0, 10000, 0.0001, 5000},
    {"scalable_redisbloom_v1_4", BLOOM_KIND_SCALABLE, BLOOM_HASH_REDISBLOOM, 0, 0, 100, 0.001, 2000},
};

inline constexpr uint64_t kProbeCount = 4000;  // "golden-probe-<i>" answers are recorded

inline std::string key(uint64_t i) { return "golden-key-" + std::to_string(i); }
inline std::string probe(uint64_t i) { return "golden-probe-" + std::to_string(i); }

// Builds the case's filter with the current library (nullptr on failure).
inline bloom_filter *build(const Case &c) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = c.kind;
  o.hash = c.hash;
  o.seed = c.seed;
  o.flags = c.flags;
  o.capacity = c.capacity;
  o.fp_rate = c.fp_rate;
  o.window_ms = c.window_ms;
  bloom_filter *f = nullptr;
  if (bloom_create(&o, &f) != BLOOM_OK) return nullptr;
  for (uint64_t i = 0; i < c.keys; ++i) {
    const std::string k = key(i);
    if (c.window_ms != 0 && bloom_advance(f, 1000 + 5 * i) != BLOOM_OK) {
      bloom_destroy(f);
      return nullptr;
    }
    if (bloom_add(f, k.data(), k.size()) != BLOOM_OK) {
      bloom_destroy(f);
      return nullptr;
    }
  }
  return f;
}

}  // namespace bloom::golden
