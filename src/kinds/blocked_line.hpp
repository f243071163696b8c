// SPDX-License-Identifier: Apache-2.0
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
//   x     = low 32 bits of h2;  x_j = x * M_j mod 2^32
//   bit_j = x_j >> 23                               (the top 9 bits: 0..511)
// Multiplying by an odd constant is a bijection on 32-bit words whose high
// bits depend on every lower bit, so each product's top 9 bits are a fresh
// position; one 32-bit multiply per probe is cheap in scalar code and 8 lanes
// wide in AVX2. Probes of one key may repeat a bit; the sizing model
// (blocked_sizing.hpp) accounts for that.
//
// The multipliers M_j are a table per layout:
//   layout 1 (format 1.0): M_j = C^j, C = 0x9E3779B9 (as RocksDB's
//     FastLocalBloom, written here from the description). Powers of one
//     constant are related to each other, and at k = 12 the positions are
//     not independent enough: 1e6 seed-workload keys at p = 1e-4 (4 key
//     sets x 2 hashers, 3e6 negative queries each) gave a mean rate of
//     1.036e-4, so filters sized for p missed it.
//   layout 2 (format 1.1, flag kFlagBlockedLayout2): M_j = 64 unrelated odd
//     constants (kSaltMultipliers); same cost. The same runs gave 0.967e-4;
//     a simulation of the same load (43,028 lines, k = 12, 12 runs of 4e6
//     queries) gives 0.997e-4 with ideal random positions, 0.999e-4 with
//     layout 2's multipliers and 1.013e-4 with layout 1's.
//
// Bit b of a line is bit b % 64 of 64-bit word b / 64 -- the same order the
// BitArray uses for the whole filter, and, on a little-endian CPU, bit b % 32
// of 32-bit word b / 32, which is how the AVX2 path addresses it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "hash/hasher.hpp"
#include "kinds/blocked_kernels.hpp"
#include "pipelined_blocks.hpp"
#include "probe.hpp"
#include "relaxed_atomic.hpp"

