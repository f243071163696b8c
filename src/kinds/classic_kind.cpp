// SPDX-License-Identifier: Apache-2.0
// The classic kind's row of the kind table (kind_table.hpp).
#include "kind_table.hpp"
#include "kinds/classic.hpp"
#include "kinds/kind_support.hpp"

namespace bloom::core {

namespace {

void validate_classic(const FilterConfig &c) { refuse_foreign_parameters(c, "classic"); }

std::unique_ptr<Filter> load_classic(const Header &h, ByteSource &src, bool zero_copy) {
  validate_loaded(h);
  require_single_array(h, ClassicFilter::payload_size_for(h.config.bits));
  return ClassicFilter::load(h.config, src, zero_copy);
}

}  // namespace

extern const KindDescriptor kClassicKind{Kind::kClassic,
                                         "classic",
                                         kFlagMixedProbes,
                                         0,
                                         true,
                                         MixedProbes::kWhenSmall,
                                         &size_bit_array,
                                         &validate_classic,
                                         &create_filter_of<ClassicFilter>,
                                         &load_classic};

}  // namespace bloom::core
