// SPDX-License-Identifier: Apache-2.0
// The counting kind's row of the kind table (kind_table.hpp).
#include <string>

#include "error.hpp"
#include "kind_table.hpp"
#include "kinds/counting.hpp"
#include "kinds/kind_support.hpp"

namespace bloom::core {

namespace {

void validate_counting(const FilterConfig &c) {
  if (c.counter_bits != 4 && c.counter_bits != 8)
    fail(Status::kInvalidArg, "counter_bits = " + std::to_string(c.counter_bits) + " is not 4 or 8");
  refuse_foreign_parameters(c, "counting", /*takes_counter_bits=*/true);
}

// The counters are sized like a classic filter's bits.
void size_counting(const Options &o, FilterConfig &c) {
  c.counter_bits = o.counter_bits;
  validate_counting(c);
  size_bit_array(o, c);
}
}  // namespace

extern const KindDescriptor kCountingKind{
    .kind = Kind::kCounting,
    .name = "counting",
    .file_flags = kFlagMixedProbes,
    .format_minor = 0,
    .adds_only_set_bits = false,
    .caps = BLOOM_CAP_MERGE | BLOOM_CAP_INTERSECT | BLOOM_CAP_CONCURRENT | BLOOM_CAP_REMOVE,
    .mixed_probes = MixedProbes::kWhenSmall,
    .size = &size_counting,
    .validate = &validate_counting,
    .create = &create_filter_of<CountingFilter>,
    .load = &load_single_array<CountingFilter>};

}  // namespace bloom::core
