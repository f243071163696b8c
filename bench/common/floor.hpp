// SPDX-License-Identifier: Apache-2.0
// floor.hpp -- what no filter with one memory access per key can beat.
//
// A blocked filter's query is one hash of the key plus one read of a 64-byte
// line chosen by that hash, so the floor does exactly that and nothing else:
// XXH3-64 (inlined, the cheapest XXH3 for 3-15 byte keys), multiply-high onto
// a line of an array as large as the classic formula's filter, one 8-byte load
// from that line. The prefetched variant hashes 32 keys, prefetches their 32
// lines, then reads them, as the library's batch paths do. The seed table
// times it beside every kind; concurrency_bench runs it on 1 and T threads,
// for how far the machine itself scales.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "keys.hpp"

namespace bloom_bench {

// The classic formula's size in bytes for n keys at rate p, rounded up to
// whole 64-byte lines: m = n |ln p| / (ln 2)^2 bits.
inline uint64_t formula_bytes(uint64_t n, double p) {
  const double bits =
      std::ceil(static_cast<double>(n) * std::fabs(std::log(p)) / (std::log(2.0) * std::log(2.0)));
  const uint64_t bytes = static_cast<uint64_t>(std::ceil(bits / 8));
  return (bytes + 63) / 64 * 64;
}

// The floor's array of `bytes` (a multiple of 64), every page touched so
// that no page fault is timed.
inline std::vector<uint64_t> floor_words(uint64_t bytes) {
  std::vector<uint64_t> words(bytes / 8);
  for (uint64_t i = 0; i < words.size(); ++i) words[i] = i;
  return words;
}

inline uint64_t floor_line_of(const void *key, size_t len, uint64_t lines) {
  const uint64_t h = XXH3_64bits(key, len);
  return static_cast<uint64_t>((static_cast<unsigned __int128>(h) * lines) >> 64);
}

// Keys [begin, end) one at a time; returns a sum of the words read, so the
// reads cannot be optimised away.
inline uint64_t floor_read_single(const KeySet &ks, size_t begin, size_t end, const uint64_t *words,
                                  uint64_t lines) {
  uint64_t acc = 0;
  for (size_t i = begin; i < end; ++i) acc += words[floor_line_of(ks.ptrs[i], ks.lens[i], lines) * 8];
  return acc;
}

// Keys [begin, end) in blocks of 32: hash and prefetch the block, then read.
inline uint64_t floor_read_prefetched(const KeySet &ks, size_t begin, size_t end, const uint64_t *words,
                                      uint64_t lines) {
  constexpr size_t kBlock = 32;
  uint64_t acc = 0;
  uint64_t idx[kBlock];
  for (size_t start = begin; start < end; start += kBlock) {
    const size_t count = std::min(kBlock, end - start);
    for (size_t i = 0; i < count; ++i) {
      idx[i] = floor_line_of(ks.ptrs[start + i], ks.lens[start + i], lines) * 8;
      __builtin_prefetch(&words[idx[i]]);
    }
    for (size_t i = 0; i < count; ++i) acc += words[idx[i]];
  }
  return acc;
}

// The add floor: keys [begin, end) one at a time, each one XXH3-64 and one
// read-modify-write (OR) of a word of its line (rmw1).
inline uint64_t floor_rmw_single(const KeySet &ks, size_t begin, size_t end, uint64_t *words,
                                 uint64_t lines) {
  for (size_t i = begin; i < end; ++i) words[floor_line_of(ks.ptrs[i], ks.lens[i], lines) * 8] |= 1;
  return words[0];
}

// The same in blocks of 32: hash and prefetch (for writing) the block, then
// OR into each line.
inline uint64_t floor_rmw_prefetched(const KeySet &ks, size_t begin, size_t end, uint64_t *words,
                                     uint64_t lines) {
  constexpr size_t kBlock = 32;
  uint64_t idx[kBlock];
  for (size_t start = begin; start < end; start += kBlock) {
    const size_t count = std::min(kBlock, end - start);
    for (size_t i = 0; i < count; ++i) {
      idx[i] = floor_line_of(ks.ptrs[start + i], ks.lens[start + i], lines) * 8;
      __builtin_prefetch(&words[idx[i]], 1);
    }
    for (size_t i = 0; i < count; ++i) words[idx[i]] |= 1;
  }
  return words[0];
}

}  // namespace bloom_bench
