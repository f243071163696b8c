// SPDX-License-Identifier: Apache-2.0
// fpr_sweep.hpp -- measured false-positive rate against bits per key, for
// every kind over a range of target rates: the data of the FPR plot.
#pragma once

#include <cstdint>
#include <string>

namespace bloom_bench {

// Writes "kind p bits_per_key fpr expected_fpr" rows (TSV) to path for n
// inserted keys and 10 n never-inserted queries per point. Returns 0 on
// success (a kind this build lacks is written as an "n/a" comment line).
int run_fpr_sweep(const std::string &path, uint64_t n);

}  // namespace bloom_bench
