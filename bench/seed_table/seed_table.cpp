// SPDX-License-Identifier: Apache-2.0
// seed_table.cpp -- the seed workload's table: every bloom kind, the floor and
// Debian's libbloom on the same keys, each configuration in its own process.
//
//   seed_table [--reps R] [--rounds N] [--config N:P]... [--only IMPL,...] [--tsv FILE] [--quick]
//   seed_table --fpr-sweep FILE        (measured FPR vs bits per key, per kind)
//
// Rows: the floor, each kind, "blocked-split" (the blocked kind with split
// blocks), "split-block-peer" (fastfilter_cpp's split-block filter when the
// bench was configured with its headers, else n/a) and libbloom.
// Default configurations: 1,000,000 keys at p = 0.0001 and 0.01, 10,000,000
// keys at p = 0.01; 3 rounds of 5 repetitions. Each (configuration,
// implementation) runs in a child process (this program with --child, or
// libbloom_runner beside it) so peak RSS is that row's alone, and so
// libbloom's bloom_add never meets ours in one link. A round runs every row
// of a configuration once; ratios are taken within a round (rounds.hpp).
#include <malloc.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "../common/proc_stats.hpp"
#include "bloom/bloom.h"
#include "fpr_sweep.hpp"
#include "measure.hpp"
#include "table.hpp"

namespace bb = bloom_bench;

namespace {

std::string self_dir() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  std::string path(buf, static_cast<size_t>(n));
  return path.substr(0, path.find_last_of('/'));
}

// Runs one child command and collects the rows it prints.
std::vector<bb::ResultRow> run_child(const std::string &cmd, const std::string &impl, const bb::Workload &w) {
  std::vector<bb::ResultRow> rows;
  FILE *p = popen(cmd.c_str(), "r");
  if (p != nullptr) {
    char line[4096];
    while (fgets(line, sizeof line, p)) {
      std::string s(line);
      while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
      bb::ResultRow row;
      if (s.rfind("ROW\t", 0) == 0 && bb::ResultRow::from_tsv(s.substr(4), row)) rows.push_back(row);
    }
    const int status = pclose(p);
    // A child that printed its row and then failed (or crashed) is an error,
    // not a measurement.
    if (status != 0)
      for (bb::ResultRow &row : rows)
        if (row.note == "ok") row.note = "error: the child process failed after reporting (" + cmd + ")";
  }
  if (rows.empty()) {
    bb::ResultRow row;
    row.impl = impl;
    row.keys = w.keys;
    row.p = w.p;
    row.note = "error: the child process reported nothing (" + cmd + ")";
    rows.push_back(row);
  }
  return rows;
}

int child_main(const std::string &impl, const bb::Workload &w) {
  // Large blocks straight from mmap and back to the kernel on free: without
  // this, glibc raises its mmap threshold after the first large free and keeps
  // freed filters resident, and VmHWM would count several filters at once.
  mallopt(M_MMAP_THRESHOLD, 64 * 1024);
  bb::KeySet pos, neg;
  bb::make_distinct_keys(w.seed, {&pos, &neg}, {w.keys, w.keys});
  // Where VmHWM cannot be reset the filter's growth is unknown (it would
  // include the key generator's table): n/a rather than a wrong figure.
  const bool rss_reset = bb::reset_peak_rss();
  const long base_kb = bb::current_rss_kb();
  bb::ResultRow row;
  if (impl == "floor") {
    row = bb::measure_floor(w, pos, neg);
  } else if (impl == "split-block-peer") {
    row = bb::measure_split_block_peer(w, pos, neg);
  } else {
    // "blocked-split": the blocked kind with BLOOM_FLAG_SPLIT_BLOCK.
    const bool split = impl == "blocked-split";
    const int kind = bloom_kind_from_name(split ? "blocked" : impl.c_str());
    if (kind == 0) {
      std::fprintf(stderr, "seed_table: unknown kind '%s'\n", impl.c_str());
      return 2;
    }
    row = bb::measure_bloom_kind(kind, split ? BLOOM_FLAG_SPLIT_BLOCK : 0u, w, pos, neg);
  }
  const long peak_kb = bb::peak_rss_kb();
  row.peak_rss_kb = static_cast<double>(peak_kb);
  row.filter_rss_kb = rss_reset ? static_cast<double>(peak_kb - base_kb) : bb::kNa;
  bb::emit_row(row);
  return 0;
}

