// blocked_line.hpp -- where a key's k bits go inside its 512-bit line.
//
// A blocked filter (Putze, Sanders & Singler 2007) keeps all k bits of a key
// in one 64-byte cache line, so a query costs one cache miss instead of k.
// This header pins the bit layout; every code path (portable, AVX2) must set
// and read exactly these bits, so a file never depends on the CPU that wrote
// it (tests/unit/blocked_test.cpp compares the paths key by key).
//
// The layout, from the key's 128-bit hash (h1, h2):
//   line  = floor(h1 * lines / 2^64)                (multiply-high, probe.hpp)
//   x_0   = low 32 bits of h2;  x_j = x_0 * C^j mod 2^32,  C = 0x9E3779B9
//   bit_j = x_j >> 23                               (the top 9 bits: 0..511)
// Multiplying by an odd constant is a bijection on 32-bit words whose high
// bits depend on every lower bit, so each product's top 9 bits are a fresh,
// nearly independent position; one 32-bit multiply per probe is cheap in
// scalar code and 8 lanes wide in AVX2 (the same idea as RocksDB's
// FastLocalBloom, written here from the description). Probes of one key may
// repeat a bit; the sizing model (blocked_sizing.hpp) accounts for that.
//
// Bit b of a line is bit b % 64 of 64-bit word b / 64 -- the same order the
// BitArray uses for the whole filter, and, on a little-endian CPU, bit b % 32
// of 32-bit word b / 32, which is how the AVX2 path addresses it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hash/hasher.hpp"
#include "kinds/blocked_kernels.hpp"
#include "probe.hpp"

namespace bloom::core::blocked {

inline constexpr uint32_t kLineBits = 512;
inline constexpr uint32_t kLineWords = kLineBits / 64;
inline constexpr uint32_t kProbeMultiplier = 0x9E3779B9u;  // odd: 2^32 / golden ratio

// C^e mod 2^32: probe j's value is x * C^j, so SIMD lanes compute group g's
// probes with one multiply by these constants instead of a chain.
constexpr uint32_t probe_multiplier_power(uint32_t e) {
  uint32_t r = 1;
  for (uint32_t i = 0; i < e; ++i) r *= kProbeMultiplier;
  return r;
}

// The 32-bit value the in-line positions are drawn from.
inline uint32_t line_seed(uint64_t h2) { return static_cast<uint32_t>(h2); }

inline uint32_t bit_of(uint32_t x) { return x >> 23; }

// The k-bit pattern of a key as 8 words (ORed into, not cleared).
inline void build_mask(uint32_t x, uint32_t k, uint64_t *mask) {
  for (uint32_t j = 0; j < k; ++j) {
    const uint32_t b = bit_of(x);
    mask[b >> 6] |= uint64_t{1} << (b & 63);
    x *= kProbeMultiplier;
  }
}

// Portable add: ORs the key's mask into the line; returns whether every bit
// was set before.
inline bool line_add(uint64_t *line, uint32_t x, uint32_t k) {
  uint64_t mask[kLineWords] = {};
  build_mask(x, k, mask);
  bool all_set = true;
  for (uint32_t w = 0; w < kLineWords; ++w) {
    all_set &= (line[w] & mask[w]) == mask[w];
    line[w] |= mask[w];
  }
  return all_set;
}

// Portable query: every probed bit of the line is set.
inline bool line_has(const uint64_t *line, uint32_t x, uint32_t k) {
  for (uint32_t j = 0; j < k; ++j) {
    const uint32_t b = bit_of(x);
    if (((line[b >> 6] >> (b & 63)) & 1u) == 0) return false;
    x *= kProbeMultiplier;
  }
  return true;
}

// A key's line and in-line seed when its hash is XXH3-64 (kFlagKeyHash64:
// h1 = h2 = h, so the line is the multiply-high of h and the seed its low
// 32 bits, exactly as the Hash128 path computes them).
inline const uint64_t *key_line_xxh3_64(const LineView &v, const void *key, size_t len, uint32_t *seed) {
  const uint64_t h = xxh3_64_short_inline(key, len, v.seed);
  *seed = line_seed(h);
  return v.words + reduce_range(h, v.lines) * kLineWords;
}

// The staging half of a batch query: every key's line and seed, with the
// line's fetch started, so all count misses overlap before any probe.
inline constexpr size_t kKeyBlock = 32;
inline void stage_key_block(const LineView &v, const void *const *keys, const size_t *lens, size_t count,
                            const uint64_t **lines, uint32_t *seeds) {
  for (size_t i = 0; i < count; ++i) {
    lines[i] = key_line_xxh3_64(v, keys[i], lens[i], &seeds[i]);
    __builtin_prefetch(lines[i]);
  }
}

}  // namespace bloom::core::blocked
