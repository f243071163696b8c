// SPDX-License-Identifier: Apache-2.0
// murmur3.hpp -- MurmurHash3 x64-128 (Austin Appleby's public-domain design),
// written here from the algorithm's description.
//
// Blocks are read as little-endian 64-bit words on every host, so the result
// does not depend on byte order. The canonical function takes a 32-bit seed
// that initialises both lanes; we accept 64 bits and initialise both lanes
// with it, which equals the canonical output for every seed below 2^32.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hash/hash128.hpp"

namespace bloom::core {

inline uint64_t murmur3_fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

Hash128 murmur3_x64_128(const void *data, size_t len, uint64_t seed);

struct Hash256 {
  uint64_t h[4];
};

// MurmurHash3 x64-128 with seed 0 of the key (h[0], h[1]) and of the key
// followed by one byte 0x01 (h[2], h[3]): the four base hashes of Go's
// bits-and-blooms/bloom v3 (its sum256), from which that library derives
// every position (kinds/classic_bits_and_blooms.cpp).
Hash256 murmur3_x64_128_and_suffixed(const void *data, size_t len);

}  // namespace bloom::core
