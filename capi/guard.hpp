// SPDX-License-Identifier: Apache-2.0
// guard.hpp -- runs a C API body so that no exception crosses the boundary.
//
// Every entry point is `noexcept` in spirit: guarded() catches core::Error
// (status + message), std::bad_alloc (NOMEM) and anything else (reported as
// an error with the invalid-argument status rather than aborting).
#pragma once

#include <exception>
#include <new>

#include "c_status.hpp"
#include "error.hpp"
#include "last_error.hpp"

namespace bloom::capi {

template <typename Body>
bloom_status guarded(const char *function, Body &&body) noexcept {
  try {
    body();
    return BLOOM_OK;
  } catch (const core::Error &e) {
    return set_error(function, to_c_status(e.status()), e.what());
  } catch (const std::bad_alloc &) {
    return set_error(function, BLOOM_E_NOMEM, "out of memory");
  } catch (const std::exception &e) {
    return set_error(function, BLOOM_E_INVALID_ARG, e.what());
  } catch (...) {
    return set_error(function, BLOOM_E_INVALID_ARG, "internal error");
  }
}

// Throws Error(INVALID_ARG) naming the NULL argument.
inline void require_arg(const void *p, const char *name) {
  if (p == nullptr) core::fail(core::Status::kInvalidArg, std::string(name) + " is NULL");
}

}  // namespace bloom::capi
