// SPDX-License-Identifier: Apache-2.0
#include "hash/murmur3.hpp"

#include "byte_order.hpp"

namespace bloom::core {
namespace {

constexpr uint64_t kC1 = 0x87c37b91114253d5ULL;
constexpr uint64_t kC2 = 0x4cf5ad432745937fULL;

inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// Mixes one 64-bit lane of input into the state, as the block loop and the
// tail both need.
inline uint64_t mix_k1(uint64_t k1) { return rotl64(k1 * kC1, 31) * kC2; }
inline uint64_t mix_k2(uint64_t k2) { return rotl64(k2 * kC2, 33) * kC1; }

// Little-endian value of the n (< 8) bytes at p.
inline uint64_t load_tail(const unsigned char *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

// The block loop over nblocks 16-byte blocks, into the state (h1, h2).
void mix_blocks(const unsigned char *bytes, size_t nblocks, uint64_t &h1, uint64_t &h2) {
  for (size_t i = 0; i < nblocks; ++i) {
    const uint64_t k1 = load_le64(bytes + i * 16);
    const uint64_t k2 = load_le64(bytes + i * 16 + 8);
    h1 ^= mix_k1(k1);
    h1 = rotl64(h1, 27) + h2;
    h1 = h1 * 5 + 0x52dce729;
    h2 ^= mix_k2(k2);
    h2 = rotl64(h2, 31) + h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
}

// The tail (rest < 16 bytes) and the finalisation of a len-byte input.
Hash128 finish(uint64_t h1, uint64_t h2, const unsigned char *tail, size_t rest, uint64_t len) {
  if (rest > 8) h2 ^= mix_k2(load_tail(tail + 8, rest - 8));
  if (rest > 0) h1 ^= mix_k1(load_tail(tail, rest > 8 ? 8 : rest));
  h1 ^= len;
  h2 ^= len;
  h1 += h2;
  h2 += h1;
  h1 = murmur3_fmix64(h1);
  h2 = murmur3_fmix64(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

}  // namespace

Hash128 murmur3_x64_128(const void *data, size_t len, uint64_t seed) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  const size_t nblocks = len / 16;
  uint64_t h1 = seed;
  uint64_t h2 = seed;
  mix_blocks(bytes, nblocks, h1, h2);
  return finish(h1, h2, bytes + nblocks * 16, len & 15, len);
}

// The key's blocks are mixed once: the suffixed input shares them, and only
// its last (partial or completed) block differs.
Hash256 murmur3_x64_128_and_suffixed(const void *data, size_t len) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  const size_t nblocks = len / 16;
  const size_t rest = len & 15;
  uint64_t h1 = 0;
  uint64_t h2 = 0;
  mix_blocks(bytes, nblocks, h1, h2);
  const Hash128 a = finish(h1, h2, bytes + nblocks * 16, rest, len);
  unsigned char tail[16];
  for (size_t i = 0; i < rest; ++i) tail[i] = bytes[nblocks * 16 + i];
  tail[rest] = 1;
  Hash128 b;
  if (rest + 1 == 16) {
    mix_blocks(tail, 1, h1, h2);
    b = finish(h1, h2, tail, 0, len + 1);
  } else {
    b = finish(h1, h2, tail, rest + 1, len + 1);
  }
  return {{a.h1, a.h2, b.h1, b.h2}};
}

}  // namespace bloom::core
