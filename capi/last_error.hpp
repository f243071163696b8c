// SPDX-License-Identifier: Apache-2.0
// last_error.hpp -- the thread-local message behind bloom_last_error().
#pragma once

#include "bloom/bloom.h"

namespace bloom::capi {

// Records "<function>: <message>" for this thread and returns status.
bloom_status set_error(const char *function, bloom_status status, const char *message) noexcept;

}  // namespace bloom::capi
