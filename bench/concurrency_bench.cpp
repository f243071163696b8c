// SPDX-License-Identifier: Apache-2.0
// concurrency_bench.cpp -- throughput of one filter shared by several threads.
//
//   concurrency_bench [--keys N] [--reps R] [--threads T] [--kinds a,b,...]
//
// For each kind that supports BLOOM_FLAG_CONCURRENT (or those --kinds names):
// N keys (default 10^7, the seed's DRAM-sized case, p = 0.01) inserted into
// one fresh filter by 1 thread and by T threads (default: the online cores),
// each thread taking a contiguous 1/T of the keys; then batch queries of all
// N keys split the same way. Reports the median wall time of R repetitions
// (default 5) and the speed-up T threads give over one. The 1-thread and
// T-thread runs alternate, repetition by repetition, and the speed-up is the
// median of the per-repetition ratios, so a host that drifts over minutes
// moves both sides of a ratio together (as the seed table's rounds do).
// Target (issue 4): >= 1.7x for 2 threads. The non-concurrent single-thread
// time is shown too: the price of the flag.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bloom/bloom.h"
#include "common/floor.hpp"
#include "common/keys.hpp"
#include "common/proc_stats.hpp"
#include "common/timing.hpp"

namespace bb = bloom_bench;

namespace {

constexpr size_t kChunk = 4096;

enum class Work { kAdd, kAddBatch, kQueryBatch };

bloom_filter *make_filter(int kind, uint64_t n, bool concurrent) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.capacity = n;
  o.fp_rate = 0.01;
  o.flags = concurrent ? BLOOM_FLAG_CONCURRENT : 0;
  bloom_filter *f = nullptr;
  return bloom_create(&o, &f) == BLOOM_OK ? f : nullptr;
}

// Returns false when a call failed: its time would be no measurement.
bool run_part(bloom_filter *f, const bb::KeySet &ks, size_t begin, size_t end, Work work) {
  bool ok = true;
  if (work == Work::kAdd) {
    for (size_t i = begin; i < end; ++i) ok &= bloom_add(f, ks.ptrs[i], ks.lens[i]) == BLOOM_OK;
    return ok;
  }
  std::vector<uint8_t> results(kChunk);
  for (size_t s = begin; s < end; s += kChunk) {
    const size_t count = std::min(kChunk, end - s);
    if (work == Work::kAddBatch)
      ok &= bloom_add_batch(f, &ks.ptrs[s], &ks.lens[s], count) == BLOOM_OK;
    else
      ok &= bloom_query_batch(f, &ks.ptrs[s], &ks.lens[s], count, results.data()) == BLOOM_OK;
  }
  return ok;
}

struct Timing {
  double wall_ns = 0;
  double cpu_ns = 0;  // summed over the threads
};

// Wall time and total CPU time of `threads` threads, thread t calling
// part(begin, end) on its contiguous share of [0, n).
template <typename Part>
Timing timed_run(size_t n, unsigned threads, Part &&part) {
  std::atomic<uint64_t> cpu{0};
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  const size_t per = (n + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const size_t begin = std::min(n, t * per), end = std::min(n, begin + per);
    pool.emplace_back([&, begin, end] {
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      const uint64_t c0 = bb::thread_cpu_ns();
      part(begin, end);
      cpu.fetch_add(bb::thread_cpu_ns() - c0);
    });
  }
  while (ready.load() != threads) std::this_thread::yield();
  const uint64_t t0 = bb::now_ns();
  go.store(true);
  for (auto &th : pool) th.join();
  return {static_cast<double>(bb::now_ns() - t0), static_cast<double>(cpu.load())};
}

// Medians over reps of the runs of each entry of `threads` (ns per key), and
// of the per-repetition ratios of the first entry's time to each other's
// (wall: t1 / tT; cpu: T * t1 / tT). Within a repetition every entry runs
// once (run_once(j) times threads[j] threads over all keys, or returns a
// negative time on failure), in alternating order from one repetition to
// the next.
struct Measured {
  std::vector<Timing> medians;
  std::vector<Timing> speedups;  // speedups[0] is 1x
};

