// SPDX-License-Identifier: Apache-2.0
// The blocked kind's row of the kind table (kind_table.hpp). Every new
// blocked filter uses layout 2 (kFlagBlockedLayout2, format 1.1); its probes
// inside a line are no double-hashing sequence, so they are never mixed and
// the plain-double-hashing flag does not apply.
#include <string>

#include "error.hpp"
#include "kind_table.hpp"
#include "kinds/blocked.hpp"
#include "kinds/blocked_line.hpp"
#include "kinds/blocked_sizing.hpp"
#include "kinds/kind_support.hpp"

namespace bloom::core {

namespace {

void validate_blocked(const FilterConfig &c) {
  refuse_foreign_parameters(c, "blocked");
  if (c.bits % blocked::kLineBits != 0)
    fail(BLOOM_E_INVALID_ARG,
         "blocked filters need m to be a multiple of 512; m = " + std::to_string(c.bits));
  if (!c.enhanced_probes())
    fail(BLOOM_E_INVALID_ARG, "BLOOM_FLAG_PLAIN_DOUBLE_HASHING does not apply to blocked filters");
}

void size_blocked(const bloom_options &o, FilterConfig &c) {
  c.flags |= kFlagBlockedLayout2;
  blocked::size_blocked(o, c);
}
}  // namespace

extern const KindDescriptor kBlockedKind{Kind::kBlocked,
                                         "blocked",
                                         kFlagBlockedLayout2,
                                         0,
                                         true,
                                         MixedProbes::kNever,
                                         &size_blocked,
                                         &validate_blocked,
                                         &create_filter_of<BlockedFilter>,
                                         &load_single_array<BlockedFilter>};

}  // namespace bloom::core
