// SPDX-License-Identifier: Apache-2.0
// keys.hpp -- the seed workload's keys: distinct strings of 3-15 random
// printable ASCII characters, the same for every program given the same seed.
//
// Every benchmark program (ours, the libbloom runner, the floor) rebuilds the
// keys from (count, seed) instead of reading a file, so runs are repeatable and
// no program needs another's output. Distinctness matters: with 95 printable
// characters there are only 857,375 keys of length 3, so a million random keys
// would repeat thousands of times, and a "negative" key that is secretly a
// positive one would be counted as a false positive. Keys are deduplicated by
// their 64-bit XXH3 (a collision only drops a key, it never merges two).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace bloom_bench {

// splitmix64: a tiny, good-quality generator, identical on every platform.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) by multiply-high (bias below 2^-50 for small n).
  uint64_t below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
};

// Keys stored back to back in one buffer, addressed by pointer + length as the
// batch API takes them.
struct KeySet {
  std::vector<char> bytes;
  std::vector<const void *> ptrs;
  std::vector<size_t> lens;
  size_t size() const { return lens.size(); }
};

// An open-addressing set of 64-bit fingerprints, used only while generating.
class FingerprintSet {
 public:
  explicit FingerprintSet(size_t expected) {
    size_t cap = 16;
    while (cap < expected * 2) cap <<= 1;
    slots_.assign(cap, 0);
    mask_ = cap - 1;
  }
  // Inserts fp; returns false when it was already there.
  bool insert(uint64_t fp) {
    if (fp == 0) fp = 1;  // 0 marks an empty slot
    for (size_t i = fp & mask_;; i = (i + 1) & mask_) {
      if (slots_[i] == fp) return false;
      if (slots_[i] == 0) {
        slots_[i] = fp;
        return true;
      }
    }
  }

 private:
  std::vector<uint64_t> slots_;
  size_t mask_ = 0;
};

inline constexpr size_t kMinKeyLen = 3;
inline constexpr size_t kMaxKeyLen = 15;

// Fills `sets` (each with its requested count) with keys distinct across all
// of them: the first is what gets inserted, the others are never-inserted
// keys for negative queries.
inline void make_distinct_keys(uint64_t seed, std::vector<KeySet *> sets, const std::vector<size_t> &counts) {
  size_t total = 0;
  for (size_t c : counts) total += c;
  FingerprintSet seen(total);
  SplitMix64 rng{seed};
  for (size_t s = 0; s < sets.size(); ++s) {
    KeySet &ks = *sets[s];
    ks.bytes.clear();
    ks.bytes.reserve(counts[s] * (kMinKeyLen + kMaxKeyLen) / 2 + kMaxKeyLen);
    std::vector<size_t> offsets;
    offsets.reserve(counts[s]);
    ks.lens.clear();
    ks.lens.reserve(counts[s]);
    char key[kMaxKeyLen];
    while (ks.lens.size() < counts[s]) {
      const size_t len = kMinKeyLen + rng.below(kMaxKeyLen - kMinKeyLen + 1);
      for (size_t i = 0; i < len; ++i) key[i] = static_cast<char>(' ' + rng.below(95));  // 0x20..0x7e
      if (!seen.insert(XXH3_64bits_withSeed(key, len, 0x5eed))) continue;
      offsets.push_back(ks.bytes.size());
      ks.bytes.insert(ks.bytes.end(), key, key + len);
      ks.lens.push_back(len);
    }
    ks.ptrs.resize(ks.lens.size());
    for (size_t i = 0; i < ks.lens.size(); ++i) ks.ptrs[i] = ks.bytes.data() + offsets[i];
  }
}

}  // namespace bloom_bench