namespace bloom::core::blocked {

inline constexpr uint32_t kLineBits = 512;
inline constexpr uint32_t kLineWords = kLineBits / 64;
inline constexpr uint32_t kProbeMultiplier = 0x9E3779B9u;  // odd: 2^32 / golden ratio

inline constexpr uint32_t kMaxProbes = 64;  // BLOOM_MAX_HASHES

// Layout 1: C^j mod 2^32.
inline constexpr auto kPowerMultipliers = [] {
  std::array<uint32_t, kMaxProbes> m{};
  uint32_t r = 1;
  for (uint32_t j = 0; j < kMaxProbes; ++j, r *= kProbeMultiplier) m[j] = r;
  return m;
}();

// Layout 2: the low 32 bits (made odd) of splitmix64 outputs from the state
// 0x0b10c4ed5a175000, written out so the file format never depends on code
// that generates them.
inline constexpr std::array<uint32_t, kMaxProbes> kSaltMultipliers = {
    0xea014143, 0xca4b66f7, 0xe44c91fb, 0xb820be47, 0xc819511d, 0xf3052dd7, 0x932eb2c7, 0x4c7a9d23,
    0xb8dddd07, 0xb0f97fa7, 0x67418695, 0x67ce876d, 0x1fb723d9, 0x65dcf647, 0x97863b99, 0x142aa937,
    0xb68d7865, 0x5cc7fc71, 0x788a2035, 0xfaefc6db, 0x16e23473, 0x101bd61b, 0x74ef0385, 0xe7662c55,
    0xd2a10fab, 0x8383b093, 0x03a48aaf, 0x7bb98c9f, 0x9f500a7d, 0x7e155c5d, 0x0b09e0d1, 0xce6b30b7,
    0x0de47a73, 0x50a73ed5, 0x66b8b4e9, 0xc358cab9, 0x7c47fa79, 0x0c05f36d, 0x292e7839, 0x24ea2dfb,
    0xdf959a2f, 0xa7924da7, 0x22489277, 0x70842dc5, 0xc86c7887, 0xe2f1ca1f, 0x960ef15d, 0x541f8039,
    0xe4bf9eb7, 0xf3ce2f59, 0x302c951d, 0xc671af31, 0x7943d155, 0x12e7fc33, 0x661647af, 0xafa66ad7,
    0x16a126bf, 0x66a0e22b, 0x2acaaf67, 0xa49d79ed, 0xc4f6907b, 0x1ce2b0e5, 0xf9e39d35, 0x48656199};

// The 32-bit value the in-line positions are drawn from.
inline uint32_t line_seed(uint64_t h2) { return static_cast<uint32_t>(h2); }

inline uint32_t bit_of(uint32_t x) { return x >> 23; }

// The k-bit pattern of a key as 8 words (ORed into, not cleared); mult is
// the layout's multiplier table.
inline void build_mask(uint32_t x, uint32_t k, const uint32_t *mult, uint64_t *mask) {
  for (uint32_t j = 0; j < k; ++j) {
    const uint32_t b = bit_of(x * mult[j]);
    mask[b >> 6] |= uint64_t{1} << (b & 63);
  }
}

// Portable add: ORs the key's mask into the line; returns whether every bit
// was set before.
inline bool line_add(uint64_t *line, uint32_t x, uint32_t k, const uint32_t *mult) {
  uint64_t mask[kLineWords] = {};
  build_mask(x, k, mult, mask);
  bool all_set = true;
  for (uint32_t w = 0; w < kLineWords; ++w) {
    all_set &= (line[w] & mask[w]) == mask[w];
    line[w] |= mask[w];
  }
  return all_set;
}

// Batch add into lines already prefetched: each probe ORs its bit straight
// into the line (about 7 instructions per probe), where building the mask
// first costs 2-3 times as many; the answer "all set before" is not needed.
inline void line_or_probes(uint64_t *line, uint32_t x, uint32_t k, const uint32_t *mult) {
  for (uint32_t j = 0; j < k; ++j) {
    const uint32_t b = bit_of(x * mult[j]);
    line[b >> 6] |= uint64_t{1} << (b & 63);
  }
}

// A word of a line. A concurrent filter's words may be having bits set by
// another thread's add (relaxed atomic ORs), so its queries read them with
// relaxed atomic loads: plain loads on x86-64 and AArch64, and no data race
// in the C++ model (TSan checks it). Bits are never cleared while adds run,
// so any value read holds every bit set before the query began.
template <bool kAtomic>
inline uint64_t load_word(const uint64_t *word) {
  if constexpr (kAtomic) return relaxed_load(*word);
  return *word;
}

// Portable query: every probed bit of the line is set.
template <bool kAtomic = false>
inline bool line_has(const uint64_t *line, uint32_t x, uint32_t k, const uint32_t *mult) {
  for (uint32_t j = 0; j < k; ++j) {
    const uint32_t b = bit_of(x * mult[j]);
    if (((load_word<kAtomic>(line + (b >> 6)) >> (b & 63)) & 1u) == 0) return false;
  }
  return true;
}

// The line of a key whose hash is XXH3-64 (key_hash64(): h1 = h2 = h, so
// the line is the multiply-high of h and the in-line seed its low 32 bits,
// exactly as the Hash128 path computes them).
inline const uint64_t *line_of_hash64(const LineView &v, uint64_t h) {
  return v.words + reduce_range(h, v.lines) * kLineWords;
}

// The XXH3 seed of a key-level kernel: kSeed0 kernels are installed only on
// filters with seed 0 and make it a compile-time constant.
template <bool kSeed0>
inline uint64_t xxh3_seed_of(const LineView &v) {
  return kSeed0 ? 0 : v.seed;
}

// A key's line and in-line seed, hashing it with XXH3-64.
inline const uint64_t *key_line_xxh3_64(const LineView &v, const void *key, size_t len, uint32_t *seed) {
  const uint64_t h = xxh3_64_short_inline(key, len, v.seed);
  *seed = line_seed(h);
  return line_of_hash64(v, h);
}

// The staging half of a batch query: each key's line and in-line seed, with
// the line's fetch started as soon as the key is hashed. Keys are hashed one
// by one: filing a block by XXH3 length class first (xxh3_block.hpp, which
// saves the length branch's mispredicts) issues every prefetch in a burst
// at the end of the block, so the first keys' lines arrive late; it measured
// slower (docs/PERFORMANCE.md, "Decisions the code cites").
inline constexpr size_t kKeyBlock = 32;
inline void stage_key_block(const LineView &v, const void *const *keys, const size_t *lens, size_t count,
                            const uint64_t **lines, uint32_t *seeds) {
  for (size_t i = 0; i < count; ++i) {
    lines[i] = key_line_xxh3_64(v, keys[i], lens[i], &seeds[i]);
    __builtin_prefetch(lines[i]);
  }
}

// A batch query, software-pipelined (pipelined_blocks.hpp): block b + 1 is
// hashed and its lines prefetched before block b is probed, so every line
// has a whole block of hashing (32 keys' hashes) to arrive. probe(line,
// seed) answers one key; the kernels pass their own probe and flatten this
// loop into themselves.
template <typename Probe>
inline void query_keys_pipelined(const LineView &v, const void *const *keys, const size_t *lens, size_t n,
                                 uint8_t *out, Probe &&probe) {
  const uint64_t *lines[2][kKeyBlock];
  uint32_t seeds[2][kKeyBlock];
  pipelined_blocks<kKeyBlock>(
      n,
      [&](size_t start, size_t count, size_t slot) {
        stage_key_block(v, keys + start, lens + start, count, lines[slot], seeds[slot]);
      },
      [&](size_t start, size_t count, size_t slot) {
        for (size_t i = 0; i < count; ++i) out[start + i] = probe(lines[slot][i], seeds[slot][i]) ? 1 : 0;
      });
}

// Filters up to this size (about one core's share of a shared L3) take the
// single add that ORs each probe into the line (Kernels::add_exact_k_in_cache);
// larger ones, whose lines mostly come from DRAM, the one-bit windows
// (docs/PERFORMANCE.md, "Decisions the code cites").
inline constexpr uint64_t kScalarOrAddBytes = 4 * 1024 * 1024;

// A batch add, software-pipelined as the batch query: block b + 1 is
// hashed (XXH3-64, key by key) and its lines prefetched for writing before
// block b's bits are ORed in by or_bits(line, seed). kWords is the line's
// size in 64-bit words (8, or 4 for split blocks). Hashing straight to the
// line, with no 128-bit value, no filing by length class and no virtual
// call per block, is what keeps a batch add at about a single add's cost
// where lines are cached and far below it past the caches.
// Filters up to this size (a core's L2 on the CPUs measured) are added to
// key by key, unstaged: their lines are at hand, and staging costs a batch
// more than the prefetches save (docs/PERFORMANCE.md).
inline constexpr uint64_t kUnstagedAddBytes = 512 * 1024;

// seed is v.seed, or 0 where the caller knows it is (seed-0 kernels, whose
// XXH3 constants then fold as the single add's do).
template <uint32_t kWords, typename OrBits>
inline void add_keys_pipelined(const LineView &v, uint64_t seed, const void *const *keys, const size_t *lens,
                               size_t n, OrBits &&or_bits) {
  // The filter's own memory (LineView holds it as const for queries).
  auto *const words = const_cast<uint64_t *>(v.words);
  if (v.lines * kWords * sizeof(uint64_t) <= kUnstagedAddBytes) {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t h = xxh3_64_short_inline(keys[i], lens[i], seed);
      or_bits(words + reduce_range(h, v.lines) * kWords, line_seed(h));
    }
    return;
  }
  uint64_t *lines[2][kKeyBlock];
  uint32_t seeds[2][kKeyBlock];
  pipelined_blocks<kKeyBlock>(
      n,
      [&](size_t start, size_t count, size_t slot) {
        for (size_t i = 0; i < count; ++i) {
          const uint64_t h = xxh3_64_short_inline(keys[start + i], lens[start + i], seed);
          seeds[slot][i] = line_seed(h);
          lines[slot][i] = words + reduce_range(h, v.lines) * kWords;
          __builtin_prefetch(lines[slot][i], 1);
        }
      },
      [&](size_t, size_t count, size_t slot) {
        for (size_t i = 0; i < count; ++i) or_bits(lines[slot][i], seeds[slot][i]);
      });
}

}  // namespace bloom::core::blocked
