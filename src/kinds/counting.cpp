// SPDX-License-Identifier: Apache-2.0
#include "kinds/counting.hpp"

#include <cmath>
#include <string>

#include "dispatch.hpp"
#include "error.hpp"
#include "format/payload_io.hpp"
#include "kinds/probing_array_filter_impl.hpp"
#include "probe.hpp"
#include "sizing.hpp"

namespace bloom::core {

CountingFilter::CountingFilter(const FilterConfig &config) : ProbingArrayFilter(config) {}

CountingFilter::CountingFilter(const FilterConfig &config, CounterArray counters)
    : ProbingArrayFilter(config, std::move(counters)) {}

CountingFilter::CountingFilter(const CountingFilter &other) : ProbingArrayFilter(other) {}

// Increments every probed counter; returns whether all were non-zero before.
template <bool kConcurrent, ProbeScheme kScheme>
bool CountingFilter::probe_and_set(Hash128 h) {
  ProbeSequence seq(h, kScheme);
  bool all_nonzero = true;
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = reduce_range(seq.next(), bits_.count());
    all_nonzero &= (kConcurrent ? bits_.increment_atomic(pos) : bits_.increment(pos)) != 0;
  }
  return all_nonzero;
}

template <bool kConcurrent, ProbeScheme kScheme>
bool CountingFilter::probe(Hash128 h) const {
  ProbeSequence seq(h, kScheme);
  const uint64_t m = bits_.count();
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = reduce_range(seq.next(), m);
    if ((kConcurrent ? bits_.get_atomic(pos) : bits_.get(pos)) == 0) return false;
  }
  return true;
}

template <bool kConcurrent, ProbeScheme kScheme>
void CountingFilter::decrement_all(Hash128 h) {
  // Two probes of one key may hit the same counter; it is then decremented
  // twice, as it was incremented twice.
  ProbeSequence seq(h, kScheme);
  const uint64_t m = bits_.count();
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = reduce_range(seq.next(), m);
    if constexpr (kConcurrent)
      bits_.decrement_atomic(pos);
    else
      bits_.decrement(pos);
  }
}

void CountingFilter::remove(Hash128 h) {
  if (!query(h)) fail(Status::kNotPresent, "remove: the key was never added (one of its counters is 0)");
  with_shape(config_,
             [&]<bool kConcurrent, ProbeScheme kScheme>() { decrement_all<kConcurrent, kScheme>(h); });
  count_removed();
}

void CountingFilter::add_block(const Hash128 *hs, size_t n) {
  const uint64_t m = bits_.count();
  const bool mixed = config_.mixed_probes();
  for (size_t i = 0; i < n; ++i) bits_.prefetch(reduce_range(first_probe(hs[i], mixed), m));
  for (size_t i = 0; i < n; ++i) add(hs[i]);
}

void CountingFilter::query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  const uint64_t m = bits_.count();
  const bool mixed = config_.mixed_probes();
  for (size_t i = 0; i < n; ++i) bits_.prefetch(reduce_range(first_probe(hs[i], mixed), m));
  for (size_t i = 0; i < n; ++i) out[i] = query(hs[i]) ? 1 : 0;
}

template class ProbingArrayFilter<CountingFilter, CounterArray>;

}  // namespace bloom::core
