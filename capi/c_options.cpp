// SPDX-License-Identifier: Apache-2.0
#include "c_options.hpp"

#include <cstddef>
#include <cstdint>

namespace bloom::capi {

// Every member of bloom_options but struct_size has its twin in Options
// (checked on 64-bit targets, where each member of either takes 8 bytes).
#if UINTPTR_MAX == UINT64_MAX
static_assert(sizeof(bloom_options) == sizeof(size_t) + sizeof(core::Options),
              "bloom_options and core::Options differ: copy the new member in copy_members");
#endif

namespace {

// The members both structs share, by name: one list for both directions.
template <typename To, typename From>
void copy_members(To &to, const From &from) {
  to.kind = from.kind;
  to.capacity = from.capacity;
  to.fp_rate = from.fp_rate;
  to.hash = from.hash;
  to.seed = from.seed;
  to.flags = from.flags;
  to.bits = from.bits;
  to.hashes = from.hashes;
  to.growth = from.growth;
  to.tightening = from.tightening;
  to.counter_bits = from.counter_bits;
  to.window_ms = from.window_ms;
}

}  // namespace

bloom_options to_c_options(const core::Options &o) {
  bloom_options c{};
  c.struct_size = sizeof c;
  copy_members(c, o);
  return c;
}

core::Options to_core_options(const bloom_options &c) {
  core::Options o;
  copy_members(o, c);
  return o;
}

}  // namespace bloom::capi
