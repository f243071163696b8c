// SPDX-License-Identifier: Apache-2.0
// single_key_ab.cpp -- single-key add and query of one or two library builds
// beside the machine's floor, in one process, alternating.
//
// Each build is dlopen'ed with RTLD_LOCAL | RTLD_DEEPBIND (two copies of the
// library side by side, each calling its own symbols), so "before" and
// "after" run in the same minutes on the same keys: the host's drift, which
// moved one binary's single query from 13.5 to 54 ns within half an hour
// (docs/PERFORMANCE.md), falls on both alike. A round times every row once,
// in alternating order; each figure is the median over rounds of CPU ns per
// key, and each ratio the median of the rounds' own ratios.
//
//   single_key_ab [--keys N] [--p P] [--rounds R] [--kind K] [--flags F]
//                 LIB[@FLAGS] [LIB2[@FLAGS] [LIB3[@FLAGS]]]
//
// LIB@0x4 gives that library's filters BLOOM_FLAG_SPLIT_BLOCK (0x4) on top
// of --flags, so one library's split-block filter runs beside another's
// default one.
//
// Rows per library: single add into a fresh filter (bloom_add), single
// query of inserted and of absent keys (bloom_query), batch add
// (bloom_add_batch, calls of 4,096). Floor rows (common/floor.hpp): one
// XXH3-64 plus one 8-byte read of a random line (read1), plus one
// read-modify-write of that word (rmw1), and both in prefetched blocks of 32.
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bloom/bloom.h"
#include "common/floor.hpp"
#include "common/keys.hpp"
#include "common/timing.hpp"

