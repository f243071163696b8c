// SPDX-License-Identifier: Apache-2.0
// error.hpp -- how the core reports failure.
//
// The core throws bloom::core::Error (a Status, status.hpp, plus a message)
// from validation code, never from a per-key hot path. The C boundary in
// capi/ catches it, and every other exception, and turns it into a status and
// a thread-local message; nothing ever escapes to the caller.
#pragma once

#include <stdexcept>
#include <string>

#include "status.hpp"

namespace bloom::core {

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string &message) : std::runtime_error(message), status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

[[noreturn]] inline void fail(Status status, const std::string &message) { throw Error(status, message); }

}  // namespace bloom::core
