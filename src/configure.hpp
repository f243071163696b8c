// SPDX-License-Identifier: Apache-2.0
// configure.hpp -- from a caller's Options (options.hpp) to a complete
// FilterConfig.
//
// This is where defaults are applied and sizes derived ((n, p) -> (m, k), per
// kind), and where every option is range-checked with a message that names
// it. The result still goes through validate_config like a loaded header.
#pragma once

#include "bloom/bloom.h"
#include "filter_config.hpp"
#include "options.hpp"

namespace bloom::core {

FilterConfig configure(const Options &o);

// Whether a new filter of this (sized) config mixes its probe values
// (kFlagMixedProbes): where unmixed double hashing's excess rate could
// reach 1e-3 of 2^-k, i.e. m k 2^-k < 4000; a function of m and k alone (and
// the kind). configure() applies it.
bool needs_mixed_probes(const FilterConfig &c);

}  // namespace bloom::core
