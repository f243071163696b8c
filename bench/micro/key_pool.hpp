// SPDX-License-Identifier: Apache-2.0
// key_pool.hpp -- keys for the micro-benchmarks, made from an index.
//
// key(i) is 3-15 bytes, each length equally likely as in the seed workload
// (so XXH3's length branches are exercised as in real use), derived from
// splitmix64(i); the fill inserts key(0..n-1), hit queries draw random
// i < n, miss queries draw i >= 2^62. The top bit of the first byte is 0
// for fill keys and 1 for miss keys, so a miss key is never an inserted
// one: with only 2^24 keys of 3 bytes, a 256 MiB filter's fill had held
// 10% of the miss pool. Pools are large (2^21 keys) so that, for a filter far bigger
// than the caches, the lines they touch do not all fit in L3 (2^21 keys x 7
// lines x 64 B = 0.9 GB) and the timing is a real DRAM miss per key.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "../common/keys.hpp"

namespace bloom_bench {

inline constexpr size_t kPoolKeys = size_t{1} << 21;
inline constexpr uint64_t kMissBase = uint64_t{1} << 62;

// Writes key(i) into out (16 bytes of room); returns its length.
inline size_t make_key(uint64_t i, char *out) {
  SplitMix64 a{i * 2};
  const uint64_t w0 = a.next();
  const uint64_t w1 = a.next();
  std::memcpy(out, &w0, 8);
  std::memcpy(out + 8, &w1, 8);
  out[0] = static_cast<char>(i >= kMissBase ? (out[0] | 0x80) : (out[0] & 0x7f));
  // Lengths uniform over 3..15 (multiply-high of 32 bits by 13; "% 13" of
  // 4 bits had made 3, 4 and 5 twice as common as the others).
  return kMinKeyLen + static_cast<size_t>(((w1 >> 32) * (kMaxKeyLen - kMinKeyLen + 1)) >> 32);
}

// A fixed set of keys laid out for both the single and the batch calls.
struct KeyPool {
  std::vector<char> bytes;  // 16 bytes per key
  std::vector<const void *> ptrs;
  std::vector<size_t> lens;

  // count keys: key(base + r) for r uniform in [0, range).
  static KeyPool random(size_t count, uint64_t base, uint64_t range, uint64_t seed) {
    KeyPool p;
    p.bytes.resize(count * 16);
    p.ptrs.resize(count);
    p.lens.resize(count);
    SplitMix64 rng{seed};
    for (size_t j = 0; j < count; ++j) {
      p.lens[j] = make_key(base + rng.below(range), &p.bytes[j * 16]);
      p.ptrs[j] = &p.bytes[j * 16];
    }
    return p;
  }
  size_t size() const { return lens.size(); }
};

}  // namespace bloom_bench
