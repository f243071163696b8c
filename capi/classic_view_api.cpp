// SPDX-License-Identifier: Apache-2.0
// classic_view_api.cpp -- bloom_get_classic_view: where a classic filter's
// bits are and how a key's probes reach them, for bindings that answer (and
// add, bloom_view_added) in their own language.
#include "bloom/bloom.h"
#include "classic_bits.hpp"
#include "error.hpp"
#include "guard.hpp"
#include "handle.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
using bloom::capi::to_core;

extern "C" {

bloom_status bloom_get_classic_view(const bloom_filter *f, bloom_classic_view *out) {
  return guarded("bloom_get_classic_view", [&] {
    require_arg(f, "filter");
    require_arg(out, "out");
    if (out->struct_size < sizeof(bloom_classic_view))
      bloom::core::fail(bloom::core::Status::kInvalidArg,
                        "out->struct_size is smaller than this library's bloom_classic_view");
    const auto bits = bloom::core::classic_bits(*to_core(f));
    if (!bits)
      bloom::core::fail(bloom::core::Status::kUnsupported,
                        "only classic filters hashing with xxh3 have a classic view");
    out->words = bits->words;
    out->bits = bits->bits;
    out->seed = bits->seed;
    out->hashes = bits->hashes;
    out->enhanced = bits->enhanced ? 1 : 0;
    out->mixed = bits->mixed ? 1 : 0;
  });
}

}  // extern "C"
