// SPDX-License-Identifier: Apache-2.0
#include "c_info.hpp"

#include <cstddef>
#include <cstdint>

namespace bloom::capi {

// Every member of bloom_info but struct_size has its twin in Info (checked
// on 64-bit targets, where both pack their members the same way).
#if UINTPTR_MAX == UINT64_MAX
static_assert(sizeof(bloom_info) == sizeof(size_t) + sizeof(core::Info),
              "bloom_info and core::Info differ: copy the new member in to_c_info");
#endif

void to_c_info(const core::Info &i, bloom_info &c) {
  c.kind = i.kind;
  c.hash = i.hash;
  c.seed = i.seed;
  c.flags = i.flags;
  c.hashes = i.hashes;
  c.bits = i.bits;
  c.bytes = i.bytes;
  c.capacity = i.capacity;
  c.fp_rate = i.fp_rate;
  c.keys_added = i.keys_added;
  c.estimated_keys = i.estimated_keys;
  c.fill_ratio = i.fill_ratio;
  c.expected_fp_rate = i.expected_fp_rate;
  c.stages = i.stages;
  c.counter_bits = i.counter_bits;
  c.growth = i.growth;
  c.tightening = i.tightening;
  c.read_only = i.read_only;
  c.format_major = i.format_major;
  c.format_minor = i.format_minor;
  c.window_ms = i.window_ms;
  c.window_k = i.window_k;
  c.window_l = i.window_l;
  c.slice_bits = i.slice_bits;
  c.generation_capacity = i.generation_capacity;
  c.generation = i.generation;
  c.generation_keys = i.generation_keys;
  c.generation_ms = i.generation_ms;
  c.clock_ms = i.clock_ms;
  c.generation_start_ms = i.generation_start_ms;
}

}  // namespace bloom::capi
