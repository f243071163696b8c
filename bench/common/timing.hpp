// SPDX-License-Identifier: Apache-2.0
// timing.hpp -- clocks and the median of repeated measurements.
//
// The machine these numbers come from is shared and noisy (2 cores, several
// compilers running beside the benchmark, load averages of 5-12 seen), so
// every figure is the median of several repetitions, and per-key times are
// the CPU time of the measuring thread (CLOCK_THREAD_CPUTIME_ID), not wall
// time: with a load of 10 on 2 cores, a wall clock counts the time slices
// other processes get (we saw a 4x spread), while CPU time still includes
// every cache miss, including those caused by the neighbours' evictions.
#pragma once

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace bloom_bench {

inline uint64_t now_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// CPU time consumed by the calling thread, in ns.
inline uint64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

// Runs body(r) `reps` times and returns the median CPU ns per item over
// `items`, with prepare(r) run before the clock starts and finish(r) after
// it stops: an insert repetition times its adds, not the creation (page
// population) and freeing of the filter it fills.
template <typename Prepare, typename Body, typename Finish>
double median_ns_per_item_between(int reps, size_t items, Prepare &&prepare, Body &&body, Finish &&finish) {
  std::vector<double> per_item;
  for (int r = 0; r < reps; ++r) {
    prepare(r);
    const uint64_t t0 = thread_cpu_ns();
    body(r);
    const uint64_t t1 = thread_cpu_ns();
    finish(r);
    per_item.push_back(static_cast<double>(t1 - t0) / static_cast<double>(items ? items : 1));
  }
  return median(per_item);
}

// Runs body(r) `reps` times and returns the median CPU ns per item over `items`.
template <typename Body>
double median_ns_per_item(int reps, size_t items, Body &&body) {
  return median_ns_per_item_between(
      reps, items, [](int) {}, body, [](int) {});
}

// Keeps a value alive so the optimiser cannot drop the work that made it.
template <typename T>
inline void keep(const T &v) {
  asm volatile("" : : "r,m"(v) : "memory");
}

}  // namespace bloom_bench
