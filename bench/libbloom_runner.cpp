// SPDX-License-Identifier: Apache-2.0
// libbloom_runner.cpp -- Debian's libbloom (jvirkki/libbloom, -lbloom) on the
// seed workload, for comparison. A separate program because libbloom's
// bloom_add and ours share a name; seed_table runs it as a child with the
// same (n, p, repetitions, seed), so it sees the very same keys.
//
//   libbloom_runner N P REPS SEED      prints one "ROW\t..." line
//
// libbloom has no batch call and no serialized form: batch columns are n/a,
// and the memory figure is its bit array (struct bloom.bytes).
#include <bloom.h>
#include <malloc.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "common/keys.hpp"
#include "common/proc_stats.hpp"
#include "common/result_row.hpp"
#include "common/timing.hpp"

namespace bb = bloom_bench;

namespace {

size_t check_all(struct bloom *b, const bb::KeySet &ks) {
  size_t hits = 0;
  for (size_t i = 0; i < ks.size(); ++i)
    hits += bloom_check(b, ks.ptrs[i], static_cast<int>(ks.lens[i])) == 1;
  return hits;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: libbloom_runner N P REPS SEED\n");
    return 2;
  }
  const uint64_t n = std::stoull(argv[1]);
  const double p = std::stod(argv[2]);
  const int reps = std::max(1, std::stoi(argv[3]));
  const uint64_t seed = std::stoull(argv[4]);

  mallopt(M_MMAP_THRESHOLD, 64 * 1024);  // as seed_table's children: freed memory leaves RSS
  bb::KeySet pos, neg;
  bb::make_distinct_keys(seed, {&pos, &neg}, {n, n});
  const bool rss_reset = bb::reset_peak_rss();  // else the filter's growth is n/a
  const long base_kb = bb::current_rss_kb();

  bb::ResultRow row;
  row.impl = "libbloom";
  row.keys = n;
  row.p = p;
  struct bloom b {};
  bool ok = true;
  // As for bloom: the filter is made before the clock starts (its calloc'd
  // array touched, as bloom_create populates ours) and freed after it stops.
  struct bloom g {};
  row.insert_ns = bb::median_ns_per_item_between(
      reps, n,
      [&](int) {
        g = {};
        ok &= bloom_init(&g, static_cast<int>(n), p) == 0;
        if (ok) std::memset(g.bf, 0, static_cast<size_t>(g.bytes));
      },
      [&](int) {
        for (size_t i = 0; i < pos.size(); ++i)
          ok &= bloom_add(&g, pos.ptrs[i], static_cast<int>(pos.lens[i])) >= 0;
      },
      [&](int r) {
        if (r == reps - 1) {
          b = g;
        } else {
          bloom_free(&g);
        }
      });
  if (!ok) {
    row.note = "error: libbloom bloom_init/bloom_add failed";
    bb::emit_row(row);
    return 1;
  }
  row.bytes = static_cast<double>(b.bytes);
  row.bits_per_key = static_cast<double>(b.bytes) * 8 / static_cast<double>(n);
  size_t pos_hits = 0, neg_hits = 0;
  row.pos_ns = bb::median_ns_per_item(reps, n, [&](int) { pos_hits = check_all(&b, pos); });
  row.neg_ns = bb::median_ns_per_item(reps, n, [&](int) { neg_hits = check_all(&b, neg); });
  bloom_free(&b);
  row.fpr = static_cast<double>(neg_hits) / static_cast<double>(n);
  if (pos_hits != n) row.note = "error: libbloom reported false negatives";
  const long peak_kb = bb::peak_rss_kb();
  row.peak_rss_kb = static_cast<double>(peak_kb);
  row.filter_rss_kb = rss_reset ? static_cast<double>(peak_kb - base_kb) : bb::kNa;
  bb::emit_row(row);
  return 0;
}
