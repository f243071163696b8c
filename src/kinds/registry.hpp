// SPDX-License-Identifier: Apache-2.0
// registry.hpp -- validate, create and load any kind through the kind table
// (kind_table.hpp); no caller needs to know which kinds there are.
#pragma once

#include <memory>

#include "filter.hpp"
#include "filter_config.hpp"
#include "format/byte_stream.hpp"
#include "format/header.hpp"

namespace bloom::core {

// Throws Error unless config is a complete, valid configuration for its kind
// (sizes already derived): m and k in range, then the kind's own rules.
// Shared by create and load, so a file can never describe a filter that
// create would refuse.
void validate_config(const FilterConfig &config);

// A new empty filter; config must have passed validate_config.
std::unique_ptr<Filter> create_filter(const FilterConfig &config);

// Validates h for its kind and reads the payload from src.
std::unique_ptr<Filter> load_filter(const Header &h, ByteSource &src, bool zero_copy);

}  // namespace bloom::core
