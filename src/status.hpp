// SPDX-License-Identifier: Apache-2.0
// status.hpp -- the core's outcome codes.
//
// The core reports failure as an Error carrying one of these (error.hpp);
// the C boundary turns it into the C API's status (capi/c_status.hpp). The
// numbers equal bloom.h's so that translation is a cast, and static_asserts
// there fail the build if either side changes.
#pragma once

#include <cstdint>

namespace bloom::core {

enum class Status : int32_t {
  kOk = 0,
  kInvalidArg = -1,       // a NULL pointer, a value out of range
  kNoMem = -2,            // an allocation failed
  kIo = -3,               // open/read/write/fsync/rename failed
  kFormat = -4,           // not a bloom filter, or fields that disagree
  kChecksum = -5,         // header or payload checksum mismatch
  kVersion = -6,          // written by a newer, incompatible format
  kUnsupported = -7,      // the operation does not apply to this filter
  kIncompatible = -8,     // two filters whose parameters differ
  kOverflow = -9,         // a size exceeds the library's limits
  kBufferTooSmall = -10,  // the output buffer cannot hold the result
  kNotPresent = -11       // a remove of a key that was never added
};

}  // namespace bloom::core
