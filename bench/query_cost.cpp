// SPDX-License-Identifier: Apache-2.0
// query_cost.cpp -- a kind's query path, for instruction counting.
//
// Builds one filter (default: blocked, 1,000,000 keys at p = 1e-4, the seed
// workload's keys) and runs Q single-key queries and Q batch queries of
// inserted keys and of never-inserted keys, each in its own non-inlined
// function, so that
//
//   valgrind --tool=callgrind --callgrind-out-file=cg.out build/bench/query_cost
//   callgrind_annotate --inclusive=yes cg.out | grep cost_
//
// gives the instructions of each loop; divide by Q (printed) for
// instructions per query. Instruction counts repeat exactly from run to run,
// unlike wall-clock time on a shared machine, so they are the guide for
// changes to the query path (docs/PERFORMANCE.md, "Query path: after").
// Outside valgrind it also prints the median ns per query of 5 timed passes,
// as a sanity check only.
//
// Usage: query_cost [KEYS [QUERIES [P [KIND [concurrent]]]]]   (KIND: a
// bloom_kind_name, e.g. classic; "concurrent" sets BLOOM_FLAG_CONCURRENT)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bloom/bloom.h"
#include "common/keys.hpp"

// Each cost_* loop stays its own symbol for callgrind: GCC's noipa also
// keeps identical bodies from being folded; clang has no noipa (and does not
// fold them).
#if defined(__clang__)
#define BLOOM_BENCH_NOIPA __attribute__((noinline))
#else
#define BLOOM_BENCH_NOIPA __attribute__((noipa))
#endif

namespace {

using bloom_bench::KeySet;

constexpr size_t kBatch = 4096;  // keys per bloom_query_batch call, as the seed table uses

BLOOM_BENCH_NOIPA size_t cost_single(const bloom_filter *f, const KeySet &ks, size_t q) {
  size_t hits = 0;
  for (size_t i = 0; i < q; ++i) hits += bloom_query(f, ks.ptrs[i], ks.lens[i]) == 1;
  return hits;
}

BLOOM_BENCH_NOIPA size_t cost_batch(const bloom_filter *f, const KeySet &ks, size_t q,
                                    std::vector<uint8_t> &out) {
  size_t hits = 0;
  for (size_t start = 0; start < q; start += kBatch) {
    const size_t count = std::min(kBatch, q - start);
    if (bloom_query_batch(f, &ks.ptrs[start], &ks.lens[start], count, out.data()) != BLOOM_OK) return 0;
    for (size_t i = 0; i < count; ++i) hits += out[i];
  }
  return hits;
}

// Separate symbols per key set, so callgrind reports hits and misses apart
// (noipa: identical bodies must not be folded into one symbol).
BLOOM_BENCH_NOIPA size_t cost_single_hit(const bloom_filter *f, const KeySet &ks, size_t q) {
  return cost_single(f, ks, q);
}
BLOOM_BENCH_NOIPA size_t cost_single_miss(const bloom_filter *f, const KeySet &ks, size_t q) {
  return cost_single(f, ks, q);
}
BLOOM_BENCH_NOIPA size_t cost_batch_hit(const bloom_filter *f, const KeySet &ks, size_t q,
                                        std::vector<uint8_t> &out) {
  return cost_batch(f, ks, q, out);
}
BLOOM_BENCH_NOIPA size_t cost_batch_miss(const bloom_filter *f, const KeySet &ks, size_t q,
                                         std::vector<uint8_t> &out) {
  return cost_batch(f, ks, q, out);
}

template <typename F>
double median_ns(F &&run, size_t q) {
  std::vector<double> ns;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    const auto t1 = std::chrono::steady_clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(q));
  }
  std::sort(ns.begin(), ns.end());
  return ns[2];
}

bool under_valgrind() {
  const char *preload = std::getenv("LD_PRELOAD");
  return preload != nullptr && std::string(preload).find("valgrind") != std::string::npos;
}

}  // namespace

int main(int argc, char **argv) {
  const size_t keys = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  size_t queries = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 200000;
  const double p = argc > 3 ? std::strtod(argv[3], nullptr) : 1e-4;
  const int kind = argc > 4 ? bloom_kind_from_name(argv[4]) : BLOOM_KIND_BLOCKED;
  const bool concurrent = argc > 5 && std::string(argv[5]) == "concurrent";
  if (keys == 0 || p <= 0.0 || p >= 1.0 || kind <= 0 || (argc > 5 && !concurrent)) {
    std::fprintf(stderr, "usage: query_cost [KEYS [QUERIES [P [KIND [concurrent]]]]]\n");
    return 2;
  }
  queries = std::min(queries, keys);

  KeySet pos, neg;
  bloom_bench::make_distinct_keys(42, {&pos, &neg}, {keys, queries});

  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.capacity = keys;
  o.fp_rate = p;
  o.flags = concurrent ? BLOOM_FLAG_CONCURRENT : 0;
  bloom_filter *f = nullptr;
  if (bloom_create(&o, &f) != BLOOM_OK) {
    std::fprintf(stderr, "bloom_create: %s\n", bloom_last_error());
    return 1;
  }
  for (size_t start = 0; start < keys; start += kBatch) {
    const size_t count = std::min(kBatch, keys - start);
    if (bloom_add_batch(f, &pos.ptrs[start], &pos.lens[start], count) != BLOOM_OK) {
      std::fprintf(stderr, "bloom_add_batch: %s\n", bloom_last_error());
      return 1;
    }
  }

  std::vector<uint8_t> out(kBatch);
  const size_t sh = cost_single_hit(f, pos, queries);
  const size_t sm = cost_single_miss(f, neg, queries);
  const size_t bh = cost_batch_hit(f, pos, queries, out);
  const size_t bm = cost_batch_miss(f, neg, queries, out);
  std::printf("%s%s, %zu keys, p = %g, %zu queries per loop\n", bloom_kind_name(kind),
              concurrent ? " (concurrent)" : "", keys, p, queries);
  std::printf("hits: single %zu, batch %zu (must be %zu); false positives: single %zu, batch %zu\n", sh, bh,
              queries, sm, bm);
  if (sh != queries || bh != queries || sm != bm) {
    std::fprintf(stderr, "query_cost: wrong answers\n");
    return 1;
  }

  if (!under_valgrind()) {
    const double t_sh = median_ns([&] { (void)cost_single_hit(f, pos, queries); }, queries);
    const double t_sm = median_ns([&] { (void)cost_single_miss(f, neg, queries); }, queries);
    const double t_bh = median_ns([&] { (void)cost_batch_hit(f, pos, queries, out); }, queries);
    const double t_bm = median_ns([&] { (void)cost_batch_miss(f, neg, queries, out); }, queries);
    std::printf("wall ns/query (median of 5, noisy): single hit %.1f  miss %.1f  batch hit %.1f  miss %.1f\n",
                t_sh, t_sm, t_bh, t_bm);
  }
  bloom_destroy(f);
  return 0;
}
