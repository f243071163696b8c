// SPDX-License-Identifier: Apache-2.0
// blocked_bits.hpp -- a read-only description of a blocked filter's bits,
// for probes that run outside the library (bloom_blocked_view and the
// header-only include/bloom/bloom_probe.h).
//
// Only filters whose keys hash with XXH3-64 (key_hash64: XXH3 and blocked
// layout 2, every blocked file since format 1.1) qualify: for them a key's
// line and in-line bits follow from one XXH3-64 value alone
// (kinds/blocked_line.hpp, kinds/split_block.hpp pin the layouts), which a
// caller can compute with xxhash.h.
#pragma once

#include <cstdint>
#include <optional>

namespace bloom::core {

class Filter;

struct BlockedBits {
  const uint64_t *words;        // lines * words_per_line 64-bit words, host order
  uint64_t lines;               // 64-byte lines, or 32-byte blocks when split
  uint64_t seed;                // the XXH3-64 seed
  uint32_t hashes;              // k (8 for split blocks)
  bool split;                   // BLOOM_FLAG_SPLIT_BLOCK's layout
  const uint32_t *multipliers;  // the layout's 64 odd multipliers
};

// The description of f's bits, or nothing when f is not a blocked filter
// hashing with XXH3-64. The pointers live as long as f (its bit array never
// moves: clear, merge and intersect work in place).
std::optional<BlockedBits> blocked_bits(const Filter &f);

}  // namespace bloom::core
