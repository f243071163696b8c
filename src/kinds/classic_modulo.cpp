// SPDX-License-Identifier: Apache-2.0
// classic_modulo.cpp -- the classic kind's probes for the RedisBloom hash
// kind: bit (h1 + i*h2) mod m for i = 0..k-1, the sum taken mod 2^64, no
// enhancement, no mixing, a modulo instead of the multiply-high reduction.
// That is how RedisBloom sets the bits of each of its sub-filters (its
// filters since 2.0 have m a multiple of 64 and reduce modulo m; older
// power-of-two filters reduce modulo 2^n2, the same thing when m = 2^n2).
// Bit x is bit x % 8 of byte x / 8 in both layouts, so RedisBloom's bytes
// are this filter's payload as they are.
//
// The division costs ~25-40 cycles per probe against ~4 for the
// multiply-high, which is why only this hash kind uses it: it exists to
// answer exactly as RedisBloom did, not to be the fast path.
//
// Guava's MURMUR128_MITZ_64 (the guava hash kind, format 1.5) is the same
// sum with its sign bit cleared before the modulo (Java's long is signed,
// and Guava masks with Long.MAX_VALUE), so it shares these loops through
// the mask. bits-and-blooms' positions need four hashes, more than a
// Hash128 holds: its filters take whole keys
// (classic_bits_and_blooms.cpp) and never reach these.
#include <string>

#include "error.hpp"
#include "kinds/classic.hpp"

namespace bloom::core {

uint64_t ClassicFilter::modulo_mask() const {
  if (config_.hash == HashKind::kBitsAndBlooms)
    fail(Status::kUnsupported, "bits-and-blooms positions are derived from the key, not its 128-bit hash");
  return config_.hash == HashKind::kGuava ? ~uint64_t{0} >> 1 : ~uint64_t{0};
}

bool ClassicFilter::modulo_test_and_add(Hash128 h) {
  const uint64_t m = bits_.bits();
  const uint64_t mask = modulo_mask();
  const bool concurrent = config_.concurrent();
  bool all_set = true;
  for (uint64_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = ((h.h1 + i * h.h2) & mask) % m;
    if (concurrent) {
      all_set &= bits_.test_atomic(pos) || bits_.set_atomic(pos);
    } else {
      all_set &= bits_.test(pos);
      bits_.set(pos);
    }
  }
  return all_set;
}

bool ClassicFilter::modulo_query(Hash128 h) const {
  const uint64_t m = bits_.bits();
  const uint64_t mask = modulo_mask();
  const bool concurrent = config_.concurrent();
  for (uint64_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = ((h.h1 + i * h.h2) & mask) % m;
    if (!(concurrent ? bits_.test_atomic(pos) : bits_.test(pos))) return false;
  }
  return true;
}

// Batches request the first probe's line of every key before probing any
// (one division per key more; a miss is usually decided by it).
void ClassicFilter::modulo_add_block(const Hash128 *hs, size_t n) {
  const uint64_t m = bits_.bits();
  const uint64_t mask = modulo_mask();
  for (size_t i = 0; i < n; ++i) bits_.prefetch((hs[i].h1 & mask) % m);
  for (size_t i = 0; i < n; ++i) (void)modulo_test_and_add(hs[i]);
}

void ClassicFilter::modulo_query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  const uint64_t m = bits_.bits();
  const uint64_t mask = modulo_mask();
  for (size_t i = 0; i < n; ++i) bits_.prefetch((hs[i].h1 & mask) % m);
  for (size_t i = 0; i < n; ++i) out[i] = modulo_query(hs[i]) ? 1 : 0;
}

}  // namespace bloom::core
