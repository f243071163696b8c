// SPDX-License-Identifier: Apache-2.0
#include "kinds/partitioned.hpp"

#include <bit>
#include <cmath>
#include <string>

#include "error.hpp"
#include "format/payload_io.hpp"
#include "probe.hpp"
#include "sizing.hpp"

namespace bloom::core {

PartitionedFilter::PartitionedFilter(const FilterConfig &config) : Filter(config), bits_(config.bits) {
  compute_starts();
}

PartitionedFilter::PartitionedFilter(const FilterConfig &config, BitArray bits)
    : Filter(config), bits_(std::move(bits)) {
  compute_starts();
}

PartitionedFilter::PartitionedFilter(const PartitionedFilter &other)
    : Filter(other, 0), bits_(other.bits_.copy()), starts_(other.starts_) {}

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

template <bool kConcurrent, bool kEnhanced>
bool PartitionedFilter::probe_and_set(Hash128 h) {
  ProbeSequence seq(h, kEnhanced, config_.mixed_probes());
  bool all_set = true;
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = starts_[i] + reduce_range(seq.next(), starts_[i + 1] - starts_[i]);
    if constexpr (kConcurrent) {
      all_set &= bits_.set_atomic(pos);
    } else {
      all_set &= bits_.test(pos);
      bits_.set(pos);
    }
  }
  return all_set;
}

template <bool kConcurrent, bool kEnhanced>
bool PartitionedFilter::probe(Hash128 h) const {
  ProbeSequence seq(h, kEnhanced, config_.mixed_probes());
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = starts_[i] + reduce_range(seq.next(), starts_[i + 1] - starts_[i]);
    const bool set = kConcurrent ? bits_.test_atomic(pos) : bits_.test(pos);
    if (!set) return false;
  }
  return true;
}

// The flags are per-filter constants, so this branch predicts perfectly.
#define BLOOM_PARTITIONED_DISPATCH(fn, h)                                                      \
  (config_.concurrent() ? (config_.enhanced_probes() ? fn<true, true>(h) : fn<true, false>(h)) \
                        : (config_.enhanced_probes() ? fn<false, true>(h) : fn<false, false>(h)))

void PartitionedFilter::add(Hash128 h) { (void)BLOOM_PARTITIONED_DISPATCH(probe_and_set, h); }

bool PartitionedFilter::test_and_add(Hash128 h) { return BLOOM_PARTITIONED_DISPATCH(probe_and_set, h); }

bool PartitionedFilter::query(Hash128 h) const { return BLOOM_PARTITIONED_DISPATCH(probe, h); }

void PartitionedFilter::add_block(const Hash128 *hs, size_t n) {
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

void PartitionedFilter::merge_from(const Filter &src) {
  bits_.or_with(static_cast<const PartitionedFilter &>(src).bits_);
}

void PartitionedFilter::intersect_with(const Filter &src) {
  bits_.and_with(static_cast<const PartitionedFilter &>(src).bits_);
}

std::unique_ptr<Filter> PartitionedFilter::clone_filter() const {
  return std::unique_ptr<Filter>(new PartitionedFilter(*this));
}

void PartitionedFilter::fill_info(bloom_info &info) const {
  const uint64_t set = bits_.popcount();
  const uint64_t m = bits_.bits();
  info.bits = m;
  info.bytes = bits_.byte_size();
  info.fill_ratio = static_cast<double>(set) / static_cast<double>(m);
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
    uint64_t slice_set = 0;
    for (uint64_t b = starts_[i]; b < starts_[i + 1];) {
      // Whole words where possible; the slice edges need single bits.
      if ((b & 63) == 0 && b + 64 <= starts_[i + 1]) {
        slice_set += static_cast<uint64_t>(std::popcount(bits_.words()[b >> 6]));
        b += 64;
      } else {
        slice_set += bits_.test(b) ? 1 : 0;
        ++b;
      }
    }
    rate *= static_cast<double>(slice_set) / static_cast<double>(starts_[i + 1] - starts_[i]);
  }
  info.expected_fp_rate = rate;
}

void PartitionedFilter::write_payload(ByteSink &sink) const { write_words(sink, bits_); }

std::unique_ptr<Filter> PartitionedFilter::load(const FilterConfig &config, ByteSource &src, bool zero_copy) {
  BitArray bits = read_words(src, config.bits, zero_copy);
  if (!bits.padding_is_clear())
    fail(BLOOM_E_FORMAT, "payload sets bits beyond m = " + std::to_string(config.bits));
  return std::unique_ptr<Filter>(new PartitionedFilter(config, std::move(bits)));
}

}  // namespace bloom::core
