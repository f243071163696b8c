// SPDX-License-Identifier: Apache-2.0
// table.hpp -- prints the seed table (aligned text), checks it against the
// targets of issue 4, and writes it as TSV for the plots.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "../common/result_row.hpp"
#include "measure.hpp"
#include "rounds.hpp"

namespace bloom_bench {

struct MachineInfo {
  std::string cpu;
  std::string caches;
  long cores = 0;
  std::string date;
  std::string commit;
  int reps = 0;
  int rounds = 1;
};

std::string format_p(double p);
void print_header(std::ostream &out, const MachineInfo &m);
void print_config_table(std::ostream &out, const Workload &w, const Rounds &rounds);
// One line per target: MET / MISSED with the measured number and the margin.
void print_targets(std::ostream &out, const Workload &w, const Rounds &rounds);
void write_tsv(std::ostream &out, const MachineInfo &m, const std::vector<ResultRow> &rows);

}  // namespace bloom_bench
