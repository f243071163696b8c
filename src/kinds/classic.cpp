// SPDX-License-Identifier: Apache-2.0
#include "kinds/classic.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "error.hpp"
#include "format/payload_io.hpp"
#include "probe.hpp"
#include "sizing.hpp"

namespace bloom::core {

ClassicFilter::ClassicFilter(const FilterConfig &config) : Filter(config), bits_(config.bits) {
  install_key_query();
}

ClassicFilter::ClassicFilter(const FilterConfig &config, BitArray bits)
    : Filter(config), bits_(std::move(bits)) {
  install_key_query();
}

ClassicFilter::ClassicFilter(const ClassicFilter &other) : Filter(other, 0), bits_(other.bits_.copy()) {
  install_key_query();
}

// Sets every probed bit; returns whether all of them were set before.
template <bool kConcurrent, bool kEnhanced, bool kMixed>
bool ClassicFilter::probe_and_set(Hash128 h) {
  ProbeSequence seq(h, kEnhanced, kMixed);
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
      all_set &= bits_.test(pos);
      bits_.set(pos);
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
// The extra loads are independent of each other and overlap. Measured (1 and
// 4 MiB filters, medians of 5, docs/PERFORMANCE.md): misses 35-50 -> 22-30
// ns, hits 24-27 -> 25-31 ns, against one branch per probe; and slightly
// faster than one branch per group of 4 for both.
template <bool kConcurrent, bool kEnhanced, bool kMixed>
bool ClassicFilter::probe(Hash128 h) const {
  ProbeSequence seq(h, kEnhanced, kMixed);
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
template <bool kConcurrent, bool kEnhanced, bool kMixed>
__attribute__((flatten)) int ClassicFilter::query_key_xxh3(const void *self, const void *key, size_t len) {
  const auto &f = static_cast<const ClassicFilter &>(*static_cast<const Filter *>(self));
  return f.probe<kConcurrent, kEnhanced, kMixed>(xxh3_128_short_inline(key, len, f.hasher_.seed)) ? 1 : 0;
}

void ClassicFilter::install_key_query() {
  if (hasher_.kind != HashKind::kXxh3 || hasher_.hash64) return;  // the generic path serves the rest
  using QueryKey = int (*)(const void *, const void *, size_t);
  static constexpr QueryKey kPaths[2][2][2] = {
      {{&query_key_xxh3<false, false, false>, &query_key_xxh3<false, false, true>},
       {&query_key_xxh3<false, true, false>, &query_key_xxh3<false, true, true>}},
      {{&query_key_xxh3<true, false, false>, &query_key_xxh3<true, false, true>},
       {&query_key_xxh3<true, true, false>, &query_key_xxh3<true, true, true>}}};
  set_key_query(kPaths[config_.concurrent()][config_.enhanced_probes()][config_.mixed_probes()]);
}

// Prefetches the lines of the first `probes` probes of each key.
void ClassicFilter::prefetch_probes(const Hash128 *hs, size_t n, uint32_t probes) const {
  const uint64_t m = bits_.bits();
  const bool enhanced = config_.enhanced_probes();
  const bool mixed = config_.mixed_probes();
  for (size_t i = 0; i < n; ++i) {
    ProbeSequence seq(hs[i], enhanced, mixed);
    for (uint32_t j = 0; j < probes; ++j) bits_.prefetch(reduce_range(seq.next(), m));
  }
}

template <bool kConcurrent, bool kEnhanced, bool kMixed>
void ClassicFilter::add_all(const Hash128 *hs, size_t n) {
  for (size_t i = 0; i < n; ++i) (void)probe_and_set<kConcurrent, kEnhanced, kMixed>(hs[i]);
}

template <bool kConcurrent, bool kEnhanced, bool kMixed>
void ClassicFilter::query_all(const Hash128 *hs, size_t n, uint8_t *out) const {
  for (size_t i = 0; i < n; ++i) out[i] = probe<kConcurrent, kEnhanced, kMixed>(hs[i]) ? 1 : 0;
}

// Picks the template instance for this filter's flags; the flags are
// per-filter constants, so the branches predict perfectly.
#define BLOOM_CLASSIC_DISPATCH_MIXED(fn, kMixed, ...)                                        \
  (config_.concurrent() ? (config_.enhanced_probes() ? fn<true, true, kMixed>(__VA_ARGS__)   \
                                                     : fn<true, false, kMixed>(__VA_ARGS__)) \
                        : (config_.enhanced_probes() ? fn<false, true, kMixed>(__VA_ARGS__)  \
                                                     : fn<false, false, kMixed>(__VA_ARGS__)))
#define BLOOM_CLASSIC_DISPATCH(fn, ...)                                         \
  (config_.mixed_probes() ? BLOOM_CLASSIC_DISPATCH_MIXED(fn, true, __VA_ARGS__) \
                          : BLOOM_CLASSIC_DISPATCH_MIXED(fn, false, __VA_ARGS__))

void ClassicFilter::add(Hash128 h) {
  if (config_.modulo_probes()) {
    (void)modulo_test_and_add(h);
    return;
  }
  (void)BLOOM_CLASSIC_DISPATCH(probe_and_set, h);
}

bool ClassicFilter::test_and_add(Hash128 h) {
  if (config_.modulo_probes()) return modulo_test_and_add(h);
  return BLOOM_CLASSIC_DISPATCH(probe_and_set, h);
}

bool ClassicFilter::query(Hash128 h) const {
  if (config_.modulo_probes()) return modulo_query(h);
  return BLOOM_CLASSIC_DISPATCH(probe, h);
}

// Batches: every probe of an add is needed, so all k lines of the block's
// keys are requested before any is written. Every query reads its first
// group of probes (a miss rarely needs more), so those are requested; on a
// 16-64 MB filter prefetching 1, 2, 4 or all k probes per key measured the
// same within the noise of a shared machine (+-15%), so the cheapest
// complete choice is kept. One dispatch per block, none per key.
void ClassicFilter::add_block(const Hash128 *hs, size_t n) {
  if (config_.modulo_probes()) return modulo_add_block(hs, n);
  prefetch_probes(hs, n, config_.hashes);
  BLOOM_CLASSIC_DISPATCH(add_all, hs, n);
}

void ClassicFilter::query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  if (config_.modulo_probes()) return modulo_query_block(hs, n, out);
  prefetch_probes(hs, n, std::min(config_.hashes, kQueryPrefetchProbes));
  BLOOM_CLASSIC_DISPATCH(query_all, hs, n, out);
}

void ClassicFilter::merge_from(const Filter &src) {
  bits_.or_with(static_cast<const ClassicFilter &>(src).bits_);
}

void ClassicFilter::intersect_with(const Filter &src) {
  bits_.and_with(static_cast<const ClassicFilter &>(src).bits_);
}

std::unique_ptr<Filter> ClassicFilter::clone_filter() const {
  return std::unique_ptr<Filter>(new ClassicFilter(*this));
}

void ClassicFilter::fill_info(bloom_info &info) const {
  const uint64_t set = bits_.popcount();
  const uint64_t m = bits_.bits();
  info.bits = m;
  info.bytes = bits_.byte_size();
  info.fill_ratio = static_cast<double>(set) / static_cast<double>(m);
  info.estimated_keys = estimate_distinct(set, m, config_.hashes);
  info.expected_fp_rate = std::pow(info.fill_ratio, config_.hashes);
}

void ClassicFilter::write_payload(ByteSink &sink) const { write_words(sink, bits_); }

std::unique_ptr<Filter> ClassicFilter::load(const FilterConfig &config, ByteSource &src, bool zero_copy) {
  BitArray bits = read_words(src, config.bits, zero_copy);
  if (!bits.padding_is_clear())
    fail(BLOOM_E_FORMAT, "payload sets bits beyond m = " + std::to_string(config.bits));
  return std::unique_ptr<Filter>(new ClassicFilter(config, std::move(bits)));
}

}  // namespace bloom::core
