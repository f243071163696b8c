// SPDX-License-Identifier: Apache-2.0
// filter_api.cpp -- the C entry points for creating, filling, querying and
// combining filters. Each one checks its pointers, then runs the core inside
// guarded() so that no exception crosses into C.
#include <algorithm>
#include <cstring>

#include "bloom/bloom.h"
#include "c_options.hpp"
#include "caller_info.hpp"
#include "configure.hpp"
#include "guard.hpp"
#include "handle.hpp"
#include "kinds/registry.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
using bloom::capi::to_core;
using bloom::capi::to_handle;
namespace core = bloom::core;

namespace {

// The smallest bloom_options a caller may pass: up to and including fp_rate.
constexpr size_t kMinOptionsSize = offsetof(bloom_options, fp_rate) + sizeof(double);

void require_key(const void *key, size_t len) {
  if (key == nullptr && len != 0) core::fail(core::Status::kInvalidArg, "key is NULL with a non-zero length");
}

// Runs a query-like body returning 0/1, or a negative status on failure.
template <typename Body>
int answer(const char *function, Body &&body) noexcept {
  int result = 0;
  const bloom_status s = guarded(function, [&] { result = body() ? 1 : 0; });
  return s == BLOOM_OK ? result : s;
}

// bloom_query's error path, out of line and cold: kept inline, its string
// building made the hot path save four registers and reserve a stack frame
// on every call. (Outside the extern "C" block: inside it, GCC gives even an
// unnamed namespace's function a global C symbol in the static library.)
[[gnu::noinline, gnu::cold]] int query_argument_error(const bloom_filter *f, const void *key, size_t len) {
  return guarded("bloom_query", [&] {
    require_arg(f, "filter");
    require_key(key, len);
  });
}

// bloom_add's argument errors, out of line and cold like bloom_query's.
[[gnu::noinline, gnu::cold]] bloom_status add_argument_error(const bloom_filter *f, const void *key,
                                                             size_t len) {
  return guarded("bloom_add", [&] {
    require_arg(f, "filter");
    require_key(key, len);
  });
}

}  // namespace

