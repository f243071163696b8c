// SPDX-License-Identifier: Apache-2.0
// hash128.hpp -- the 128-bit key hash every filter kind starts from.
//
// Each key is hashed exactly once; the k probe positions are then derived
// from the two 64-bit halves (see probe.hpp). The hasher and its seed are
// part of a filter's identity and are stored in its file.
#pragma once

#include <cstdint>

namespace bloom::core {

struct Hash128 {
  uint64_t h1;
  uint64_t h2;
};

}  // namespace bloom::core
