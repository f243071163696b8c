// SPDX-License-Identifier: Apache-2.0
// array_filter.hpp -- what the kinds made of one array share: classic,
// partitioned and blocked (one BitArray) and counting (one CounterArray).
//
// ArrayFilter<Kind, Storage> owns the array and writes, once for all four,
// the payload (the array's words, little-endian), load (with the padding
// check), union, intersection, clear, clone and the common info. A kind
// derives from it and writes only its probes: add, test_and_add, query and
// their block forms, and whatever its info adds (partitioned and blocked
// override fill_info with their own models).
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "bit_array.hpp"
#include "error.hpp"
#include "filter.hpp"
#include "format/payload_io.hpp"
#include "kinds/counter_array.hpp"
#include "sizing.hpp"

namespace bloom::core {

// How the base treats each kind of array.
template <typename Storage>
struct ArrayOps;

template <>
struct ArrayOps<BitArray> {
  static BitArray make(const FilterConfig &c) { return BitArray(c.bits); }
  static uint64_t payload_size(const FilterConfig &c) { return BitArray::word_count_for(c.bits) * 8; }
  static BitArray read(ByteSource &src, const FilterConfig &c, bool zero_copy) {
    BitArray bits = read_words(src, c.bits, zero_copy);
    if (!bits.padding_is_clear())
      fail(Status::kFormat, "payload sets bits beyond m = " + std::to_string(c.bits));
    return bits;
  }
  static const BitArray &words(const BitArray &a) { return a; }
  static void unite(BitArray &a, const BitArray &b) { a.or_with(b); }
  static void intersect(BitArray &a, const BitArray &b) { a.and_with(b); }
  static uint64_t positions(const BitArray &a) { return a.bits(); }
  static uint64_t set_positions(const BitArray &a) { return a.popcount(); }
};

// Union adds counters (saturating), intersection keeps the smaller:
// counting.hpp says why both keep every key of both inputs removable.
template <>
struct ArrayOps<CounterArray> {
  static CounterArray make(const FilterConfig &c) { return CounterArray(c.bits, c.counter_bits); }
  static uint64_t payload_size(const FilterConfig &c) {
    return CounterArray::word_count_for(c.bits, c.counter_bits) * 8;
  }
  static CounterArray read(ByteSource &src, const FilterConfig &c, bool zero_copy) {
    const uint64_t words = CounterArray::word_count_for(c.bits, c.counter_bits);
    CounterArray counters(read_words(src, words * 64, zero_copy), c.bits, c.counter_bits);
    if (!counters.padding_is_clear())
      fail(Status::kFormat, "payload sets bits beyond the last of " + std::to_string(c.bits) + " counters");
    return counters;
  }
  static const BitArray &words(const CounterArray &a) { return a.storage(); }
  static void unite(CounterArray &a, const CounterArray &b) { a.add_saturating(b); }
  static void intersect(CounterArray &a, const CounterArray &b) { a.min_with(b); }
  static uint64_t positions(const CounterArray &a) { return a.count(); }
  static uint64_t set_positions(const CounterArray &a) { return a.nonzero_count(); }
};

template <typename KindFilter, typename Storage>
class ArrayFilter : public Filter {
  using Ops = ArrayOps<Storage>;

 public:
  // The payload's exact size for a configuration (the loader checks the
  // header's against it before reading).
  static uint64_t payload_size_for(const FilterConfig &c) { return Ops::payload_size(c); }
  // Reads the payload written by write_payload; zero_copy borrows the
  // source's memory instead of copying it (for bloom_map).
  static std::unique_ptr<Filter> load(const FilterConfig &c, ByteSource &src, bool zero_copy) {
    return std::unique_ptr<Filter>(new KindFilter(c, Ops::read(src, c, zero_copy)));
  }

  uint64_t payload_size() const override { return bits_.byte_size(); }
  void write_payload(ByteSink &sink) const override { write_words(sink, Ops::words(bits_)); }

 protected:
  explicit ArrayFilter(const FilterConfig &c) : Filter(c), bits_(Ops::make(c)) {}
  ArrayFilter(const FilterConfig &c, Storage array) : Filter(c), bits_(std::move(array)) {}
  ArrayFilter(const ArrayFilter &other) : Filter(other, 0), bits_(other.bits_.copy()) {}

  void merge_from(const Filter &src) override {
    Ops::unite(bits_, static_cast<const KindFilter &>(src).bits_);
  }
  void intersect_with(const Filter &src) override {
    Ops::intersect(bits_, static_cast<const KindFilter &>(src).bits_);
  }
  void clear_all() override { bits_.clear(); }
  std::unique_ptr<Filter> clone_filter() const override {
    return std::unique_ptr<Filter>(new KindFilter(static_cast<const KindFilter &>(*this)));
  }
  // m, bytes, the fill, the keys it suggests (Swamidass & Baldi) and the
  // rate fill^k (Guava's expectedFpp).
  void fill_info(Info &info) const override {
    const uint64_t set = Ops::set_positions(bits_);
    const uint64_t m = Ops::positions(bits_);
    info.bits = m;
    info.bytes = bits_.byte_size();
    info.fill_ratio = static_cast<double>(set) / static_cast<double>(m);
    info.estimated_keys = estimate_distinct(set, m, config_.hashes);
    info.expected_fp_rate = std::pow(info.fill_ratio, config_.hashes);
  }

  // The array: bits, or the counting kind's counters.
  Storage bits_;
};

// The array kinds whose probes follow the filter's probe scheme (classic,
// partitioned, counting). A kind writes two templates, probe_and_set<kC,
// kS>(h) (adds h; returns whether every position was set before) and
// probe<kC, kS>(h) (a query), and this class instantiates them for every
// shape (dispatch.hpp) behind add, test_and_add and query. Those three are
// defined in kinds/probing_array_filter_impl.hpp, which only the kind's own
// .cpp includes and instantiates: other files call them out of line, as
// they called the kinds' own functions before (inlined into the scalable
// kind's stage loop, the 8-way dispatch slowed its adds down).
template <typename KindFilter, typename Storage>
class ProbingArrayFilter : public ArrayFilter<KindFilter, Storage> {
 public:
  bool query(Hash128 h) const override;

 protected:
  using ArrayFilter<KindFilter, Storage>::ArrayFilter;

  void add(Hash128 h) override;
  bool test_and_add(Hash128 h) override;
};

}  // namespace bloom::core