extern "C" {

// The 0.2.0 layout: every member before window_ms (see bloom.h). The name is
// in parentheses because bloom.h defines a macro of the same name.
void(bloom_options_init)(bloom_options *o) {
  bloom_options_init_sized(o, offsetof(bloom_options, window_ms));
}

void bloom_options_init_sized(bloom_options *o, size_t size) {
  if (o == nullptr || size < sizeof(size_t)) return;
  const bloom_options full = bloom::capi::to_c_options(core::Options{});
  const size_t n = std::min(size, sizeof full);
  std::memcpy(o, &full, n);
  o->struct_size = n;
}

size_t bloom_options_size(void) { return sizeof(bloom_options); }

bloom_status bloom_create(const bloom_options *o, bloom_filter **out) {
  if (out != nullptr) *out = nullptr;
  return guarded("bloom_create", [&] {
    require_arg(out, "out");
    require_arg(o, "options");
    if (o->struct_size < kMinOptionsSize)
      core::fail(core::Status::kInvalidArg,
                 "options.struct_size is too small; call bloom_options_init first");
    // Read only what the caller's struct covers; default the rest.
    bloom_options full = bloom::capi::to_c_options(core::Options{});
    std::memcpy(&full, o, std::min(o->struct_size, sizeof full));
    const core::FilterConfig config = core::configure(bloom::capi::to_core_options(full));
    core::validate_config(config);
    *out = to_handle(core::create_filter(config).release());
  });
}

void bloom_destroy(bloom_filter *f) { delete to_core(f); }

bloom_status bloom_clone(const bloom_filter *f, bloom_filter **out) {
  if (out != nullptr) *out = nullptr;
  return guarded("bloom_clone", [&] {
    require_arg(f, "filter");
    require_arg(out, "out");
    *out = to_handle(to_core(f)->clone().release());
  });
}

bloom_status bloom_clear(bloom_filter *f) {
  return guarded("bloom_clear", [&] {
    require_arg(f, "filter");
    to_core(f)->clear();
  });
}

bloom_status bloom_add(bloom_filter *f, const void *key, size_t len) {
  // The hot path, as bloom_query's: two checks, then the kind's key-level
  // add, which cannot throw. Filters without one (concurrent, read-only,
  // scalable, window) take the guarded add_key. The general path (the
  // guard, a virtual add_key, the read-only check, the hasher's switch, a
  // virtual add and the counter's branch) cost three queries' time
  // (single_key_ab).
  if (f == nullptr || (key == nullptr && len != 0)) [[unlikely]]
    return add_argument_error(f, key, len);
  core::Filter *filter = to_core(f);
  if (filter->has_key_add()) [[likely]]
    return static_cast<bloom_status>(filter->add_key_installed(key, len));  // a jump
  return guarded("bloom_add", [&] { filter->add_key(key, len); });
}

int bloom_query(const bloom_filter *f, const void *key, size_t len) {
  // The hot path: two checks, then one indirect call into the kind's key
  // path (it cannot throw: queries allocate nothing and take no lock).
  if (f == nullptr || (key == nullptr && len != 0)) [[unlikely]]
    return query_argument_error(f, key, len);
  return to_core(f)->query_key(key, len);
}

int bloom_test_and_add(bloom_filter *f, const void *key, size_t len) {
  return answer("bloom_test_and_add", [&] {
    require_arg(f, "filter");
    require_key(key, len);
    return to_core(f)->test_and_add_key(key, len);
  });
}

bloom_status bloom_remove(bloom_filter *f, const void *key, size_t len) {
  return guarded("bloom_remove", [&] {
    require_arg(f, "filter");
    require_key(key, len);
    to_core(f)->remove_key(key, len);
  });
}

bloom_status bloom_advance(bloom_filter *f, uint64_t now_ms) {
  return guarded("bloom_advance", [&] {
    require_arg(f, "filter");
    to_core(f)->advance(now_ms);
  });
}

bloom_status bloom_test_and_add_batch(bloom_filter *f, const void *const *keys, const size_t *lens, size_t n,
                                      uint8_t *results) {
  return guarded("bloom_test_and_add_batch", [&] {
    require_arg(f, "filter");
    to_core(f)->test_and_add_keys(keys, lens, n, results);
  });
}

bloom_status bloom_add_batch(bloom_filter *f, const void *const *keys, const size_t *lens, size_t n) {
  return guarded("bloom_add_batch", [&] {
    require_arg(f, "filter");
    to_core(f)->add_keys(keys, lens, n);
  });
}

bloom_status bloom_query_batch(const bloom_filter *f, const void *const *keys, const size_t *lens, size_t n,
                               uint8_t *results) {
  return guarded("bloom_query_batch", [&] {
    require_arg(f, "filter");
    to_core(f)->query_keys(keys, lens, n, results);
  });
}

bloom_status bloom_merge(bloom_filter *dst, const bloom_filter *src) {
  return guarded("bloom_merge", [&] {
    require_arg(dst, "dst");
    require_arg(src, "src");
    to_core(dst)->merge(*to_core(src));
  });
}

bloom_status bloom_intersect(bloom_filter *dst, const bloom_filter *src) {
  return guarded("bloom_intersect", [&] {
    require_arg(dst, "dst");
    require_arg(src, "src");
    to_core(dst)->intersect(*to_core(src));
  });
}

bloom_status bloom_get_info(const bloom_filter *f, bloom_info *out) {
  return guarded("bloom_get_info", [&] {
    require_arg(f, "filter");
    require_arg(out, "out");
    bloom::capi::fill_caller_info(out, [&](core::Info &info) { to_core(f)->get_info(info); });
  });
}

size_t bloom_info_size(void) { return sizeof(bloom_info); }

}  // extern "C"
