// SPDX-License-Identifier: Apache-2.0
// handle.hpp -- the opaque bloom_filter handle is a core::Filter.
//
// bloom_filter is only ever declared in C; the library hands out pointers to
// core::Filter objects under that name and converts back here, in one place.
#pragma once

#include "filter.hpp"

struct bloom_filter;

namespace bloom::capi {

inline core::Filter *to_core(bloom_filter *f) { return reinterpret_cast<core::Filter *>(f); }
inline const core::Filter *to_core(const bloom_filter *f) {
  return reinterpret_cast<const core::Filter *>(f);
}
inline bloom_filter *to_handle(core::Filter *f) { return reinterpret_cast<bloom_filter *>(f); }

}  // namespace bloom::capi
