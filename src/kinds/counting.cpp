// SPDX-License-Identifier: Apache-2.0
#include "kinds/counting.hpp"

#include <cmath>
#include <string>

#include "error.hpp"
#include "format/payload_io.hpp"
#include "probe.hpp"
#include "sizing.hpp"

namespace bloom::core {

CountingFilter::CountingFilter(const FilterConfig &config)
    : Filter(config), counters_(config.bits, config.counter_bits) {}

CountingFilter::CountingFilter(const FilterConfig &config, CounterArray counters)
    : Filter(config), counters_(std::move(counters)) {}

CountingFilter::CountingFilter(const CountingFilter &other)
    : Filter(other, 0), counters_(other.counters_.copy()) {}

// Increments every probed counter; returns whether all were non-zero before.
template <bool kConcurrent>
bool CountingFilter::increment_all(Hash128 h) {
  ProbeSequence seq(h, config_.enhanced_probes(), config_.mixed_probes());
  const uint64_t m = counters_.count();
  bool all_set = true;
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = reduce_range(seq.next(), m);
    const uint32_t before = kConcurrent ? counters_.increment_atomic(pos) : counters_.increment(pos);
    all_set &= before != 0;
  }
  return all_set;
}

template <bool kConcurrent>
bool CountingFilter::all_nonzero(Hash128 h) const {
  ProbeSequence seq(h, config_.enhanced_probes(), config_.mixed_probes());
  const uint64_t m = counters_.count();
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = reduce_range(seq.next(), m);
    if ((kConcurrent ? counters_.get_atomic(pos) : counters_.get(pos)) == 0) return false;
  }
  return true;
}

template <bool kConcurrent>
void CountingFilter::decrement_all(Hash128 h) {
  // Two probes of one key may hit the same counter; it is then decremented
  // twice, as it was incremented twice.
  ProbeSequence seq(h, config_.enhanced_probes(), config_.mixed_probes());
  const uint64_t m = counters_.count();
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = reduce_range(seq.next(), m);
    if constexpr (kConcurrent)
      counters_.decrement_atomic(pos);
    else
      counters_.decrement(pos);
  }
}

void CountingFilter::add(Hash128 h) {
  if (config_.concurrent())
    (void)increment_all<true>(h);
  else
    (void)increment_all<false>(h);
}

bool CountingFilter::test_and_add(Hash128 h) {
  return config_.concurrent() ? increment_all<true>(h) : increment_all<false>(h);
}

bool CountingFilter::query(Hash128 h) const {
  return config_.concurrent() ? all_nonzero<true>(h) : all_nonzero<false>(h);
}

void CountingFilter::remove(Hash128 h) {
  if (!query(h)) fail(BLOOM_E_NOT_PRESENT, "remove: the key was never added (one of its counters is 0)");
  if (config_.concurrent())
    decrement_all<true>(h);
  else
    decrement_all<false>(h);
  count_removed();
}

void CountingFilter::add_block(const Hash128 *hs, size_t n) {
  const uint64_t m = counters_.count();
  const bool mixed = config_.mixed_probes();
  for (size_t i = 0; i < n; ++i) counters_.prefetch(reduce_range(first_probe(hs[i], mixed), m));
  for (size_t i = 0; i < n; ++i) add(hs[i]);
}

void CountingFilter::query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  const uint64_t m = counters_.count();
  const bool mixed = config_.mixed_probes();
  for (size_t i = 0; i < n; ++i) counters_.prefetch(reduce_range(first_probe(hs[i], mixed), m));
  for (size_t i = 0; i < n; ++i) out[i] = query(hs[i]) ? 1 : 0;
}

void CountingFilter::merge_from(const Filter &src) {
  counters_.add_saturating(static_cast<const CountingFilter &>(src).counters_);
}

void CountingFilter::intersect_with(const Filter &src) {
  counters_.min_with(static_cast<const CountingFilter &>(src).counters_);
}

std::unique_ptr<Filter> CountingFilter::clone_filter() const {
  return std::unique_ptr<Filter>(new CountingFilter(*this));
}

void CountingFilter::fill_info(bloom_info &info) const {
  const uint64_t nonzero = counters_.nonzero_count();
  const uint64_t m = counters_.count();
  info.bits = m;
  info.bytes = counters_.byte_size();
  info.fill_ratio = static_cast<double>(nonzero) / static_cast<double>(m);
  info.estimated_keys = estimate_distinct(nonzero, m, config_.hashes);
  info.expected_fp_rate = std::pow(info.fill_ratio, config_.hashes);
}

void CountingFilter::write_payload(ByteSink &sink) const { write_words(sink, counters_.storage()); }

std::unique_ptr<Filter> CountingFilter::load(const FilterConfig &config, ByteSource &src, bool zero_copy) {
  const uint64_t words = CounterArray::word_count_for(config.bits, config.counter_bits);
  CounterArray counters(read_words(src, words * 64, zero_copy), config.bits, config.counter_bits);
  if (!counters.padding_is_clear())
    fail(BLOOM_E_FORMAT, "payload sets bits beyond the last of " + std::to_string(config.bits) + " counters");
  return std::unique_ptr<Filter>(new CountingFilter(config, std::move(counters)));
}

}  // namespace bloom::core
