// SPDX-License-Identifier: Apache-2.0
// window_blocked.hpp -- the blocked layout of the window kind (format 1.4,
// flag kFlagWindowBlocked): a key's bits in 8 neighbouring slices share one
// 64-byte cache line.
//
// Why: in the sliced layout (1.3) every slice is its own m-bit array, so a
// new key of a typical de-duplication window (k = 15, l = 61) touched ~10
// random lines to learn it was absent and 15 more to be set: ~25 DRAM
// misses per key, against at most ten lines here.
//
// Layout: the k + l physical slices form groups of 8 (the last may hold
// fewer, w). A group is m / 64 lines; line r of group G holds word r of each
// of its slices side by side (w words). A key picks one line per group
// (line_of) and, in that line, one bit of each slice's word (bits_of: 6 bits
// per slice from one 64-bit mix). The k newest slices then span 2-3 lines
// instead of 15, and an absent key's query, which hops about k slices at a
// time, reads about one line per hop.
//
// Cost in memory: keys that share a line in one group share it in all 8
// slices, so slice fills in a line rise and fall together and k-runs are a
// little likelier than for independent slices. window_sizing.cpp's
// window_blocked_rate() models that (comonotone line loads) and sizing grows
// m until the model meets p.
#pragma once

#include <algorithm>
#include <cstdint>

#include "hash/hash128.hpp"
#include "probe.hpp"

namespace bloom::core {

inline constexpr uint32_t kWindowSlicesPerLine = 8;

// A 64-bit finaliser (bijective; Stafford's mix 13) for line and bit choice.
inline uint64_t window_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

// Geometry of the blocked ring: slices physical slices of m bits each.
struct WindowBlockedGeometry {
  uint32_t slices = 0;
  uint64_t lines = 0;  // lines per group = words per slice = m / 64

  uint32_t group_of(uint32_t j) const { return j / kWindowSlicesPerLine; }
  uint32_t width(uint32_t group) const {
    return std::min(kWindowSlicesPerLine, slices - group * kWindowSlicesPerLine);
  }
  // Word index of physical slice j in line r.
  uint64_t word(uint32_t j, uint64_t r) const {
    const uint32_t group = group_of(j);
    return static_cast<uint64_t>(group) * kWindowSlicesPerLine * lines + r * width(group) +
           (j - group * kWindowSlicesPerLine);
  }
  // The key's line in a group, and its 6-bit in-word positions there.
  uint64_t line_of(Hash128 h, uint32_t group) const {
    return reduce_range(window_mix(h.h1 + group * 0x9E3779B97F4A7C15u), lines);
  }
  static uint64_t bits_of(Hash128 h, uint32_t group) {
    return window_mix(h.h2 ^ (group * 0xD6E8FEB86659FD93u + 0x2545F4914F6CDD1Du));
  }
  static uint64_t bit_mask(uint64_t bits, uint32_t j) {
    return uint64_t{1} << ((bits >> (6 * (j % kWindowSlicesPerLine))) & 63);
  }
};

}  // namespace bloom::core
