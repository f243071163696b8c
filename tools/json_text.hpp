// SPDX-License-Identifier: Apache-2.0
// json_text.hpp -- the pieces of the tool's JSON output (`stats --json`,
// `calc --json`): numbers and strings as JSON spells them, and the flags.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace bloom_cli {

// "concurrent,split-block", or "none".
std::string flags_text(uint32_t flags);
// The shortest form that reads back as the same double; null when not finite.
std::string json_number(double x);
// A quoted JSON string; bytes that are not well-formed UTF-8 become U+FFFD.
std::string json_string(const std::string &s);

}  // namespace bloom_cli
