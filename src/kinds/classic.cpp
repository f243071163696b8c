#include "kinds/classic.hpp"

#include <cmath>
#include <string>

#include "error.hpp"
#include "format/payload_io.hpp"
#include "probe.hpp"
#include "sizing.hpp"

namespace bloom::core {

ClassicFilter::ClassicFilter(const FilterConfig &config) : Filter(config), bits_(config.bits) {}

ClassicFilter::ClassicFilter(const FilterConfig &config, BitArray bits)
    : Filter(config), bits_(std::move(bits)) {}

ClassicFilter::ClassicFilter(const ClassicFilter &other) : Filter(other, 0), bits_(other.bits_.copy()) {}

// Sets every probed bit; returns whether all of them were set before.
template <bool kConcurrent, bool kEnhanced>
bool ClassicFilter::probe_and_set(Hash128 h) {
  ProbeSequence seq(h, kEnhanced);
  const uint64_t m = bits_.bits();
  bool all_set = true;
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = reduce_range(seq.next(), m);
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
bool ClassicFilter::probe(Hash128 h) const {
  ProbeSequence seq(h, kEnhanced);
  const uint64_t m = bits_.bits();
  for (uint32_t i = 0; i < config_.hashes; ++i) {
    const uint64_t pos = reduce_range(seq.next(), m);
    const bool set = kConcurrent ? bits_.test_atomic(pos) : bits_.test(pos);
    if (!set) return false;
  }
  return true;
}

// Picks the template instance for this filter's flags; the flags are
// per-filter constants, so the branch predicts perfectly.
#define BLOOM_CLASSIC_DISPATCH(fn, h)                                                          \
  (config_.concurrent() ? (config_.enhanced_probes() ? fn<true, true>(h) : fn<true, false>(h)) \
                        : (config_.enhanced_probes() ? fn<false, true>(h) : fn<false, false>(h)))

void ClassicFilter::add(Hash128 h) { (void)BLOOM_CLASSIC_DISPATCH(probe_and_set, h); }

bool ClassicFilter::test_and_add(Hash128 h) { return BLOOM_CLASSIC_DISPATCH(probe_and_set, h); }

bool ClassicFilter::query(Hash128 h) const { return BLOOM_CLASSIC_DISPATCH(probe, h); }

void ClassicFilter::add_block(const Hash128 *hs, size_t n) {
  // The first probe of each key is usually a cache miss; start them all
  // before waiting on any.
  const uint64_t m = bits_.bits();
  for (size_t i = 0; i < n; ++i) bits_.prefetch(reduce_range(hs[i].h1, m));
  for (size_t i = 0; i < n; ++i) add(hs[i]);
}

void ClassicFilter::query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  const uint64_t m = bits_.bits();
  for (size_t i = 0; i < n; ++i) bits_.prefetch(reduce_range(hs[i].h1, m));
  for (size_t i = 0; i < n; ++i) out[i] = query(hs[i]) ? 1 : 0;
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
