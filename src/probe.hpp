// SPDX-License-Identifier: Apache-2.0
// probe.hpp -- from one 128-bit hash to k positions in [0, range).
//
// Double hashing (Kirsch & Mitzenmacher 2006, "Less hashing, same
// performance"): g_i = h1 + i*h2 behaves like k independent hashes for the
// false-positive rate. The enhanced form of Dillinger & Manolios (2004) adds
// a growing increment (x += y; y += i), which removes the short cycles plain
// double hashing falls into when h2 shares a factor with a modular range; it
// is the default, plain double hashing is BLOOM_FLAG_PLAIN_DOUBLE_HASHING.
//
// With the multiply-high mapping below the two nearly coincide: probe i
// gets h1 + i*h2 + (i^3 - i)/6, and that extra term (at most C(k,3): 35 at
// k = 7) moves a position, which steps every 2^64 / range, only for values
// that close to a step: about C(k+1,4) * range / 2^64 of the keys (0 of
// 10^7 random keys at range 9.6e7, k = 7; 4e-6 of them at range 2^40).
// Both also share the near-cycles of an h2 close to a simple fraction of
// 2^64. The flag stays, and readers must honour it: it is recorded, and
// filters that differ in it do not merge.
//
// Mixed probes (format 1.2; new filters where m k 2^-k < 4000, configure.cpp): those
// near-cycles are why each g_i is mixed before it is reduced. When h2 lies
// within about 2^64 / (range k) of a fraction a/b of 2^64 with b small, the
// k values g_i fall into b clusters narrower than one position, so the key
// has b distinct positions (one, for an h2 near 0) and is a false positive
// with probability about fill^b, not fill^k. That adds a few / (range k)
// (2.5-3.5 in simulations) to the rate whatever p is, which swamps a small p
// in a small filter:
// simulated, classic n = 1000, p = 1e-6 (m = 28,756, k = 20): 6.0e-6 unmixed,
// 0.87e-6 mixed, 1.03e-6 with truly independent positions; n = 10, p = 1e-3:
// 3.5e-3, 1.24e-3, 1.16e-3. mix_probe() is a bijection on 64 bits (an
// xorshift, then a multiply by an odd constant), so each position stays
// uniform, and the multiply carries any difference between two g_i up into
// the high bits the reduction reads. Three instructions per probe.
//
// Each 64-bit g_i is mapped into [0, range) by a multiply-high (Lemire 2019):
// floor(g * range / 2^64). No modulo bias, no division, and range need not be
// a power of two, so memory stays exactly at the formula. Because it uses the
// high bits of g, all 64 bits of the hash matter, and positions are 64-bit end
// to end (filters beyond 2^32 bits work; a test checks it).
#pragma once

#include <cstdint>

#include "filter_config.hpp"
#include "hash/hash128.hpp"

namespace bloom::core {

inline uint64_t reduce_range(uint64_t x, uint64_t range) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(x) * range) >> 64);
}

// The mixing of a probe value (format 1.2; docs/FORMAT.md pins it).
inline uint64_t mix_probe(uint64_t g) { return (g ^ (g >> 32)) * 0x9E3779B97F4A7C15u; }

// The value of a key's first probe (for prefetching its position early).
inline uint64_t first_probe(Hash128 h, bool mixed) { return mixed ? mix_probe(h.h1) : h.h1; }

// Produces the k 64-bit probe values for a key, one per next() call, to be
// reduced to positions. enhanced and mixed are the filter's flags (constants
// where the caller is a template instance, so the branches fold away).
class ProbeSequence {
 public:
  ProbeSequence(Hash128 h, bool enhanced, bool mixed)
      : x_(h.h1), y_(h.h2), enhanced_(enhanced), mixed_(mixed) {}
  ProbeSequence(Hash128 h, ProbeScheme s) : ProbeSequence(h, is_enhanced(s), is_mixed(s)) {}

  uint64_t next() {
    const uint64_t g = x_;
    x_ += y_;
    if (enhanced_) y_ += ++i_;
    return mixed_ ? mix_probe(g) : g;
  }

 private:
  uint64_t x_;
  uint64_t y_;
  uint64_t i_ = 0;
  bool enhanced_;
  bool mixed_;
};

}  // namespace bloom::core
