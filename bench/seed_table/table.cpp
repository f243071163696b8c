// SPDX-License-Identifier: Apache-2.0
#include "table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bloom_bench {

namespace {

std::string fmt(const char *f, double v) {
  if (std::isnan(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// "12.3 (1.4x)": a time and its ratio to the floor's matching figure (the
// median of the per-round ratios, so not always time / floor time).
std::string with_ratio(double ns, double ratio) {
  if (std::isnan(ns)) return "n/a";
  std::string s = fmt("%.1f", ns);
  if (!std::isnan(ratio)) s += " (" + fmt("%.1fx", ratio) + ")";
  return s;
}

// "4.35x (rounds 4.10-4.52x)": a median ratio and its spread over rounds.
std::string ratio_with_spread(double ratio, const std::vector<double> &all) {
  std::string s = fmt("%.2fx", ratio);
  if (all.size() > 1) {
    const auto [lo, hi] = std::minmax_element(all.begin(), all.end());
    s += " (rounds " + fmt("%.2f", *lo) + "-" + fmt("%.2fx", *hi) + ")";
  }
  return s;
}

std::string pad(const std::string &s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

}  // namespace

std::string format_p(double p) { return fmt("%g", p); }

void print_header(std::ostream &out, const MachineInfo &m) {
  out << "bloom seed table\n"
      << "  cpu:     " << m.cpu << " (" << m.cores << " cores online)\n"
      << "  caches:  " << m.caches << "\n"
      << "  date:    " << m.date << "\n"
      << "  commit:  " << m.commit << "\n"
      << "  method:  " << m.rounds << " rounds x median of " << m.reps
      << " repetitions; CPU ns per key (thread CPU time: the machine is shared);\n"
      << "           one thread; each row in its own process; a round runs every row once,\n"
      << "           seconds apart (alternate rounds in reverse order); times are medians over rounds.\n"
      << "           (x) = median over rounds of the ratio to the same round's floor: single-key\n"
      << "           figures against the floor without prefetch, batch figures against the floor\n"
      << "           with prefetch; inserts against the floor's read-modify-write.\n"
      << "           The floor is one XXH3-64 of the key + one random 64-byte line read from an\n"
      << "           array of the classic formula's size; its insert columns OR into that word\n"
      << "           instead (rmw1). (b) = batch calls of " << kBatchChunk << " keys.\n\n";
}

void print_config_table(std::ostream &out, const Workload &w, const Rounds &rounds) {
  const std::vector<ResultRow> rows = rounds.combined();
  const double formula = static_cast<double>(formula_bytes(w.keys, w.p));
  out << "n = " << w.keys << " keys, p = " << format_p(w.p)
      << "  (classic formula: " << fmt("%.2f", formula * 8 / static_cast<double>(w.keys)) << " bits/key, "
      << fmt("%.2f", formula / 1e6) << " MB)\n";
  // Single-key figures against the floor without prefetch, batch figures
  // against the floor with prefetch, positive against positive keys.
  auto x = [&](const ResultRow &r, Rounds::Field field, Rounds::Field floor_field) {
    return with_ratio(r.*field, rounds.ratio(r.impl, field, "floor", floor_field));
  };
  const std::vector<std::pair<std::string, size_t>> cols = {
      {"impl", 17},      {"bits/key", 9},   {"mem/formula", 12}, {"FPR", 10},
      {"insert", 13},    {"insert(b)", 13}, {"query+", 13},      {"query-", 13},
      {"query+(b)", 13}, {"query-(b)", 13}, {"peak RSS MB", 12}, {"filter RSS MB", 14}};
  for (const auto &[name, width] : cols) out << pad(name, width);
  out << "\n";
  for (const auto &r : rows) {
    if (r.note != "ok") {
      out << pad(r.impl, 17) << r.note << "\n";
      continue;
    }
    const bool is_floor = r.impl == "floor";
    std::vector<std::string> cells = {
        r.impl,
        fmt("%.2f", r.bits_per_key),
        fmt("%.3f", r.bytes / formula),
        fmt("%.2e", r.fpr),
        is_floor ? fmt("%.1f", r.insert_ns) : x(r, &ResultRow::insert_ns, &ResultRow::insert_ns),
        is_floor ? fmt("%.1f", r.insert_batch_ns)
                 : x(r, &ResultRow::insert_batch_ns, &ResultRow::insert_batch_ns),
        is_floor ? fmt("%.1f", r.pos_ns) : x(r, &ResultRow::pos_ns, &ResultRow::pos_ns),
        is_floor ? fmt("%.1f", r.neg_ns) : x(r, &ResultRow::neg_ns, &ResultRow::neg_ns),
        is_floor ? fmt("%.1f", r.pos_batch_ns) : x(r, &ResultRow::pos_batch_ns, &ResultRow::pos_batch_ns),
        is_floor ? fmt("%.1f", r.neg_batch_ns) : x(r, &ResultRow::neg_batch_ns, &ResultRow::neg_batch_ns),
        fmt("%.1f", r.peak_rss_kb * 1024 / 1e6),  // MB (10^6 bytes), as the formula line
        fmt("%.1f", r.filter_rss_kb * 1024 / 1e6)};
    for (size_t i = 0; i < cells.size(); ++i) out << pad(cells[i], cols[i].second);
    out << "\n";
  }
}

void print_targets(std::ostream &out, const Workload &w, const Rounds &rounds) {
  const std::vector<ResultRow> rows = rounds.combined();
  const ResultRow *blocked = Rounds::find(rows, "blocked");
  const ResultRow *classic = Rounds::find(rows, "classic");
  const double formula = static_cast<double>(formula_bytes(w.keys, w.p));
  auto line = [&](const std::string &what, bool measurable, bool met, const std::string &detail) {
    out << "  " << pad(measurable ? (met ? "MET" : "MISSED") : "n/a", 7) << what << ": " << detail << "\n";
  };
  auto at_most = [&](const std::string &what, const ResultRow *r, double value, double limit,
                     const char *unit) {
    const bool ok = r != nullptr && !std::isnan(value);
    line(what, ok, ok && value <= limit,
         ok ? fmt("%.3g", value) + unit + " (limit " + fmt("%.3g", limit) + unit +
                  (value <= limit ? "" : ", over by " + fmt("%.0f%%", (value / limit - 1) * 100)) + ")"
            : "not measured");
  };
  // A speed ratio between two rows: the median of the per-round ratios,
  // with their spread. at_most_ratio: a / b <= limit; at_least_speedup:
  // b / a >= limit (how many times faster a is than b).
  using F = Rounds::Field;
  auto at_most_ratio = [&](const std::string &what, const std::string &a, F fa, const std::string &b, F fb,
                           double limit) {
    const double v = rounds.ratio(a, fa, b, fb);
    const bool ok = !std::isnan(v);
    line(what, ok, ok && v <= limit,
         ok ? ratio_with_spread(v, rounds.ratios(a, fa, b, fb)) + ", limit " + fmt("%.3gx", limit) +
                  (v <= limit ? "" : ", over by " + fmt("%.0f%%", (v / limit - 1) * 100))
            : "not measured");
  };
  auto at_least_speedup = [&](const std::string &what, const std::string &a, F fa, const std::string &b, F fb,
                              double limit) {
    const double v = rounds.ratio(b, fb, a, fa);
    const bool ok = !std::isnan(v);
    line(what, ok, ok && v >= limit,
         ok ? ratio_with_spread(v, rounds.ratios(b, fb, a, fa)) + ", need " + fmt("%.2gx", limit)
            : "not measured");
  };
  out << "targets (issue 4) at n = " << w.keys << ", p = " << format_p(w.p) << ":\n";
  at_most_ratio("blocked batch query+ / prefetched floor", "blocked", &ResultRow::pos_batch_ns, "floor",
                &ResultRow::pos_batch_ns, 1.3);
  at_most_ratio("blocked batch query- / prefetched floor", "blocked", &ResultRow::neg_batch_ns, "floor",
                &ResultRow::neg_batch_ns, 1.3);
  at_least_speedup("blocked single query+ speed-up over libbloom", "blocked", &ResultRow::pos_ns, "libbloom",
                   &ResultRow::pos_ns, 5);
  at_least_speedup("blocked single query- speed-up over libbloom", "blocked", &ResultRow::neg_ns, "libbloom",
                   &ResultRow::neg_ns, 5);
  at_least_speedup("blocked batch insert speed-up over libbloom", "blocked", &ResultRow::insert_batch_ns,
                   "libbloom", &ResultRow::insert_ns, 5);
  const double mem_limit = w.p <= 0.0001 ? 1.15 : 1.05;
  at_most("blocked memory / classic formula", blocked, blocked ? blocked->bytes / formula : NAN, mem_limit,
          "x");
  if (blocked) {
    // The sizing makes the *expected* rate at capacity <= p (just below it:
    // the memory limits leave no room for more); one measurement over n
    // negative keys scatters around it by a binomial sigma, printed so a
    // miss by less than that reads as what it is.
    const double sigma = std::sqrt(w.p * (1 - w.p) / static_cast<double>(w.keys));
    line("blocked measured FPR", true, blocked->fpr <= w.p,
         fmt("%.4g", blocked->fpr) + " (limit " + fmt("%.3g", w.p) + "; " +
             fmt("%+.1f", (blocked->fpr - w.p) / sigma) + " sigma of " + std::to_string(w.keys) +
             " negative queries)");
  } else {
    line("blocked measured FPR", false, false, "not measured");
  }
  if (classic) {
    const double ratio = classic->bytes / formula;
    line("classic memory = formula (+-1%)", true, std::fabs(ratio - 1) <= 0.01, fmt("%.4fx", ratio));
    // The formula's FPR for the classic filter's actual m and k, against the
    // measured one with a 4-sigma binomial band over n negative queries.
    const double expected = std::isnan(classic->expected_fpr) ? w.p : classic->expected_fpr;
    const double sigma = std::sqrt(expected * (1 - expected) / static_cast<double>(w.keys));
    line("classic FPR at the formula (p +- 4 sigma)", true, std::fabs(classic->fpr - expected) <= 4 * sigma,
         fmt("%.3e", classic->fpr) + " vs " + fmt("%.3e", expected) + " (sigma " + fmt("%.1e", sigma) + ")");
  }
  at_least_speedup("classic single query+ speed-up over libbloom", "classic", &ResultRow::pos_ns, "libbloom",
                   &ResultRow::pos_ns, 1);
  at_least_speedup("classic single query- speed-up over libbloom", "classic", &ResultRow::neg_ns, "libbloom",
                   &ResultRow::neg_ns, 1);
  out << "\n";
}

void write_tsv(std::ostream &out, const MachineInfo &m, const std::vector<ResultRow> &rows) {
  out << "# cpu: " << m.cpu << " (" << m.cores << " cores)\n# caches: " << m.caches << "\n# date: " << m.date
      << "\n# commit: " << m.commit << "\n# medians over " << m.rounds << " rounds of medians of " << m.reps
      << " repetitions, ns per key\n";
  const auto names = ResultRow::field_names();
  for (size_t i = 0; i < names.size(); ++i) out << (i ? "\t" : "") << names[i];
  out << "\n";
  for (const auto &r : rows) out << r.to_tsv() << "\n";
}

}  // namespace bloom_bench
