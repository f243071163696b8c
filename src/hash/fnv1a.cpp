// SPDX-License-Identifier: Apache-2.0
#include "hash/fnv1a.hpp"

#include "hash/murmur3.hpp"

namespace bloom::core {

Hash128 fnv1a_128(const void *data, size_t len, uint64_t seed) {
  const uint64_t h = fnv1a64(data, len, seed);
  // Different pre-XORs make h1 and h2 different functions of h.
  return {murmur3_fmix64(h), murmur3_fmix64(h ^ 0x9e3779b97f4a7c15ULL)};
}

}  // namespace bloom::core
