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
#include "kinds/classic.hpp"

namespace bloom::core {

bool ClassicFilter::modulo_test_and_add(Hash128 h) {
  const uint64_t m = bits_.bits();
  const bool concurrent = config_.concurrent();
  bool all_set = true;
  for (uint64_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = (h.h1 + i * h.h2) % m;
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
  const bool concurrent = config_.concurrent();
  for (uint64_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = (h.h1 + i * h.h2) % m;
    if (!(concurrent ? bits_.test_atomic(pos) : bits_.test(pos))) return false;
  }
  return true;
}

// Batches request the first probe's line of every key before probing any
// (one division per key more; a miss is usually decided by it).
void ClassicFilter::modulo_add_block(const Hash128 *hs, size_t n) {
  const uint64_t m = bits_.bits();
  for (size_t i = 0; i < n; ++i) bits_.prefetch(hs[i].h1 % m);
  for (size_t i = 0; i < n; ++i) (void)modulo_test_and_add(hs[i]);
}

void ClassicFilter::modulo_query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  const uint64_t m = bits_.bits();
  for (size_t i = 0; i < n; ++i) bits_.prefetch(hs[i].h1 % m);
  for (size_t i = 0; i < n; ++i) out[i] = modulo_query(hs[i]) ? 1 : 0;
}

}  // namespace bloom::core