template <typename RunOnce>
Measured measure_runs(const std::vector<unsigned> &threads, int reps, size_t keys, RunOnce &&run_once) {
  const size_t m = threads.size();
  std::vector<std::vector<double>> wall(m), cpu(m), wall_x(m), cpu_x(m);
  const double n = static_cast<double>(keys);
  for (int r = 0; r < reps; ++r) {
    std::vector<Timing> run(m);
    for (size_t step = 0; step < m; ++step) {
      const size_t j = r % 2 == 0 ? step : m - 1 - step;
      run[j] = run_once(j);
      if (run[j].wall_ns < 0) return {};
    }
    for (size_t j = 0; j < m; ++j) {
      wall[j].push_back(run[j].wall_ns / n);
      cpu[j].push_back(run[j].cpu_ns / n);
      wall_x[j].push_back(run[0].wall_ns / run[j].wall_ns);
      cpu_x[j].push_back(threads[j] * run[0].cpu_ns / run[j].cpu_ns);
    }
  }
  Measured out;
  for (size_t j = 0; j < m; ++j) {
    out.medians.push_back({bb::median(wall[j]), bb::median(cpu[j])});
    out.speedups.push_back({bb::median(wall_x[j]), bb::median(cpu_x[j])});
  }
  return out;
}

// A kind doing `work`: adds get a fresh filter every run, queries share one
// filled filter.
Measured measure(int kind, const bb::KeySet &ks, const std::vector<unsigned> &threads, Work work, int reps,
                 bool concurrent) {
  bloom_filter *filled = nullptr;
  if (work == Work::kQueryBatch) {
    filled = make_filter(kind, ks.size(), concurrent);
    if (filled == nullptr) return {};
    if (!run_part(filled, ks, 0, ks.size(), Work::kAddBatch)) {
      bloom_destroy(filled);
      return {};
    }
  }
  const Measured out = measure_runs(threads, reps, ks.size(), [&](size_t j) {
    bloom_filter *f = filled ? filled : make_filter(kind, ks.size(), concurrent);
    if (f == nullptr) return Timing{-1, -1};
    std::atomic<bool> ok{true};
    const Timing t = timed_run(ks.size(), threads[j], [&](size_t begin, size_t end) {
      if (!run_part(f, ks, begin, end, work)) ok.store(false);
    });
    if (!filled) bloom_destroy(f);
    return ok.load() ? t : Timing{-1, -1};
  });
  bloom_destroy(filled);
  return out;
}

// The prefetched floor (common/floor.hpp) over an array of the classic
// formula's size at p = 0.01: how far this machine scales a hash and a
// random line read per key, measured in the same run as the filters.
Measured measure_floor(const bb::KeySet &ks, const std::vector<unsigned> &threads, int reps) {
  const uint64_t bytes = bb::formula_bytes(ks.size(), 0.01);
  const uint64_t lines = bytes / 64;
  const std::vector<uint64_t> words = bb::floor_words(bytes);
  std::atomic<uint64_t> sink{0};
  return measure_runs(threads, reps, ks.size(), [&](size_t j) {
    return timed_run(ks.size(), threads[j], [&](size_t begin, size_t end) {
      sink.fetch_add(bb::floor_read_prefetched(ks, begin, end, words.data(), lines),
                     std::memory_order_relaxed);
    });
  });
}

// "classic,blocked" -> the kinds' numbers; an unknown name is an error (-1).
std::vector<int> parse_kinds(const std::string &list) {
  std::vector<int> kinds;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    kinds.push_back(bloom_kind_from_name(list.substr(start, comma - start).c_str()));
    start = comma + 1;
  }
  return kinds;
}

}  // namespace

