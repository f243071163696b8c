// SPDX-License-Identifier: Apache-2.0
// stage_info_api.cpp -- bloom_get_stage_info: the fill of one stage of a
// scalable filter (stage 0 of any other kind is the whole filter), and
// bloom_growth_bytes: what the next stage would cost.
#include "bloom/bloom.h"
#include "caller_info.hpp"
#include "guard.hpp"
#include "handle.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
using bloom::capi::to_core;

extern "C" {

bloom_status bloom_get_stage_info(const bloom_filter *f, uint32_t stage, bloom_info *out) {
  return guarded("bloom_get_stage_info", [&] {
    require_arg(f, "filter");
    require_arg(out, "out");
    bloom::capi::fill_caller_info(out,
                                  [&](bloom::core::Info &info) { to_core(f)->get_stage_info(stage, info); });
  });
}

bloom_status bloom_growth_bytes(const bloom_filter *f, uint64_t *bytes) {
  return guarded("bloom_growth_bytes", [&] {
    require_arg(f, "filter");
    require_arg(bytes, "bytes");
    *bytes = 0;
    *bytes = to_core(f)->growth_bytes();
  });
}

}  // extern "C"
