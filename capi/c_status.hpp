// SPDX-License-Identifier: Apache-2.0
// c_status.hpp -- the core's Status as the C API's bloom_status.
//
// The two enums have equal numbers, so the translation is a cast; each pair
// is checked here, so renumbering either side (or adding a core status
// without its C twin) fails to compile instead of returning a wrong code.
#pragma once

#include <cstdint>

#include "bloom/bloom.h"
#include "status.hpp"

namespace bloom::capi {

#define BLOOM_SAME_STATUS(c, core_value) \
  static_assert(static_cast<int32_t>(c) == static_cast<int32_t>(core::Status::core_value), #c)
BLOOM_SAME_STATUS(BLOOM_OK, kOk);
BLOOM_SAME_STATUS(BLOOM_E_INVALID_ARG, kInvalidArg);
BLOOM_SAME_STATUS(BLOOM_E_NOMEM, kNoMem);
BLOOM_SAME_STATUS(BLOOM_E_IO, kIo);
BLOOM_SAME_STATUS(BLOOM_E_FORMAT, kFormat);
BLOOM_SAME_STATUS(BLOOM_E_CHECKSUM, kChecksum);
BLOOM_SAME_STATUS(BLOOM_E_VERSION, kVersion);
BLOOM_SAME_STATUS(BLOOM_E_UNSUPPORTED, kUnsupported);
BLOOM_SAME_STATUS(BLOOM_E_INCOMPATIBLE, kIncompatible);
BLOOM_SAME_STATUS(BLOOM_E_OVERFLOW, kOverflow);
BLOOM_SAME_STATUS(BLOOM_E_BUFFER_TOO_SMALL, kBufferTooSmall);
BLOOM_SAME_STATUS(BLOOM_E_NOT_PRESENT, kNotPresent);
#undef BLOOM_SAME_STATUS

inline bloom_status to_c_status(core::Status s) noexcept { return static_cast<bloom_status>(s); }

}  // namespace bloom::capi
