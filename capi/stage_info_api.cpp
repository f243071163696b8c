// stage_info_api.cpp -- bloom_get_stage_info: the fill of one stage of a
// scalable filter (stage 0 of any other kind is the whole filter).
#include <algorithm>
#include <cstring>

#include "bloom/bloom.h"
#include "guard.hpp"
#include "handle.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
using bloom::capi::to_core;
namespace core = bloom::core;

extern "C" {

bloom_status bloom_get_stage_info(const bloom_filter *f, uint32_t stage, bloom_info *out) {
  return guarded("bloom_get_stage_info", [&] {
    require_arg(f, "filter");
    require_arg(out, "out");
    if (out->struct_size < sizeof(size_t))
      core::fail(BLOOM_E_INVALID_ARG, "info.struct_size is not set; set it to sizeof(bloom_info)");
    bloom_info full{};
    full.struct_size = sizeof full;
    to_core(f)->get_stage_info(stage, full);
    const size_t caller_size = std::min(out->struct_size, sizeof full);
    std::memcpy(out, &full, caller_size);
    out->struct_size = caller_size;
  });
}

}  // extern "C"
