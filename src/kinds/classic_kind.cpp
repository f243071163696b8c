// SPDX-License-Identifier: Apache-2.0
// The classic kind's row of the kind table (kind_table.hpp).
#include "kind_table.hpp"
#include "kinds/classic.hpp"
#include "kinds/kind_support.hpp"

namespace bloom::core {

namespace {

void validate_classic(const FilterConfig &c) { refuse_foreign_parameters(c, "classic"); }
}  // namespace

extern const KindDescriptor kClassicKind{
    .kind = Kind::kClassic,
    .name = "classic",
    .file_flags = kFlagMixedProbes,
    .format_minor = 0,
    .adds_only_set_bits = true,
    .caps = BLOOM_CAP_MERGE | BLOOM_CAP_INTERSECT | BLOOM_CAP_CONCURRENT | BLOOM_CAP_REDISBLOOM_HASH,
    .mixed_probes = MixedProbes::kWhenSmall,
    .size = &size_bit_array,
    .validate = &validate_classic,
    .create = &create_filter_of<ClassicFilter>,
    .load = &load_single_array<ClassicFilter>};

}  // namespace bloom::core