namespace {

using namespace bloom_bench;

struct Api {
  std::string path;
  uint32_t flags = 0;  // LIB@FLAGS on the command line: this library's filters' flags
  void *handle = nullptr;
  void (*options_init_sized)(bloom_options *, size_t) = nullptr;
  bloom_status (*create)(const bloom_options *, bloom_filter **) = nullptr;
  void (*destroy)(bloom_filter *) = nullptr;
  bloom_status (*add)(bloom_filter *, const void *, size_t) = nullptr;
  int (*query)(const bloom_filter *, const void *, size_t) = nullptr;
  bloom_status (*add_batch)(bloom_filter *, const void *const *, const size_t *, size_t) = nullptr;
  const char *(*last_error)(void) = nullptr;
};

template <typename T>
void bind(Api &a, T &fn, const char *name) {
  fn = reinterpret_cast<T>(dlsym(a.handle, name));
  if (fn == nullptr) {
    std::fprintf(stderr, "%s: no symbol %s\n", a.path.c_str(), name);
    std::exit(2);
  }
}

Api open_api(const std::string &arg) {
  Api a;
  const size_t at = arg.find('@');
  const std::string path = arg.substr(0, at);
  if (at != std::string::npos) a.flags = static_cast<uint32_t>(std::stoul(arg.substr(at + 1), nullptr, 0));
  a.path = arg;
  a.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (a.handle == nullptr) {
    std::fprintf(stderr, "dlopen %s: %s\n", path.c_str(), dlerror());
    std::exit(2);
  }
  bind(a, a.options_init_sized, "bloom_options_init_sized");
  bind(a, a.create, "bloom_create");
  bind(a, a.destroy, "bloom_destroy");
  bind(a, a.add, "bloom_add");
  bind(a, a.query, "bloom_query");
  bind(a, a.add_batch, "bloom_add_batch");
  bind(a, a.last_error, "bloom_last_error");
  return a;
}

struct Config {
  uint64_t keys = 1000000;
  double p = 1e-4;
  int rounds = 7;
  int kind = BLOOM_KIND_BLOCKED;
  uint32_t flags = 0;
};

bloom_filter *create(const Api &a, const Config &c) {
  bloom_options o;
  a.options_init_sized(&o, offsetof(bloom_options, window_ms));
  o.kind = c.kind;
  o.capacity = c.keys;
  o.fp_rate = c.p;
  o.flags = c.flags | a.flags;
  bloom_filter *f = nullptr;
  if (a.create(&o, &f) != BLOOM_OK) {
    std::fprintf(stderr, "%s: create: %s\n", a.path.c_str(), a.last_error());
    std::exit(2);
  }
  return f;
}

// CPU ns per key of body().
template <typename Body>
double time_per_key(size_t n, Body &&body) {
  const uint64_t t0 = thread_cpu_ns();
  body();
  return static_cast<double>(thread_cpu_ns() - t0) / static_cast<double>(n);
}

// One round of one library: add, add (batch), query+, query-.
std::vector<double> round_of(const Api &a, const Config &c, const KeySet &pos, const KeySet &neg) {
  std::vector<double> r;
  bloom_filter *f = create(a, c);
  r.push_back(time_per_key(pos.size(), [&] {
    for (size_t i = 0; i < pos.size(); ++i) a.add(f, pos.ptrs[i], pos.lens[i]);
  }));
  a.destroy(f);
  f = create(a, c);
  r.push_back(time_per_key(pos.size(), [&] {
    for (size_t s = 0; s < pos.size(); s += 4096)
      a.add_batch(f, &pos.ptrs[s], &pos.lens[s], std::min<size_t>(4096, pos.size() - s));
  }));
  size_t hits = 0;
  r.push_back(time_per_key(pos.size(), [&] {
    for (size_t i = 0; i < pos.size(); ++i) hits += a.query(f, pos.ptrs[i], pos.lens[i]) == 1;
  }));
  if (hits != pos.size()) {
    std::fprintf(stderr, "%s: false negatives\n", a.path.c_str());
    std::exit(1);
  }
  size_t fp = 0;
  r.push_back(time_per_key(neg.size(), [&] {
    for (size_t i = 0; i < neg.size(); ++i) fp += a.query(f, neg.ptrs[i], neg.lens[i]) == 1;
  }));
  r.push_back(static_cast<double>(fp) / static_cast<double>(neg.size()));
  // Single adds again into the filled filter (its lines as warm as the
  // queries found them): what an add costs apart from first-touching memory.
  r.push_back(time_per_key(neg.size(), [&] {
    for (size_t i = 0; i < neg.size(); ++i) a.add(f, neg.ptrs[i], neg.lens[i]);
  }));
  a.destroy(f);
  return r;
}

// read1, rmw1, read1 (prefetched), rmw1 (prefetched).
std::vector<double> floor_round(const Config &c, const KeySet &pos, std::vector<uint64_t> &words) {
  const uint64_t lines = words.size() / 8;
  std::vector<double> r;
  r.push_back(
      time_per_key(pos.size(), [&] { keep(floor_read_single(pos, 0, pos.size(), words.data(), lines)); }));
  r.push_back(
      time_per_key(pos.size(), [&] { keep(floor_rmw_single(pos, 0, pos.size(), words.data(), lines)); }));
  r.push_back(time_per_key(pos.size(),
                           [&] { keep(floor_read_prefetched(pos, 0, pos.size(), words.data(), lines)); }));
  r.push_back(
      time_per_key(pos.size(), [&] { keep(floor_rmw_prefetched(pos, 0, pos.size(), words.data(), lines)); }));
  (void)c;
  return r;
}

// --loop add|addb|query|miss PASSES: fills a filter by batch, then runs
// only PASSES passes of single adds (of the inserted keys again), batch adds
// of them (addb, calls of 4,096), single queries of inserted keys, or single
// queries of absent keys (miss), for callgrind or `perf stat` (PASSES = 0
// measures the setup alone).
int loop_only(const Api &a, const Config &c, const std::string &op, int passes) {
  KeySet pos, neg;
  make_distinct_keys(42, {&pos, &neg}, {c.keys, op == "miss" ? c.keys : 0});
  const KeySet &probe_keys = op == "miss" ? neg : pos;
  bloom_filter *f = create(a, c);
  for (size_t s = 0; s < pos.size(); s += 4096)
    a.add_batch(f, &pos.ptrs[s], &pos.lens[s], std::min<size_t>(4096, pos.size() - s));
  size_t hits = 0;
  const double ns = time_per_key(pos.size() * static_cast<size_t>(passes > 0 ? passes : 1), [&] {
    for (int r = 0; r < passes; ++r)
      for (size_t i = 0; i < probe_keys.size(); ++i) {
        if (op == "addb") {
          if (i % 4096 == 0)
            a.add_batch(f, &probe_keys.ptrs[i], &probe_keys.lens[i],
                        std::min<size_t>(4096, probe_keys.size() - i));
        } else if (op == "add")
          a.add(f, probe_keys.ptrs[i], probe_keys.lens[i]);
        else
          hits += a.query(f, probe_keys.ptrs[i], probe_keys.lens[i]) == 1;
      }
  });
  std::printf("%s x %d: %.2f ns per key (hits %zu)\n", op.c_str(), passes, ns, hits);
  a.destroy(f);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  Config c;
  std::vector<std::string> libs;
  std::string loop_op;
  int loop_passes = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--keys")
      c.keys = static_cast<uint64_t>(std::stod(next()));
    else if (a == "--p")
      c.p = std::stod(next());
    else if (a == "--rounds")
      c.rounds = std::stoi(next());
    else if (a == "--kind")
      c.kind = std::stoi(next());
    else if (a == "--loop") {
      loop_op = next();
      loop_passes = std::stoi(next());
    } else if (a == "--flags")
      c.flags = static_cast<uint32_t>(std::stoul(next(), nullptr, 0));
    else
      libs.push_back(a);
  }
  if (libs.empty() || libs.size() > 3) {
    std::fprintf(stderr,
                 "usage: single_key_ab [--keys N] [--p P] [--rounds R] [--kind K] [--flags F] LIB[@FLAGS] "
                 "[LIB2[@FLAGS] [LIB3[@FLAGS]]]\n");
    return 2;
  }
  std::vector<Api> apis;
  for (const std::string &l : libs) apis.push_back(open_api(l));
  if (!loop_op.empty()) return loop_only(apis[0], c, loop_op, loop_passes);

