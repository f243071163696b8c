// concurrency_bench.cpp -- throughput of one filter shared by several threads.
//
//   concurrency_bench [--keys N] [--reps R] [--threads T]
//
// For each kind that supports BLOOM_FLAG_CONCURRENT: N keys (default 10^7, the
// seed's DRAM-sized case, p = 0.01) inserted into one fresh filter by 1 thread
// and by T threads (default: the online cores), each thread taking a
// contiguous 1/T of the keys; then batch queries of all N keys split the same
// way. Reports the median wall time of R repetitions (default 5) and the
// speed-up T threads give over one. Target (issue 4): >= 1.7x for 2 threads.
// The non-concurrent single-thread insert is shown too: the price of the flag.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bloom/bloom.h"
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

void run_part(bloom_filter *f, const bb::KeySet &ks, size_t begin, size_t end, Work work) {
  if (work == Work::kAdd) {
    for (size_t i = begin; i < end; ++i) bloom_add(f, ks.ptrs[i], ks.lens[i]);
    return;
  }
  std::vector<uint8_t> results(kChunk);
  for (size_t s = begin; s < end; s += kChunk) {
    const size_t count = std::min(kChunk, end - s);
    if (work == Work::kAddBatch)
      bloom_add_batch(f, &ks.ptrs[s], &ks.lens[s], count);
    else
      bloom_query_batch(f, &ks.ptrs[s], &ks.lens[s], count, results.data());
  }
}

struct Timing {
  double wall_ns = 0;
  double cpu_ns = 0;  // summed over the threads
};

// Wall time and total CPU time of `threads` threads doing `work` over all keys.
Timing timed_run(bloom_filter *f, const bb::KeySet &ks, unsigned threads, Work work) {
  std::atomic<uint64_t> cpu{0};
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  const size_t per = (ks.size() + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const size_t begin = std::min(ks.size(), t * per), end = std::min(ks.size(), begin + per);
    pool.emplace_back([&, begin, end] {
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      const uint64_t c0 = bb::thread_cpu_ns();
      run_part(f, ks, begin, end, work);
      cpu.fetch_add(bb::thread_cpu_ns() - c0);
    });
  }
  while (ready.load() != threads) std::this_thread::yield();
  const uint64_t t0 = bb::now_ns();
  go.store(true);
  for (auto &th : pool) th.join();
  return {static_cast<double>(bb::now_ns() - t0), static_cast<double>(cpu.load())};
}

// Median wall and CPU ns per key; adds get a fresh filter every repetition.
Timing measure(int kind, const bb::KeySet &ks, unsigned threads, Work work, int reps, bool concurrent) {
  std::vector<double> wall, cpu;
  bloom_filter *filled = nullptr;
  if (work == Work::kQueryBatch) {
    filled = make_filter(kind, ks.size(), concurrent);
    if (filled == nullptr) return {-1, -1};
    run_part(filled, ks, 0, ks.size(), Work::kAddBatch);
  }
  for (int r = 0; r < reps; ++r) {
    bloom_filter *f = filled ? filled : make_filter(kind, ks.size(), concurrent);
    if (f == nullptr) return {-1, -1};
    const Timing t = timed_run(f, ks, threads, work);
    wall.push_back(t.wall_ns / static_cast<double>(ks.size()));
    cpu.push_back(t.cpu_ns / static_cast<double>(ks.size()));
    if (!filled) bloom_destroy(f);
  }
  bloom_destroy(filled);
  return {bb::median(wall), bb::median(cpu)};
}

}  // namespace

int main(int argc, char **argv) {
  uint64_t n = 10000000;
  int reps = 5;
  unsigned threads = std::max(2u, static_cast<unsigned>(bb::online_cores()));
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--keys")
      n = std::stoull(argv[i + 1]);
    else if (a == "--reps")
      reps = std::max(1, std::stoi(argv[i + 1]));
    else if (a == "--threads")
      threads = std::max(1, std::stoi(argv[i + 1]));
    else {
      std::fprintf(stderr, "usage: concurrency_bench [--keys N] [--reps R] [--threads T]\n");
      return 2;
    }
  }
  bb::KeySet keys;
  bb::make_distinct_keys(42, {&keys}, {n});
  std::printf(
      "bloom concurrency benchmark\n  cpu:     %s (%ld cores online)\n  caches:  %s\n  date:    %s\n"
      "  commit:  %s\n  method:  %llu keys, p = 0.01, median of %d repetitions, ns per key of wall time\n\n",
      bb::cpu_model().c_str(), bb::online_cores(), bb::cache_sizes().c_str(), bb::utc_now().c_str(),
      bb::git_commit(BLOOM_BENCH_SOURCE_DIR).c_str(), static_cast<unsigned long long>(n), reps);
  std::printf(
      "wall = elapsed time per key; cpu = CPU time per key summed over the threads. On a machine whose\n"
      "cores are busy with other work, T threads may not get T cores, so the wall speed-up is capped by\n"
      "the load; 'cpu speed-up' = T x cpu(1) / cpu(T) is what T idle cores would give (1/T lost to\n"
      "contention shows as higher CPU time per key).\n\n");
  std::printf("%-12s %-12s %12s %12s %12s %12s %12s %10s %10s\n", "kind", "operation", "plain wall",
              "conc wall 1", ("conc wall " + std::to_string(threads)).c_str(), "conc cpu 1",
              ("conc cpu " + std::to_string(threads)).c_str(), "wall x", "cpu x");
  int status = 0;
  for (int kind : {BLOOM_KIND_CLASSIC, BLOOM_KIND_PARTITIONED, BLOOM_KIND_BLOCKED}) {
    bloom_filter *probe = make_filter(kind, 1000, true);
    if (probe == nullptr) {
      std::printf("%-12s n/a: %s\n", bloom_kind_name(kind), bloom_last_error());
      continue;
    }
    bloom_destroy(probe);
    const std::pair<Work, const char *> works[] = {
        {Work::kAdd, "add"}, {Work::kAddBatch, "add_batch"}, {Work::kQueryBatch, "query_batch"}};
    for (const auto &[work, name] : works) {
      const Timing plain = measure(kind, keys, 1, work, reps, false);
      const Timing one = measure(kind, keys, 1, work, reps, true);
      const Timing many = measure(kind, keys, threads, work, reps, true);
      if (plain.wall_ns < 0 || one.wall_ns < 0 || many.wall_ns < 0) status = 1;
      std::printf("%-12s %-12s %12.1f %12.1f %12.1f %12.1f %12.1f %9.2fx %9.2fx\n", bloom_kind_name(kind),
                  name, plain.wall_ns, one.wall_ns, many.wall_ns, one.cpu_ns, many.cpu_ns,
                  one.wall_ns / many.wall_ns, threads * one.cpu_ns / many.cpu_ns);
      std::fflush(stdout);
    }
  }
  return status;
}
