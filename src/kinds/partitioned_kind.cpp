// SPDX-License-Identifier: Apache-2.0
// The partitioned kind's row of the kind table (kind_table.hpp). It is sized
// like classic: its slices differ from it by < 0.1% in rate (large m).
#include <string>

#include "error.hpp"
#include "kind_table.hpp"
#include "kinds/kind_support.hpp"
#include "kinds/partitioned.hpp"

namespace bloom::core {

namespace {

void validate_partitioned(const FilterConfig &c) {
  refuse_foreign_parameters(c, "partitioned");
  if (c.bits < c.hashes)
    fail(Status::kInvalidArg, "partitioned filters need m >= k (one bit per slice); m = " +
                                  std::to_string(c.bits) + ", k = " + std::to_string(c.hashes));
}
}  // namespace

extern const KindDescriptor kPartitionedKind{
    .kind = Kind::kPartitioned,
    .name = "partitioned",
    .file_flags = kFlagMixedProbes,
    .format_minor = 0,
    .adds_only_set_bits = true,
    .caps = BLOOM_CAP_MERGE | BLOOM_CAP_INTERSECT | BLOOM_CAP_CONCURRENT,
    .mixed_probes = MixedProbes::kWhenSmall,
    .size = &size_bit_array,
    .validate = &validate_partitioned,
    .create = &create_filter_of<PartitionedFilter>,
    .load = &load_single_array<PartitionedFilter>};

}  // namespace bloom::core
