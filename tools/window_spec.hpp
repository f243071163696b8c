// SPDX-License-Identifier: Apache-2.0
// window_spec.hpp -- `bloom dedup --window`: a count ("10M": the last ten
// million lines) or a duration ("24h": the last 24 hours).
#pragma once

#include <cstdint>
#include <string_view>

namespace bloom_cli {

struct WindowSpec {
  uint64_t count = 0;  // a count window: lines it remembers
  uint64_t ms = 0;     // a time window: milliseconds (count is then 0)
};

// A count: a whole number with an optional k, M or G (10^3, 10^6, 10^9),
// or any form parse_count takes ("10_000_000", "1e7"). A duration: a whole
// number and a unit, ms, s, min, h or d ("90s", "24h"). A lone "m" is
// refused as ambiguous (minutes or millions?). Throws CliError.
WindowSpec parse_window(std::string_view text);

// Milliseconds of a monotonic clock: the time windows' default clock.
uint64_t monotonic_ms();

}  // namespace bloom_cli