  KeySet pos, neg;
  make_distinct_keys(42, {&pos, &neg}, {c.keys, c.keys});
  std::vector<uint64_t> words = floor_words(formula_bytes(c.keys, c.p));

  // [lib][row][round]; rows: add, add(b), query+, query-, fpr, add(warm).
  std::vector<std::vector<std::vector<double>>> t(apis.size(), std::vector<std::vector<double>>(6));
  std::vector<std::vector<double>> fl(4);
  for (int r = 0; r < c.rounds; ++r) {
    auto run_floor = [&] {
      const std::vector<double> v = floor_round(c, pos, words);
      for (size_t j = 0; j < v.size(); ++j) fl[j].push_back(v[j]);
    };
    auto run_lib = [&](size_t l) {
      const std::vector<double> v = round_of(apis[l], c, pos, neg);
      for (size_t j = 0; j < v.size(); ++j) t[l][j].push_back(v[j]);
    };
    if (r % 2 == 0) {
      run_floor();
      for (size_t l = 0; l < apis.size(); ++l) run_lib(l);
    } else {
      for (size_t l = apis.size(); l-- > 0;) run_lib(l);
      run_floor();
    }
  }
  std::printf("n = %llu, p = %g, kind %d, flags 0x%x, %d rounds; CPU ns per key, median over rounds\n",
              static_cast<unsigned long long>(c.keys), c.p, c.kind, c.flags, c.rounds);
  std::printf("floor: read1 %.2f  rmw1 %.2f  read1(prefetched) %.2f  rmw1(prefetched) %.2f\n", median(fl[0]),
              median(fl[1]), median(fl[2]), median(fl[3]));
  for (size_t l = 0; l < apis.size(); ++l) {
    std::vector<double> add_q, q_read, addb_rmw;
    for (int r = 0; r < c.rounds; ++r) {
      add_q.push_back(t[l][0][r] / t[l][2][r]);
      q_read.push_back(t[l][2][r] / fl[0][r]);
      addb_rmw.push_back(t[l][1][r] / fl[3][r]);
    }
    std::printf(
        "%s\n  add %.2f  add(b) %.2f  query+ %.2f  query- %.2f  fpr %.3g  add(warm) %.2f\n"
        "  add/query+ %.2fx  query+/read1 %.2fx  add(b)/rmw1(prefetched) %.2fx (round medians)\n",
        apis[l].path.c_str(), median(t[l][0]), median(t[l][1]), median(t[l][2]), median(t[l][3]),
        median(t[l][4]), median(t[l][5]), median(add_q), median(q_read), median(addb_rmw));
  }
  for (size_t l = 1; l < apis.size(); ++l) {
    std::vector<double> a, q, qn;
    for (int r = 0; r < c.rounds; ++r) {
      a.push_back(t[l][0][r] / t[0][0][r]);
      q.push_back(t[l][2][r] / t[0][2][r]);
      qn.push_back(t[l][3][r] / t[0][3][r]);
    }
    std::printf("%s / %s: add %.2fx  query+ %.2fx  query- %.2fx (round medians)\n", apis[l].path.c_str(),
                apis[0].path.c_str(), median(a), median(q), median(qn));
  }
  return 0;
}
