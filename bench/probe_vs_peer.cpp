// SPDX-License-Identifier: Apache-2.0
// probe_vs_peer.cpp -- the blocked kind's single-key add and query, through
// the C API and through the header-only probe (bloom_probe.h), beside
// fastfilter_cpp's split-block filter (SimdBlockFilterFixed: 32-byte blocks,
// k = 8, inlined into this program) at the same memory, in one process.
//
//   probe_vs_peer [--keys N] [--p P] [--rounds R]
//
// The peer is optional: configure with -DBLOOM_PEER_FASTFILTER_DIR=<dir
// holding simd-block-fixed-fpp.h and hashutil.h> (CMake finds a sibling
// shared/peers/fastfilter by itself); without it its rows say n/a. The
// peer takes 64-bit keys, so its string keys are hashed with XXH3-64 first,
// as a user of it would. Rows run interleaved, R rounds; each figure is the
// median over rounds of one pass's thread CPU time per key, and each ratio
// is taken inside a round before its median (the host is shared and its
// speed drifts).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bloom/bloom_probe.h"
#include "common/keys.hpp"
#include "common/proc_stats.hpp"
#include "common/timing.hpp"

#ifdef BLOOM_BENCH_FASTFILTER
#include <immintrin.h>

#include <new>
#include <stdexcept>
using std::vector;  // the peer's header names it unqualified
#include "simd-block-fixed-fpp.h"
#endif

namespace {

using bloom_bench::KeySet;

struct Config {
  size_t keys = 1000000;
  double p = 1e-4;
  int rounds = 7;
};

Config parse(int argc, char **argv) {
  Config c;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--keys")
      c.keys = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--p")
      c.p = std::strtod(argv[i + 1], nullptr);
    else if (a == "--rounds")
      c.rounds = std::atoi(argv[i + 1]);
  }
  return c;
}

bloom_filter *make_blocked(const Config &c, uint32_t flags) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_BLOCKED;
  o.capacity = c.keys;
  o.fp_rate = c.p;
  o.flags = flags;
  bloom_filter *f = nullptr;
  if (bloom_create(&o, &f) != BLOOM_OK) {
    std::fprintf(stderr, "bloom_create: %s\n", bloom_last_error());
    std::exit(1);
  }
  return f;
}

// Per-key CPU ns of body(i) for every i < n.
double per_key_ns(size_t n, const std::function<void(size_t)> &body) {
  const uint64_t t0 = bloom_bench::thread_cpu_ns();
  for (size_t i = 0; i < n; ++i) body(i);
  return static_cast<double>(bloom_bench::thread_cpu_ns() - t0) / static_cast<double>(n);
}

volatile int g_sink;  // keeps the queries' answers alive

struct Row {
  std::string name;
  double bits_per_key;
  std::vector<double> add, query;
};

// One of our layouts: single adds into a cleared filter, then single
// queries of absent keys through bloom_query and through bloom_probe.
void run_ours(bloom_filter *f, const KeySet &pos, const KeySet &neg, Row &api, Row &probe) {
  bloom_clear(f);
  api.add.push_back(per_key_ns(pos.size(), [&](size_t i) { bloom_add(f, pos.ptrs[i], pos.lens[i]); }));
  int hits = 0;
  api.query.push_back(
      per_key_ns(neg.size(), [&](size_t i) { hits += bloom_query(f, neg.ptrs[i], neg.lens[i]); }));
  bloom_blocked_view v{};
  v.struct_size = sizeof v;
  if (bloom_get_blocked_view(f, &v) != BLOOM_OK) std::exit(1);
  probe.query.push_back(
      per_key_ns(neg.size(), [&](size_t i) { hits += bloom_probe(&v, neg.ptrs[i], neg.lens[i]); }));
  g_sink = hits;
}

double median_ratio(const std::vector<double> &a, const std::vector<double> &b) {
  std::vector<double> r;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) r.push_back(a[i] / b[i]);
  return bloom_bench::median(r);
}

