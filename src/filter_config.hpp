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
};

inline constexpr uint32_t kKnownFlags = BLOOM_FLAG_CONCURRENT | BLOOM_FLAG_PLAIN_DOUBLE_HASHING;

}  // namespace bloom::core
