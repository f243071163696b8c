// SPDX-License-Identifier: Apache-2.0
// filter_config.hpp -- everything that defines a filter's identity.
//
// These values are fixed at creation, stored in the file header, and compared
// field by field before two filters may be merged or intersected.
#pragma once

#include <cstdint>

#include "bloom/bloom.h"
#include "hash/hasher.hpp"

namespace bloom::core {

// The kinds' numbers (bloom_kind); kind_table.hpp says what each one is.
enum class Kind : int32_t {
  kClassic = 1,
  kPartitioned = 2,
  kBlocked = 3,
  kCounting = 4,
  kScalable = 5,
  kWindow = 6
};

// How a key's k probe values come from its hash (h1, h2), as one
// identifier (Guava's strategy ordinal plays this part): plain or enhanced
// double hashing (probe.hpp), with the values mixed or not (format 1.2).
// Derived from the stored flags and hash by FilterConfig::probe_scheme(); the
// blocked kind has its own in-line scheme and ignores it. kModulo is
// RedisBloom's (format 1.4): plain double hashing reduced mod m instead of
// by a multiply-high, implied by the redisbloom hash and taken only by the
// kinds whose row says so (kind_table.hpp: classic, and scalable's classic
// stages); is_enhanced and is_mixed are false for it.
enum class ProbeScheme : uint8_t {
  kPlain = 0,
  kEnhanced = 1,
  kPlainMixed = 2,
  kEnhancedMixed = 3,
  kModulo = 4
};
constexpr bool is_enhanced(ProbeScheme s) { return (static_cast<unsigned>(s) & 1u) != 0; }
constexpr bool is_mixed(ProbeScheme s) { return (static_cast<unsigned>(s) & 2u) != 0; }

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
  // Window only (kinds/window.hpp): the shape is part of the identity; the
  // ring's state (newest slice, generation, clock) is not.
  uint64_t window_ms = 0;          // 0 = count window
  uint32_t window_l = 0;           // l: extra slices beyond k
  uint64_t window_generation = 0;  // g: insertions per generation
  uint64_t window_slice_bits = 0;  // m: bits per slice (bits = (k + l) m)

  bool concurrent() const { return (flags & BLOOM_FLAG_CONCURRENT) != 0; }
  bool enhanced_probes() const { return (flags & BLOOM_FLAG_PLAIN_DOUBLE_HASHING) == 0; }
  bool blocked_layout2() const;
  bool split_block() const { return (flags & BLOOM_FLAG_SPLIT_BLOCK) != 0; }
  bool mixed_probes() const;
  bool window_blocked() const;
  bool key_hash64() const;  // blocked layout 2 with XXH3: keys hash to 64 bits
  // RedisBloom's positions, (h1 + i h2) mod m (kinds/classic_modulo.cpp),
  // which its hash kind implies: a filter of that kind answers as RedisBloom.
  // Guava's and bits-and-blooms' positions (format 1.5) are reduced mod m
  // too (interop/foreign_hash.hpp).
  bool modulo_probes() const {
    return hash == HashKind::kRedisBloom || hash == HashKind::kGuava || hash == HashKind::kBitsAndBlooms;
  }
  // Another system's hash and positions (format 1.5): Guava, bits-and-blooms
  // or Parquet (interop/foreign_hash.hpp).
  bool foreign_hash() const {
    return hash == HashKind::kGuava || hash == HashKind::kBitsAndBlooms || hash == HashKind::kParquet;
  }
  ProbeScheme probe_scheme() const;
};

// The flags a caller may pass in Options (and Info reports).
inline constexpr uint32_t kKnownFlags =
    BLOOM_FLAG_CONCURRENT | BLOOM_FLAG_PLAIN_DOUBLE_HASHING | BLOOM_FLAG_SPLIT_BLOCK;
// Those of them every kind may carry; the others (BLOOM_FLAG_SPLIT_BLOCK)
// only a kind whose row lists them in file_flags (kind_table.hpp).
inline constexpr uint32_t kCommonFlags = BLOOM_FLAG_CONCURRENT | BLOOM_FLAG_PLAIN_DOUBLE_HASHING;

// A format flag, never an Options flag: layout 2 of the blocked kind
// (format 1.1), set by the library on every new blocked filter.
//  - In-line positions come from 64 unrelated odd multipliers instead of the
//    powers of one constant, which put the measured false-positive rate
//    above the sizing model's at k = 12 (1.036e-4 at p = 1e-4, against
//    0.967e-4 now; blocked_line.hpp).
//  - With XXH3, keys are hashed with XXH3-64 and h1 = h2 = that value: the
//    blocked kind reads only h1 (its line) and the low 32 bits of h2 (its
//    in-line seed), so XXH3-128 spent ~20 of a ~70-instruction query on bits
//    nobody used.
// Files without the flag (format 1.0) keep layout 1, so their bits still
// mean what they meant. docs/FORMAT.md, "How a key becomes bits".
inline constexpr uint32_t kFlagBlockedLayout2 = 1u << 16;
// A format flag (format 1.2), set by the library on new filters of the
// kinds that probe a whole array (classic, partitioned, counting, scalable)
// where it matters (needs_mixed_probes, configure.cpp): each probe's 64-bit
// value is mixed before it is reduced to a position (probe.hpp). Double
// hashing alone puts all k probes of a key on one or two positions when h2
// is within about 2^64 / (m k) of a simple fraction of 2^64, so small m k p
// missed p several times over (classic n = 10, p = 1e-3: 3.4e-3 measured;
// n = 1000, p = 1e-6: 6.0e-6 simulated). Files without the flag keep the
// unmixed positions.
inline constexpr uint32_t kFlagMixedProbes = 1u << 17;
// A format flag (format 1.4), set by the library on every new window
// filter: the blocked layout of the slices, 8 slices' words side by side in
// each cache line (kinds/window_blocked.hpp). Files without it keep 1.3's
// layout, one m-bit array per slice.
inline constexpr uint32_t kFlagWindowBlocked = 1u << 18;
// Every flag a file may carry.
inline constexpr uint32_t kFileFlags =
    kKnownFlags | kFlagBlockedLayout2 | kFlagMixedProbes | kFlagWindowBlocked;

inline bool FilterConfig::blocked_layout2() const { return (flags & kFlagBlockedLayout2) != 0; }
inline bool FilterConfig::mixed_probes() const { return (flags & kFlagMixedProbes) != 0; }
inline bool FilterConfig::window_blocked() const { return (flags & kFlagWindowBlocked) != 0; }
inline ProbeScheme FilterConfig::probe_scheme() const {
  if (modulo_probes()) return ProbeScheme::kModulo;
  return static_cast<ProbeScheme>((enhanced_probes() ? 1u : 0u) | (mixed_probes() ? 2u : 0u));
}
inline bool FilterConfig::key_hash64() const { return blocked_layout2() && hash == HashKind::kXxh3; }

}  // namespace bloom::core
