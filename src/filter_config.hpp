// filter_config.hpp -- everything that defines a filter's identity.
//
// These values are fixed at creation, stored in the file header, and compared
// field by field before two filters may be merged or intersected.
#pragma once

#include <cstdint>

#include "bloom/bloom.h"
#include "hash/hasher.hpp"

namespace bloom::core {

enum class Kind : int32_t { kClassic = 1, kPartitioned = 2, kBlocked = 3, kCounting = 4, kScalable = 5 };

inline bool is_valid_kind(int32_t v) { return v >= 1 && v <= 5; }

struct FilterConfig {
  Kind kind = Kind::kClassic;
  HashKind hash = HashKind::kXxh3;
  uint64_t seed = 0;
  uint32_t flags = 0;         // BLOOM_FLAG_*
  uint64_t capacity = 0;      // n it was sized for
  double fp_rate = 0;         // p it was sized for (0 when m, k were explicit)
  uint64_t bits = 0;          // m (counters for counting; first stage for scalable)
  uint32_t hashes = 0;        // k
  uint32_t counter_bits = 0;  // counting only
  double growth = 0;          // scalable only
  double tightening = 0;      // scalable only

  bool concurrent() const { return (flags & BLOOM_FLAG_CONCURRENT) != 0; }
  bool enhanced_probes() const { return (flags & BLOOM_FLAG_PLAIN_DOUBLE_HASHING) == 0; }
  bool key_hash64() const;
};

// The flags a caller may pass in bloom_options (and bloom_info reports).
inline constexpr uint32_t kKnownFlags = BLOOM_FLAG_CONCURRENT | BLOOM_FLAG_PLAIN_DOUBLE_HASHING;

// A format flag, never a bloom_options flag: the key is hashed to 64 bits
// (XXH3-64 with the filter's seed) and that one value serves as both h1 and
// h2. Set by the library on every new blocked filter hashed with XXH3
// (format 1.1): the blocked kind reads only h1 (its line) and the low 32 bits
// of h2 (its in-line seed), so the 128-bit hash was ~20 instructions of a
// ~70-instruction query spent on bits nobody used. Files without the flag
// (format 1.0) keep hashing with XXH3-128, so their bits still mean what
// they meant. docs/FORMAT.md, "How a key becomes bits".
inline constexpr uint32_t kFlagKeyHash64 = 1u << 16;
// Every flag a file may carry.
inline constexpr uint32_t kFileFlags = kKnownFlags | kFlagKeyHash64;

inline bool FilterConfig::key_hash64() const { return (flags & kFlagKeyHash64) != 0; }

// Whether new filters of this kind and hash get kFlagKeyHash64.
inline bool uses_key_hash64(Kind kind, HashKind hash) {
  return kind == Kind::kBlocked && hash == HashKind::kXxh3;
}

}  // namespace bloom::core
