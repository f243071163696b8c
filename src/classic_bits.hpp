// SPDX-License-Identifier: Apache-2.0
// classic_bits.hpp -- a description of a classic filter's bits, for probes
// that run outside the library (bloom_classic_view).
//
// Only classic filters whose keys hash with XXH3-128 and whose probes are
// reduced by the multiply-high qualify: for them a key's k positions follow
// from XXH3_128bits_withSeed alone and the probe scheme's two flags
// (probe.hpp pins the sequence, docs/FORMAT.md the bits). Foreign hashes
// and the modulo scheme answer as other systems do and stay inside.
#pragma once

#include <cstdint>
#include <optional>

namespace bloom::core {

class Filter;

struct ClassicBits {
  const uint64_t *words;  // ceil(bits / 64) 64-bit words, host order
  uint64_t bits;          // m
  uint64_t seed;          // the XXH3-128 seed
  uint32_t hashes;        // k
  bool enhanced;          // enhanced double hashing (else plain)
  bool mixed;             // each probe value mixed before it is reduced
};

// The description of f's bits, or nothing when f is not a classic filter
// hashing with XXH3-128. The pointer lives as long as f (its bit array
// never moves: clear, merge and intersect work in place).
std::optional<ClassicBits> classic_bits(const Filter &f);

}  // namespace bloom::core