int main(int argc, char **argv) {
  uint64_t n = 10000000;
  int reps = 5;
  unsigned threads = std::max(2u, static_cast<unsigned>(bb::online_cores()));
  std::vector<int> kinds = {BLOOM_KIND_CLASSIC, BLOOM_KIND_PARTITIONED, BLOOM_KIND_BLOCKED};
  bool usage = argc % 2 == 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--keys")
      n = std::stoull(argv[i + 1]);
    else if (a == "--reps")
      reps = std::max(1, std::stoi(argv[i + 1]));
    else if (a == "--threads")
      threads = std::max(1, std::stoi(argv[i + 1]));
    else if (a == "--kinds")
      kinds = parse_kinds(argv[i + 1]);
    else
      usage = true;
  }
  if (usage || std::find(kinds.begin(), kinds.end(), -1) != kinds.end() ||
      std::find(kinds.begin(), kinds.end(), 0) != kinds.end()) {
    std::fprintf(stderr, "usage: concurrency_bench [--keys N] [--reps R] [--threads T] [--kinds a,b,...]\n");
    return 2;
  }
  bb::KeySet keys;
  bb::make_distinct_keys(42, {&keys}, {n});
  std::printf(
      "bloom concurrency benchmark\n  cpu:     %s (%ld cores online)\n  caches:  %s\n  date:    %s\n"
      "  commit:  %s\n  method:  %llu keys, p = 0.01, median of %d repetitions, ns per key of wall time;\n"
      "           1 and T threads alternate, speed-ups are medians of per-repetition ratios\n\n",
      bb::cpu_model().c_str(), bb::online_cores(), bb::cache_sizes().c_str(), bb::utc_now().c_str(),
      bb::git_commit(BLOOM_BENCH_SOURCE_DIR).c_str(), static_cast<unsigned long long>(n), reps);
  std::printf(
      "wall = elapsed time per key; cpu = CPU time per key summed over the threads. On a machine whose\n"
      "cores are busy with other work, T threads may not get T cores, so the wall speed-up is capped by\n"
      "the load; 'cpu speed-up' = T x cpu(1) / cpu(T) is what T idle cores would give (1/T lost to\n"
      "contention shows as higher CPU time per key). The floor row is no filter: one XXH3 and one\n"
      "prefetched random line read per key over an array of the classic formula's size\n"
      "(common/floor.hpp), on 1 and T threads: how far this machine scales that, in the same run.\n\n");
  std::printf("%-12s %-12s %12s %12s %12s %12s %12s %10s %10s\n", "kind", "operation", "plain wall",
              "conc wall 1", ("conc wall " + std::to_string(threads)).c_str(), "conc cpu 1",
              ("conc cpu " + std::to_string(threads)).c_str(), "wall x", "cpu x");
  int status = 0;
  {
    const Measured floor = measure_floor(keys, {1, threads}, reps);
    const Timing &one = floor.medians[0], &many = floor.medians[1], &x = floor.speedups[1];
    std::printf("%-12s %-12s %12s %12.1f %12.1f %12.1f %12.1f %9.2fx %9.2fx\n", "floor", "read (pf)", "-",
                one.wall_ns, many.wall_ns, one.cpu_ns, many.cpu_ns, x.wall_ns, x.cpu_ns);
    std::fflush(stdout);
  }
  for (int kind : kinds) {
    bloom_filter *probe = make_filter(kind, 1000, true);
    if (probe == nullptr) {
      std::printf("%-12s n/a: %s\n", bloom_kind_name(kind), bloom_last_error());
      continue;
    }
    bloom_destroy(probe);
    const std::pair<Work, const char *> works[] = {
        {Work::kAdd, "add"}, {Work::kAddBatch, "add_batch"}, {Work::kQueryBatch, "query_batch"}};
    for (const auto &[work, name] : works) {
      const Measured plain = measure(kind, keys, {1}, work, reps, false);
      const Measured conc = measure(kind, keys, {1, threads}, work, reps, true);
      if (plain.medians.empty() || conc.medians.empty()) {
        std::printf("%-12s %-12s failed: %s\n", bloom_kind_name(kind), name, bloom_last_error());
        status = 1;
        continue;
      }
      const Timing &one = conc.medians[0], &many = conc.medians[1], &x = conc.speedups[1];
      std::printf("%-12s %-12s %12.1f %12.1f %12.1f %12.1f %12.1f %9.2fx %9.2fx\n", bloom_kind_name(kind),
                  name, plain.medians[0].wall_ns, one.wall_ns, many.wall_ns, one.cpu_ns, many.cpu_ns,
                  x.wall_ns, x.cpu_ns);
      std::fflush(stdout);
    }
  }
  return status;
}