void usage() {
  std::fprintf(stderr,
               "usage: seed_table [--reps R] [--rounds N] [--config N:P]... [--only IMPL,...] [--tsv FILE]\n"
               "                  [--quick]\n"
               "       seed_table --fpr-sweep FILE [--sweep-keys N]\n");
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 6 && args[0] == "--child") {
    bb::Workload w{std::stoull(args[2]), std::stod(args[3]), std::stoi(args[4]), std::stoull(args[5])};
    return child_main(args[1], w);
  }

  int reps = 5;
  int rounds = 3;
  std::vector<std::pair<uint64_t, double>> configs;
  std::string tsv_path, sweep_path, only;
  uint64_t sweep_keys = 100000;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    if (args[i] == "--reps" && has_value) {
      reps = std::max(1, std::stoi(args[++i]));
    } else if (args[i] == "--rounds" && has_value) {
      rounds = std::max(1, std::stoi(args[++i]));
    } else if (args[i] == "--config" && has_value) {
      const std::string v = args[++i];
      const size_t colon = v.find(':');
      if (colon == std::string::npos) return usage(), 2;
      configs.emplace_back(std::stoull(v.substr(0, colon)), std::stod(v.substr(colon + 1)));
    } else if (args[i] == "--tsv" && has_value) {
      tsv_path = args[++i];
    } else if (args[i] == "--fpr-sweep" && has_value) {
      sweep_path = args[++i];
    } else if (args[i] == "--sweep-keys" && has_value) {
      sweep_keys = std::stoull(args[++i]);
    } else if (args[i] == "--only" && has_value) {
      only = "," + args[++i] + ",";
    } else if (args[i] == "--quick") {
      reps = 1;
      rounds = 1;
      configs = {{20000, 0.01}};
    } else {
      return usage(), 2;
    }
  }
  if (!sweep_path.empty()) return bb::run_fpr_sweep(sweep_path, sweep_keys);
  if (configs.empty()) configs = {{1000000, 0.0001}, {1000000, 0.01}, {10000000, 0.01}};

  const std::string dir = self_dir();
  const std::string runner = dir + "/libbloom_runner";
  const bool have_libbloom = access(runner.c_str(), X_OK) == 0;
  bb::MachineInfo machine{bb::cpu_model(),
                          bb::cache_sizes(),
                          bb::online_cores(),
                          bb::utc_now(),
                          bb::git_commit(BLOOM_BENCH_SOURCE_DIR),
                          reps,
                          rounds};
  bb::print_header(std::cout, machine);

  std::vector<bb::ResultRow> all;
  const uint64_t seed = 42;
  for (const auto &[n, p] : configs) {
    bb::Workload w{n, p, reps, seed};
    const std::string tail = " " + std::to_string(n) + " " + bb::format_p(p) + " " + std::to_string(reps) +
                             " " + std::to_string(seed);
    auto wanted = [&](const std::string &impl) {
      return only.empty() || only.find("," + impl + ",") != std::string::npos;
    };
    std::vector<std::string> impls;
    for (const char *impl : {"floor", "classic", "partitioned", "blocked", "blocked-split",
                             "split-block-peer", "counting", "scalable", "libbloom"})
      if (wanted(impl)) impls.push_back(impl);
    bb::Rounds results;
    for (int round = 0; round < rounds; ++round) {
      std::vector<bb::ResultRow> rows(impls.size());
      // Alternate rounds run the rows in reverse, so no row always runs
      // right after the same neighbour; rows are stored in one order.
      for (size_t j = 0; j < impls.size(); ++j) {
        const size_t i = round % 2 == 0 ? j : impls.size() - 1 - j;
        const std::string &impl = impls[i];
        if (impl != "libbloom") {
          rows[i] = run_child("'" + dir + "/seed_table' --child " + impl + tail, impl, w).front();
        } else if (have_libbloom) {
          rows[i] = run_child("'" + runner + "'" + tail, "libbloom", w).front();
        } else {
          rows[i].impl = "libbloom";
          rows[i].keys = n;
          rows[i].p = p;
          rows[i].note = "n/a: libbloom-dev was not installed at build time";
        }
      }
      results.add_round(std::move(rows));
    }
    bb::print_config_table(std::cout, w, results);
    bb::print_targets(std::cout, w, results);
    const std::vector<bb::ResultRow> rows = results.combined();
    all.insert(all.end(), rows.begin(), rows.end());
  }
  if (!tsv_path.empty()) {
    std::ofstream out(tsv_path);
    bb::write_tsv(out, machine, all);
    if (!out) {
      std::fprintf(stderr, "seed_table: cannot write %s\n", tsv_path.c_str());
      return 1;
    }
  }
  for (const auto &r : all)
    if (r.note.rfind("error", 0) == 0) return 1;
  return 0;
}
