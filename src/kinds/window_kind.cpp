// SPDX-License-Identifier: Apache-2.0
// The window kind's row of the kind table (kind_table.hpp): the shape
// follows from (capacity, fp_rate) alone (window_sizing.hpp); a file
// carries it in its payload's descriptor, which WindowFilter::load reads and
// validates. Format 1.3 introduced the kind; since 1.4 new windows use the
// blocked layout (kFlagWindowBlocked, kinds/window_blocked.hpp), and files
// without the flag keep 1.3's one array per slice.
#include <string>

#include "error.hpp"
#include "kind_table.hpp"
#include "kinds/kind_support.hpp"
#include "kinds/window.hpp"
#include "kinds/window_sizing.hpp"

namespace bloom::core {

namespace {

// k + l slices of m bits, m whole words.
void validate_window(const FilterConfig &c) {
  refuse_foreign_parameters(c, "window");
  if (c.window_l < 1 || c.window_l > kMaxWindowSlices - c.hashes)
    fail(Status::kInvalidArg, "window l = " + std::to_string(c.window_l) + " is outside [1, " +
                                  std::to_string(kMaxWindowSlices) + " - k]");
  if (c.window_generation < 1) fail(Status::kInvalidArg, "window generation size g is 0");
  const uint64_t m = c.window_slice_bits;
  if (m < 64 || m % 64 != 0)
    fail(Status::kInvalidArg,
         "window slice size m = " + std::to_string(m) + " is not a positive multiple of 64");
  const uint64_t slices = c.hashes + c.window_l;
  if (m > BLOOM_MAX_BITS / slices || m * slices != c.bits)
    fail(Status::kInvalidArg, "window bits m = " + std::to_string(c.bits) + " is not " +
                                  std::to_string(slices) + " slices of " + std::to_string(m) + " bits");
}

void size_window(const Options &o, FilterConfig &c) {
  if (o.bits != 0 || o.hashes != 0)
    fail(Status::kInvalidArg,
         "window filters size their slices from capacity (the window W) and fp_rate; bits and hashes must be "
         "0");
  // New windows use the blocked layout (format 1.4, kinds/window_blocked.hpp).
  const WindowShape s = window_blocked_shape(o.capacity, o.fp_rate);
  c.flags |= kFlagWindowBlocked;
  c.fp_rate = o.fp_rate, c.window_ms = o.window_ms;
  c.hashes = s.k, c.window_l = s.l, c.window_generation = s.g, c.window_slice_bits = s.m;
  c.bits = s.m * (s.k + s.l);
}

}  // namespace

extern const KindDescriptor kWindowKind{.kind = Kind::kWindow,
                                        .name = "window",
                                        .file_flags = kFlagMixedProbes | kFlagWindowBlocked,
                                        .format_minor = 3,
                                        .adds_only_set_bits = false,
                                        .caps = BLOOM_CAP_FORGETS | BLOOM_CAP_CONCURRENT,
                                        .mixed_probes = MixedProbes::kAlways,
                                        .size = &size_window,
                                        .validate = &validate_window,
                                        .create = &create_filter_of<WindowFilter>,
                                        .load = &WindowFilter::load};

}  // namespace bloom::core
