// SPDX-License-Identifier: Apache-2.0
// striped_counter.hpp -- a count that many threads increment without sharing
// a cache line, summed when read.
//
// A concurrent filter counts its adds (Info::keys_added). One shared
// atomic would be written by every add of every thread, so its cache line
// would bounce between cores on each key: with a shared counter, two
// threads adding into one classic filter ran at less than half of one
// thread's speed (concurrency_bench). Each thread instead adds to its own 64-byte stripe
// (threads are numbered round-robin, so the first 16 threads never share
// one), and a reader sums the 16 stripes (reads are rare: get_info, merge,
// save). Relaxed order suffices: the count orders nothing.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "relaxed_atomic.hpp"

namespace bloom::core {

class StripedCounter {
 public:
  static constexpr size_t kStripes = 16;

  void add(uint64_t n) { relaxed_add(stripes_[this_thread_stripe()].value, n); }

  uint64_t load() const {
    uint64_t sum = 0;
    for (const Stripe &s : stripes_) sum += relaxed_load(s.value);
    return sum;
  }

  // Replaces the count; callers hold exclusive access (merge, clear, load).
  void store(uint64_t n) {
    for (Stripe &s : stripes_) relaxed_store(s.value, 0);
    relaxed_store(stripes_[0].value, n);
  }

 private:
  struct alignas(64) Stripe {
    uint64_t value = 0;
  };

  static size_t this_thread_stripe() {
    static std::atomic<size_t> next{0};
    thread_local const size_t stripe = next.fetch_add(1, std::memory_order_relaxed) % kStripes;
    return stripe;
  }

  Stripe stripes_[kStripes];
};

}  // namespace bloom::core