void print_row(const Row &r) {
  auto cell = [](const std::vector<double> &v) {
    char buf[32];
    if (v.empty()) return std::string("n/a");
    std::snprintf(buf, sizeof buf, "%.2f", bloom_bench::median(v));
    return std::string(buf);
  };
  std::printf("%-28s %9.2f %11s %13s\n", r.name.c_str(), r.bits_per_key, cell(r.add).c_str(),
              cell(r.query).c_str());
}

}  // namespace

int main(int argc, char **argv) {
  const Config c = parse(argc, argv);
  KeySet pos, neg;
  bloom_bench::make_distinct_keys(42, {&pos, &neg}, {c.keys, c.keys});

  bloom_filter *blocked = make_blocked(c, 0);
  bloom_filter *split = make_blocked(c, BLOOM_FLAG_SPLIT_BLOCK);
  bloom_blocked_view sv{};
  sv.struct_size = sizeof sv;
  bloom_get_blocked_view(split, &sv);
  bloom_blocked_view bv{};
  bv.struct_size = sizeof bv;
  bloom_get_blocked_view(blocked, &bv);
  const double n = static_cast<double>(c.keys);
  Row b_api{"blocked, bloom_add/query", bv.lines * 512 / n, {}, {}};
  Row b_probe{"blocked, bloom_probe", bv.lines * 512 / n, {}, {}};
  Row s_api{"split, bloom_add/query", sv.lines * 256 / n, {}, {}};
  Row s_probe{"split, bloom_probe", sv.lines * 256 / n, {}, {}};
  Row peer{"split-block peer (inlined)", sv.lines * 256 / n, {}, {}};

#ifdef BLOOM_BENCH_FASTFILTER
  const bool have_peer = true;
#else
  const bool have_peer = false;
#endif
  for (int r = 0; r < c.rounds; ++r) {
    run_ours(blocked, pos, neg, b_api, b_probe);
    run_ours(split, pos, neg, s_api, s_probe);
#ifdef BLOOM_BENCH_FASTFILTER
    {
      // The peer makes bits / 24 blocks: as many as our split filter has.
      SimdBlockFilterFixed<> fresh(static_cast<int>(sv.lines * 24));
      peer.add.push_back(
          per_key_ns(pos.size(), [&](size_t i) { fresh.Add(XXH3_64bits(pos.ptrs[i], pos.lens[i])); }));
      int hits = 0;
      peer.query.push_back(per_key_ns(
          neg.size(), [&](size_t i) { hits += fresh.Find(XXH3_64bits(neg.ptrs[i], neg.lens[i])) ? 1 : 0; }));
      g_sink = hits;
    }
#endif
  }
  std::printf("# %s; load %s; %zu keys, p = %g, %d rounds; ns per key (thread CPU), medians\n",
              bloom_bench::cpu_model().c_str(), bloom_bench::read_first_line("/proc/loadavg").c_str(), c.keys,
              c.p, c.rounds);
  std::printf("%-28s %9s %11s %13s\n", "row", "bits/key", "single add", "query absent");
  for (const Row *row : {&b_api, &b_probe, &s_api, &s_probe}) print_row(*row);
  if (have_peer) {
    print_row(peer);
    std::printf(
        "ratios to the peer (median of per-round ratios): split add %.3f, split query %.3f, "
        "split probe %.3f; blocked add %.3f, blocked query %.3f, blocked probe %.3f\n",
        median_ratio(s_api.add, peer.add), median_ratio(s_api.query, peer.query),
        median_ratio(s_probe.query, peer.query), median_ratio(b_api.add, peer.add),
        median_ratio(b_api.query, peer.query), median_ratio(b_probe.query, peer.query));
  } else {
    std::printf("%-28s n/a (configure with -DBLOOM_PEER_FASTFILTER_DIR=...)\n", peer.name.c_str());
  }
  std::printf("blocked: add / query %.3f; split: add / query %.3f\n", median_ratio(b_api.add, b_api.query),
              median_ratio(s_api.add, s_api.query));
  bloom_destroy(blocked);
  bloom_destroy(split);
  return 0;
}
