// SPDX-License-Identifier: Apache-2.0
// rounds.hpp -- the seed table's rows over several interleaved rounds.
//
// This machine is a shared VM whose speed drifts over minutes: the same
// binary's blocked query read 13 ns and 40 ns half an hour apart, while the
// floor moved much less. A ratio made from a floor measured in one minute
// and a filter measured in another says more about the host than the code.
// So the table runs in rounds: each round runs every row once (each in its
// own process, seconds apart), and a ratio is taken inside each round, then
// the median over rounds is reported. Times are the median over rounds of
// each round's median of repetitions.
#pragma once

#include <string>
#include <vector>

#include "../common/result_row.hpp"
#include "../common/timing.hpp"

namespace bloom_bench {

class Rounds {
 public:
  using Field = double ResultRow::*;

  void add_round(std::vector<ResultRow> rows) { rounds_.push_back(std::move(rows)); }

  // One row per implementation, in the first round's order: every number is
  // the median over the rounds in which that row was measured ("ok"); a row
  // that failed in any round keeps that round's note (errors win).
  std::vector<ResultRow> combined() const {
    std::vector<ResultRow> out;
    if (rounds_.empty()) return out;
    for (const ResultRow &first : rounds_.front()) {
      ResultRow row = first;
      const ResultRow *failed = nullptr;
      for (const auto &round : rounds_)
        for (const ResultRow &r : round)
          if (r.impl == first.impl && r.note != "ok" && failed == nullptr) failed = &r;
      if (failed != nullptr) {
        out.push_back(*failed);
        continue;
      }
      for (Field f : ResultRow::number_fields()) {
        std::vector<double> values;
        for (const auto &round : rounds_)
          if (const ResultRow *r = find(round, row.impl)) values.push_back(r->*f);
        row.*f = median_or_nan(values);
      }
      out.push_back(row);
    }
    return out;
  }

  // Every round's impl.field / ref.ref_field, both from that round, for
  // the rounds that measured both.
  std::vector<double> ratios(const std::string &impl, Field field, const std::string &ref,
                             Field ref_field) const {
    std::vector<double> values;
    for (const auto &round : rounds_) {
      const ResultRow *a = find(round, impl);
      const ResultRow *b = find(round, ref);
      if (a != nullptr && b != nullptr && !std::isnan(a->*field) && !std::isnan(b->*ref_field) &&
          b->*ref_field > 0)
        values.push_back(a->*field / (b->*ref_field));
    }
    return values;
  }

  // Their median; NaN when no round measured both.
  double ratio(const std::string &impl, Field field, const std::string &ref, Field ref_field) const {
    return median_or_nan(ratios(impl, field, ref, ref_field));
  }

  static const ResultRow *find(const std::vector<ResultRow> &rows, const std::string &impl) {
    for (const auto &r : rows)
      if (r.impl == impl && r.note == "ok") return &r;
    return nullptr;
  }

 private:
  static double median_or_nan(const std::vector<double> &v) {
    std::vector<double> known;
    for (double x : v)
      if (!std::isnan(x)) known.push_back(x);
    return known.empty() ? kNa : median(known);
  }

  std::vector<std::vector<ResultRow>> rounds_;
};

}  // namespace bloom_bench
