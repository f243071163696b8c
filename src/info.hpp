// SPDX-License-Identifier: Apache-2.0
// info.hpp -- what a filter reports about itself (Filter::get_info).
//
// The members are the C API's info struct without its struct_size, with the
// same types and meanings (bloom.h documents each); the C boundary copies an
// Info into the caller's struct member by member (capi/c_info.hpp). A
// value-initialised Info is all zeros, which is what a member means for the
// kinds that do not fill it (growth of a classic filter, the window members).
#pragma once

#include <cstdint>

namespace bloom::core {

struct Info {
  int32_t kind = 0;  // Kind
  int32_t hash = 0;  // HashKind
  uint64_t seed = 0;
  uint32_t flags = 0;   // the caller's flags (kKnownFlags) it was created with
  uint32_t hashes = 0;  // k (scalable: of the newest stage)
  uint64_t bits = 0;    // m: bits or counters (scalable: all stages)
  uint64_t bytes = 0;   // memory of the bit/counter arrays
  uint64_t capacity = 0;
  double fp_rate = 0;  // p it was sized for (0 if given m, k)
  uint64_t keys_added = 0;
  double estimated_keys = 0;
  double fill_ratio = 0;
  double expected_fp_rate = 0;
  uint32_t stages = 0;        // scalable: stages; window: k + l slices; others 1
  uint32_t counter_bits = 0;  // counting: 4 or 8; others 1
  double growth = 0;          // scalable parameters; 0 for other kinds
  double tightening = 0;
  int32_t read_only = 0;  // 1 for a mapped filter
  uint16_t format_major = 0;
  uint16_t format_minor = 0;
  uint64_t window_ms = 0;  // window kind (0 for the others) from here on
  uint32_t window_k = 0;
  uint32_t window_l = 0;
  uint64_t slice_bits = 0;
  uint64_t generation_capacity = 0;
  uint64_t generation = 0;
  uint64_t generation_keys = 0;
  uint64_t generation_ms = 0;
  uint64_t clock_ms = 0;
  uint64_t generation_start_ms = 0;
};

}  // namespace bloom::core
