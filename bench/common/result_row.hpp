// SPDX-License-Identifier: Apache-2.0
// result_row.hpp -- one line of the seed table, as a child process reports it
// to the parent (tab-separated, on stdout, prefixed "ROW\t").
//
// A figure that does not apply (libbloom has no batch call, the floor inserts
// nothing) is NaN and printed as "n/a"; a kind this build does not implement
// is a row whose note says so, never a missing row.
#pragma once

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace bloom_bench {

inline constexpr double kNa = NAN;

struct ResultRow {
  std::string impl;  // "classic", "blocked", ..., "libbloom", "floor"
  unsigned long long keys = 0;
  double p = 0;
  double bytes = kNa;         // serialized size (bloom), allocated bytes (others)
  double bits_per_key = kNa;  // bytes * 8 / keys
  double insert_ns = kNa;
  double insert_batch_ns = kNa;
  double pos_ns = kNa;
  double neg_ns = kNa;
  double pos_batch_ns = kNa;
  double neg_batch_ns = kNa;
  double fpr = kNa;
  double expected_fpr = kNa;   // the classic formula's rate for the filter's own m and k
  double peak_rss_kb = kNa;    // VmHWM of the whole child process
  double filter_rss_kb = kNa;  // VmHWM growth after the keys were built
  std::string note = "ok";     // "ok", "n/a: <why>" or "error: <why>"

  static std::vector<std::string> field_names() {
    return {"impl",
            "keys",
            "p",
            "bytes",
            "bits_per_key",
            "insert_ns",
            "insert_batch_ns",
            "pos_ns",
            "neg_ns",
            "pos_batch_ns",
            "neg_batch_ns",
            "fpr",
            "expected_fpr",
            "peak_rss_kb",
            "filter_rss_kb",
            "note"};
  }

  // The numeric fields, in field_names() order.
  static std::vector<double ResultRow::*> number_fields() {
    return {&ResultRow::bytes,           &ResultRow::bits_per_key, &ResultRow::insert_ns,
            &ResultRow::insert_batch_ns, &ResultRow::pos_ns,       &ResultRow::neg_ns,
            &ResultRow::pos_batch_ns,    &ResultRow::neg_batch_ns, &ResultRow::fpr,
            &ResultRow::expected_fpr,    &ResultRow::peak_rss_kb,  &ResultRow::filter_rss_kb};
  }

  std::vector<double *> numbers() {
    std::vector<double *> out;
    for (double ResultRow::*f : number_fields()) out.push_back(&(this->*f));
    return out;
  }

  std::string to_tsv() const {
    ResultRow copy = *this;
    std::ostringstream out;
    out << impl << '\t' << keys << '\t' << p;
    for (double *v : copy.numbers()) {
      out << '\t';
      if (std::isnan(*v)) {
        out << "n/a";
      } else {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.6g", *v);
        out << buf;
      }
    }
    out << '\t' << note;
    return out.str();
  }

  // Parses what to_tsv wrote; false on a malformed line.
  static bool from_tsv(const std::string &line, ResultRow &row) {
    std::vector<std::string> f;
    std::stringstream in(line);
    std::string cell;
    while (std::getline(in, cell, '\t')) f.push_back(cell);
    if (f.size() != field_names().size()) return false;
    row.impl = f[0];
    row.keys = std::stoull(f[1]);
    row.p = std::stod(f[2]);
    std::vector<double *> nums = row.numbers();
    for (size_t i = 0; i < nums.size(); ++i) *nums[i] = f[3 + i] == "n/a" ? kNa : std::stod(f[3 + i]);
    row.note = f.back();
    return true;
  }
};

inline void emit_row(const ResultRow &row) {
  std::printf("ROW\t%s\n", row.to_tsv().c_str());
  std::fflush(stdout);
}

}  // namespace bloom_bench
