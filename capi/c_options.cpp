// SPDX-License-Identifier: Apache-2.0
#include "c_options.hpp"

#include <cstddef>
#include <cstdint>

namespace bloom::capi {

// Every member of bloom_options but struct_size has its twin in Options
// (checked on 64-bit targets, where each member of either takes 8 bytes).
#if UINTPTR_MAX == UINT64_MAX
static_assert(sizeof(bloom_options) == sizeof(size_t) + sizeof(core::Options),
              "bloom_options and core::Options differ: copy the new member in both functions");
#endif

bloom_options to_c_options(const core::Options &o) {
  bloom_options c{};
  c.struct_size = sizeof c;
  c.kind = o.kind;
  c.capacity = o.capacity;
  c.fp_rate = o.fp_rate;
  c.hash = o.hash;
  c.seed = o.seed;
  c.flags = o.flags;
  c.bits = o.bits;
  c.hashes = o.hashes;
  c.growth = o.growth;
  c.tightening = o.tightening;
  c.counter_bits = o.counter_bits;
  c.window_ms = o.window_ms;
  return c;
}

core::Options to_core_options(const bloom_options &c) {
  core::Options o;
  o.kind = c.kind;
  o.capacity = c.capacity;
  o.fp_rate = c.fp_rate;
  o.hash = c.hash;
  o.seed = c.seed;
  o.flags = c.flags;
  o.bits = c.bits;
  o.hashes = c.hashes;
  o.growth = c.growth;
  o.tightening = c.tightening;
  o.counter_bits = c.counter_bits;
  o.window_ms = c.window_ms;
  return o;
}

}  // namespace bloom::capi
