// SPDX-License-Identifier: Apache-2.0
// c_info.hpp -- the core's Info as the C API's bloom_info.
#pragma once

#include "bloom/bloom.h"
#include "info.hpp"

namespace bloom::capi {

// Copies every member of i into c, member by member; c.struct_size is left
// as it is (the caller's business, caller_info.hpp).
void to_c_info(const core::Info &i, bloom_info &c);

}  // namespace bloom::capi
