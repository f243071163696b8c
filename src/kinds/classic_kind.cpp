// SPDX-License-Identifier: Apache-2.0
// The classic kind's row of the kind table (kind_table.hpp).
#include "kind_table.hpp"
#include "kinds/classic.hpp"
#include "kinds/kind_support.hpp"

namespace bloom::core {

namespace {

void validate_classic(const FilterConfig &c) { refuse_foreign_parameters(c, "classic"); }
}  // namespace

extern const KindDescriptor kClassicKind{Kind::kClassic,
                                         "classic",
                                         kFlagMixedProbes,
                                         0,
                                         true,
                                         true,  // takes the redisbloom hash
                                         MixedProbes::kWhenSmall,
                                         &size_bit_array,
                                         &validate_classic,
                                         &create_filter_of<ClassicFilter>,
                                         &load_single_array<ClassicFilter>};

}  // namespace bloom::core
