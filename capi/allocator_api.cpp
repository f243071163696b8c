// SPDX-License-Identifier: Apache-2.0
// allocator_api.cpp -- bloom_set_allocator: an embedder's allocator for the
// memory filters hold (memory.cpp does the allocating).
#include "bloom/bloom.h"
#include "guard.hpp"
#include "memory.hpp"

using bloom::capi::guarded;

extern "C" {

bloom_status bloom_set_allocator(const bloom_allocator *a) {
  return guarded("bloom_set_allocator", [&] { bloom::core::set_allocator(a); });
}

}  // extern "C"
