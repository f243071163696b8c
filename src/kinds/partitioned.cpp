// SPDX-License-Identifier: Apache-2.0
#include "kinds/partitioned.hpp"

#include <cmath>
#include <string>

#include "dispatch.hpp"
#include "error.hpp"
#include "format/payload_io.hpp"
#include "kinds/probing_array_filter_impl.hpp"
#include "popcount.hpp"
#include "popcount.hpp"
#include "probe.hpp"
#include "sizing.hpp"

namespace bloom::core {

PartitionedFilter::PartitionedFilter(const FilterConfig &config) : ProbingArrayFilter(config) {
  compute_starts();
}

PartitionedFilter::PartitionedFilter(const FilterConfig &config, BitArray bits)
    : ProbingArrayFilter(config, std::move(bits)) {
  compute_starts();
}

PartitionedFilter::PartitionedFilter(const PartitionedFilter &other)
    : ProbingArrayFilter(other), starts_(other.starts_) {}

void PartitionedFilter::compute_starts() {
  // i * m <= 64 * 2^40, far inside 64 bits.
  const uint64_t m = config_.bits;
  const uint64_t k = config_.hashes;
  for (uint64_t i = 0; i <= k; ++i) starts_[i] = i * m / k;
}

double PartitionedFilter::fp_rate(double n, uint64_t m, uint32_t k) {
  if (m == 0 || k == 0 || m < k) return std::nan("");
  double rate = 1.0;
  for (uint64_t i = 0; i < k; ++i) {
    const uint64_t s = (i + 1) * m / k - i * m / k;
    rate *= -std::expm1(n * std::log1p(-1.0 / static_cast<double>(s)));
  }
  return rate;
}

template <bool kConcurrent, ProbeScheme kScheme>
bool PartitionedFilter::probe_and_set(Hash128 h) {
  ProbeSequence seq(h, kScheme);
  bool all_set = true;
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = starts_[i] + reduce_range(seq.next(), starts_[i + 1] - starts_[i]);
    // A concurrent filter loads before the locked OR and skips it when the
    // bit is set (as classic does): no barrier and the line stays shared.
    if constexpr (kConcurrent)
      all_set &= bits_.test_atomic(pos) || bits_.set_atomic(pos);
    else
      all_set &= bits_.test_and_set(pos);
  }
  return all_set;
}

template <bool kConcurrent, ProbeScheme kScheme>
bool PartitionedFilter::probe(Hash128 h) const {
  ProbeSequence seq(h, kScheme);
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = starts_[i] + reduce_range(seq.next(), starts_[i + 1] - starts_[i]);
    const bool set = kConcurrent ? bits_.test_atomic(pos) : bits_.test(pos);
    if (!set) return false;
  }
  return true;
}

// A concurrent filter's ORs are locked instructions, each a full barrier on
// x86: a probe that misses the cache stalls every later instruction, so a
// prefetch issued just before the block's ORs (as the plain path does for
// probe 0) has no time to arrive. Every probe's line is instead requested
// for writing a block ahead, by prefetch_block (add_keys calls it before
// adding the block in between; prefetches are not ordered by locked
// instructions), and add_block then only sets bits, one dispatch per block.
// One thread's batch add fell from about 150 to about 60 ns per key (10 M
// keys, docs/PERFORMANCE.md, "Concurrent adds that scale").
void PartitionedFilter::prefetch_block(const Hash128 *hs, size_t n) const {
  if (!config_.concurrent()) return;
  const ProbeScheme scheme = config_.probe_scheme();
  for (size_t i = 0; i < n; ++i) {
    ProbeSequence seq(hs[i], scheme);
    for (uint32_t j = 0; j < config_.hashes; ++j)
      bits_.prefetch_for_write(starts_[j] + reduce_range(seq.next(), starts_[j + 1] - starts_[j]));
  }
}

void PartitionedFilter::add_block(const Hash128 *hs, size_t n) {
  if (config_.concurrent()) {
    with_shape(config_, [&]<bool kConcurrent, ProbeScheme kScheme>() {
      for (size_t i = 0; i < n; ++i) (void)probe_and_set<kConcurrent, kScheme>(hs[i]);
    });
    return;
  }
  // Probe 0 lands in slice 0; start every key's first miss before waiting
  // on any.
  const uint64_t s0 = starts_[1];
  const bool mixed = config_.mixed_probes();
  for (size_t i = 0; i < n; ++i) bits_.prefetch(reduce_range(first_probe(hs[i], mixed), s0));
  for (size_t i = 0; i < n; ++i) add(hs[i]);
}

void PartitionedFilter::query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  const uint64_t s0 = starts_[1];
  const bool mixed = config_.mixed_probes();
  for (size_t i = 0; i < n; ++i) bits_.prefetch(reduce_range(first_probe(hs[i], mixed), s0));
  for (size_t i = 0; i < n; ++i) out[i] = query(hs[i]) ? 1 : 0;
}

void PartitionedFilter::fill_info(Info &info) const {
  ArrayFilter::fill_info(info);
  const uint64_t set = bits_.popcount();
  const uint64_t m = bits_.bits();
  // Each key sets one bit per slice, so a slice of s bits with x set holds
  // about ln(1 - x/s) / ln(1 - 1/s) keys; the slices are near-equal, so the
  // mean slice gives the estimate: n = ln(1 - X/m) / ln(1 - k/m).
  const double k = config_.hashes;
  const double md = static_cast<double>(m);
  if (set >= m)
    info.estimated_keys = INFINITY;
  else
    info.estimated_keys = std::log1p(-static_cast<double>(set) / md) / std::log1p(-k / md);
  // The probability that every probe lands on a set bit, slice by slice.
  double rate = 1.0;
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    // Whole words where possible; the slice edges need single bits.
    const uint64_t begin = starts_[i], end = starts_[i + 1];
    const uint64_t first_word = (begin + 63) / 64, last_word = end / 64;
    uint64_t slice_set = 0;
    if (first_word < last_word) {
      slice_set += popcount_words(bits_.words() + first_word, last_word - first_word);
      for (uint64_t b = begin; b < first_word * 64; ++b) slice_set += bits_.test(b) ? 1 : 0;
      for (uint64_t b = last_word * 64; b < end; ++b) slice_set += bits_.test(b) ? 1 : 0;
    } else {
      for (uint64_t b = begin; b < end; ++b) slice_set += bits_.test(b) ? 1 : 0;
    }
    rate *= static_cast<double>(slice_set) / static_cast<double>(starts_[i + 1] - starts_[i]);
  }
  info.expected_fp_rate = rate;
}

template class ProbingArrayFilter<PartitionedFilter, BitArray>;

}  // namespace bloom::core
