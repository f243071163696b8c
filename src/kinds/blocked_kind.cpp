// SPDX-License-Identifier: Apache-2.0
// The blocked kind's row of the kind table (kind_table.hpp). Every new
// blocked filter uses layout 2 (kFlagBlockedLayout2, format 1.1); its probes
// inside a line are no double-hashing sequence, so they are never mixed and
// the plain-double-hashing flag does not apply. BLOOM_FLAG_SPLIT_BLOCK
// (format 1.4) is this kind's own option: 32-byte blocks, k = 8.
#include <string>

#include "error.hpp"
#include "kind_table.hpp"
#include "kinds/blocked.hpp"
#include "kinds/blocked_line.hpp"
#include "kinds/blocked_sizing.hpp"
#include "kinds/kind_support.hpp"
#include "kinds/split_block.hpp"

namespace bloom::core {

namespace {

void validate_blocked(const FilterConfig &c) {
  refuse_foreign_parameters(c, "blocked");
  if (c.split_block()) {
    // Split blocks (split_block.hpp, format 1.4): 256-bit blocks, one bit
    // per word, defined on layout 2 only (every blocked filter since 1.1).
    if (!c.blocked_layout2())
      fail(Status::kInvalidArg,
           "split blocks (0x4) are only defined for blocked filters of layout 2 (0x10000)");
    if (c.bits % split_block::kBlockBits != 0)
      fail(Status::kInvalidArg,
           "split-block filters need m to be a multiple of 256; m = " + std::to_string(c.bits));
    if (c.hashes != split_block::kProbes)
      fail(Status::kInvalidArg,
           "split-block filters have k = 8 (one bit per 32-bit word); k = " + std::to_string(c.hashes));
  } else if (c.bits % blocked::kLineBits != 0) {
    fail(Status::kInvalidArg,
         "blocked filters need m to be a multiple of 512; m = " + std::to_string(c.bits));
  }
  if (!c.enhanced_probes())
    fail(Status::kInvalidArg, "BLOOM_FLAG_PLAIN_DOUBLE_HASHING does not apply to blocked filters");
}

void size_blocked(const Options &o, FilterConfig &c) {
  c.flags |= kFlagBlockedLayout2;
  blocked::size_blocked(o, c);
}
}  // namespace

extern const KindDescriptor kBlockedKind{
    .kind = Kind::kBlocked,
    .name = "blocked",
    .file_flags = kFlagBlockedLayout2 | BLOOM_FLAG_SPLIT_BLOCK,
    .format_minor = 0,
    .adds_only_set_bits = true,
    .caps = BLOOM_CAP_MERGE | BLOOM_CAP_INTERSECT | BLOOM_CAP_CONCURRENT | BLOOM_CAP_SPLIT_BLOCK,
    .mixed_probes = MixedProbes::kNever,
    .size = &size_blocked,
    .validate = &validate_blocked,
    .create = &create_filter_of<BlockedFilter>,
    .load = &load_single_array<BlockedFilter>};

}  // namespace bloom::core
