// SPDX-License-Identifier: Apache-2.0
// classic_view_api.cpp -- bloom_get_classic_view: where a classic filter's
// bits are and how a key's probes reach them, for bindings that answer in
// their own language; and bloom_classic_view_added, which counts the adds
// its owner made there.
#include "bloom/bloom.h"
#include "classic_bits.hpp"
#include "error.hpp"
#include "guard.hpp"
#include "handle.hpp"
#include "view_adds.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
using bloom::capi::to_core;

namespace {

constexpr const char *kNoView = "only classic filters hashing with xxh3 have a classic view";

}  // namespace

extern "C" {

bloom_status bloom_get_classic_view(const bloom_filter *f, bloom_classic_view *out) {
  return guarded("bloom_get_classic_view", [&] {
    require_arg(f, "filter");
    require_arg(out, "out");
    if (out->struct_size < sizeof(bloom_classic_view))
      bloom::core::fail(bloom::core::Status::kInvalidArg,
                        "out->struct_size is smaller than this library's bloom_classic_view");
    const auto bits = bloom::core::classic_bits(*to_core(f));
    if (!bits) bloom::core::fail(bloom::core::Status::kUnsupported, kNoView);
    out->words = bits->words;
    out->bits = bits->bits;
    out->seed = bits->seed;
    out->hashes = bits->hashes;
    out->enhanced = bits->enhanced ? 1 : 0;
    out->mixed = bits->mixed ? 1 : 0;
  });
}

// A classic filter's plain add is "set the key's k bits, then
// ++keys_added" (ProbingArrayFilter::add, Filter::add_key): no other state
// to mirror, so the caller's own bit setting plus this count is exactly n
// bloom_add calls.
bloom_status bloom_classic_view_added(bloom_filter *f, uint64_t n) {
  return guarded("bloom_classic_view_added", [&] {
    require_arg(f, "filter");
    bloom::core::Filter &filter = *to_core(f);
    bloom::capi::record_view_adds(filter, n, bloom::core::classic_bits(filter).has_value(), kNoView);
  });
}

}  // extern "C"
