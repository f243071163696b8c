// SPDX-License-Identifier: Apache-2.0
// c_options.hpp -- the C API's bloom_options to and from the core's Options.
//
// Member by member, in one place each way: a member added to bloom_options
// is read by configure() only once it is copied here (and the size check in
// c_options.cpp fails to compile until Options has its twin).
#pragma once

#include "bloom/bloom.h"
#include "options.hpp"

namespace bloom::capi {

// A full bloom_options (struct_size = sizeof) holding o's values; from a
// default Options, the defaults bloom_options_init documents.
bloom_options to_c_options(const core::Options &o);

// What configure() reads; o has been widened to the full struct (members
// beyond the caller's struct_size defaulted).
core::Options to_core_options(const bloom_options &o);

}  // namespace bloom::capi
