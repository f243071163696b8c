// SPDX-License-Identifier: Apache-2.0
#include "kinds/classic.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "classic_bits.hpp"
#include "dispatch.hpp"
#include "error.hpp"
#include "format/payload_io.hpp"
#include "kinds/probing_array_filter_impl.hpp"
#include "probe.hpp"
#include "sizing.hpp"

namespace bloom::core {

ClassicFilter::ClassicFilter(const FilterConfig &config) : ProbingArrayFilter(config) { install_key_query(); }

ClassicFilter::ClassicFilter(const FilterConfig &config, BitArray bits)
    : ProbingArrayFilter(config, std::move(bits)) {
  install_key_query();
}

ClassicFilter::ClassicFilter(const ClassicFilter &other) : ProbingArrayFilter(other) { install_key_query(); }

// Sets every probed bit; returns whether all of them were set before.
template <bool kConcurrent, ProbeScheme kScheme>
bool ClassicFilter::probe_and_set(Hash128 h) {
  if constexpr (kScheme == ProbeScheme::kModulo) return modulo_test_and_add(h);  // classic_modulo.cpp
  ProbeSequence seq(h, kScheme);
  const uint64_t m = bits_.bits();
  bool all_set = true;
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = reduce_range(seq.next(), m);
    if constexpr (kConcurrent) {
      // Load before the locked OR: in a filling filter about half the probed
      // bits are already set, and a skipped RMW neither costs its ~20 cycles
      // nor takes the line away from the other cores' caches.
      all_set &= bits_.test_atomic(pos) || bits_.set_atomic(pos);
    } else {
      all_set &= bits_.test_and_set(pos);
    }
  }
  return all_set;
}

// The first kProbeGroup probes are tested with one branch, the rest with one
// more. At the design fill half the bits are set, so a negative key's first
// probe is set with probability 1/2 and a branch per probe mispredicts on
// about every other negative query (~15 cycles each); after 4 probes the
// chance that all are set is 1/16, so the branch predicts well for hits and
// misses alike, and the 1/16 of misses that pass it are decided by the rest.
// The extra loads are independent of each other and overlap. Against one
// branch per probe it made misses much faster and hits about as fast, and
// it beat one branch per group of 4 for both (docs/PERFORMANCE.md,
// "Decisions the code cites").
template <bool kConcurrent, ProbeScheme kScheme>
bool ClassicFilter::probe(Hash128 h) const {
  if constexpr (kScheme == ProbeScheme::kModulo) return modulo_query(h);  // classic_modulo.cpp
  ProbeSequence seq(h, kScheme);
  const uint64_t m = bits_.bits();
  const uint32_t k = config_.hashes;
  auto test = [&](uint64_t g) {
    const uint64_t pos = reduce_range(g, m);
    return kConcurrent ? bits_.test_atomic(pos) : bits_.test(pos);
  };
  // The first group decides almost every miss; the rest are tested without
  // a branch, so a hit takes two predictable branches whatever k is.
  const uint32_t first = k < kProbeGroup ? k : kProbeGroup;
  bool all = true;
  for (uint32_t i = 0; i < first; ++i) all &= test(seq.next());
  if (!all) return false;
  for (uint32_t i = first; i < k; ++i) all &= test(seq.next());
  return all;
}

// The generic single-key path makes three calls per key (the hasher, the
// virtual query, the flags dispatch); this one makes none: callgrind, 10^5
// keys at p = 0.01 (k = 7): 242.8 -> 201.3 instructions per hit and 193.6
// -> 151.2 per miss. At 10^7 keys a query waits on k DRAM lines, and fewer
// instructions per query let more queries' misses overlap.
template <bool kConcurrent, ProbeScheme kScheme>
__attribute__((flatten)) int ClassicFilter::query_key_xxh3(const void *self, const void *key, size_t len) {
  const auto &f = static_cast<const ClassicFilter &>(*static_cast<const Filter *>(self));
  return f.probe<kConcurrent, kScheme>(xxh3_128_short_inline(key, len, f.hasher_.seed)) ? 1 : 0;
}

void ClassicFilter::install_key_query() {
  if (hasher_.kind == HashKind::kBitsAndBlooms) return install_bits_and_blooms_paths();
  if (hasher_.kind != HashKind::kXxh3 || hasher_.hash64) return;  // the generic path serves the rest
  set_key_query(with_shape(config_, []<bool kConcurrent, ProbeScheme kScheme>() {
    return &query_key_xxh3<kConcurrent, kScheme>;
  }));
}

// Prefetches the lines of the first `probes` probes of each key.
void ClassicFilter::prefetch_probes(const Hash128 *hs, size_t n, uint32_t probes) const {
  const uint64_t m = bits_.bits();
  const ProbeScheme scheme = config_.probe_scheme();
  for (size_t i = 0; i < n; ++i) {
    ProbeSequence seq(hs[i], scheme);
    for (uint32_t j = 0; j < probes; ++j) bits_.prefetch(reduce_range(seq.next(), m));
  }
}

template <bool kConcurrent, ProbeScheme kScheme>
void ClassicFilter::add_all(const Hash128 *hs, size_t n) {
  for (size_t i = 0; i < n; ++i) (void)probe_and_set<kConcurrent, kScheme>(hs[i]);
}

template <bool kConcurrent, ProbeScheme kScheme>
void ClassicFilter::query_all(const Hash128 *hs, size_t n, uint8_t *out) const {
  for (size_t i = 0; i < n; ++i) out[i] = probe<kConcurrent, kScheme>(hs[i]) ? 1 : 0;
}

// Batches: every probe of an add is needed, so all k lines of the block's
// keys are requested before any is written. Every query reads its first
// group of probes (a miss rarely needs more), so those are requested; on a
// 16-64 MB filter prefetching 1, 2, 4 or all k probes per key measured the
// same within the noise of a shared machine (+-15%), so the cheapest
// complete choice is kept. One dispatch per block, none per key.
void ClassicFilter::add_block(const Hash128 *hs, size_t n) {
  if (config_.probe_scheme() == ProbeScheme::kModulo) return modulo_add_block(hs, n);
  prefetch_probes(hs, n, config_.hashes);
  with_shape(config_, [&]<bool kConcurrent, ProbeScheme kScheme>() { add_all<kConcurrent, kScheme>(hs, n); });
}

void ClassicFilter::query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  if (config_.probe_scheme() == ProbeScheme::kModulo) return modulo_query_block(hs, n, out);
  prefetch_probes(hs, n, std::min(config_.hashes, kQueryPrefetchProbes));
  with_shape(config_,
             [&]<bool kConcurrent, ProbeScheme kScheme>() { query_all<kConcurrent, kScheme>(hs, n, out); });
}

template class ProbingArrayFilter<ClassicFilter, BitArray>;

std::optional<ClassicBits> classic_bits(const Filter &f) {
  const auto *c = dynamic_cast<const ClassicFilter *>(&f);
  if (c == nullptr) return std::nullopt;
  const FilterConfig &config = c->config();
  if (config.hash != HashKind::kXxh3 || config.key_hash64() || config.probe_scheme() == ProbeScheme::kModulo)
    return std::nullopt;
  const BitArray &bits = c->bit_array();
  return ClassicBits{bits.words(),         bits.bits(), config.seed, config.hashes, config.enhanced_probes(),
                     config.mixed_probes()};
}

}  // namespace bloom::core
