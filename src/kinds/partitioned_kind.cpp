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

extern const KindDescriptor kPartitionedKind{Kind::kPartitioned,
                                             "partitioned",
                                             kFlagMixedProbes,
                                             0,
                                             true,
                                             false,  // takes the redisbloom hash
                                             MixedProbes::kWhenSmall,
                                             &size_bit_array,
                                             &validate_partitioned,
                                             &create_filter_of<PartitionedFilter>,
                                             &load_single_array<PartitionedFilter>};

}  // namespace bloom::core
