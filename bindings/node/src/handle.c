/* SPDX-License-Identifier: Apache-2.0 */
#include "handle.h"

#include <stdint.h>
#include <stdlib.h>

#include "errors.h"

typedef struct bk_handle {
  bloom_filter *filter;
  int64_t reported; /* bytes told to V8 (napi_adjust_external_memory) */
} bk_handle;

/* V8 sees only the few bytes of an External; a filter's arrays live in C.
 * Told of them, the garbage collector weighs a dropped, unclosed filter by
 * its real size, so a service that forgets close() feels the pressure and
 * finalizes it. The size is the filter's image (bloom_serialized_size:
 * its arrays plus a header), read without a pass over the bits; a scalable
 * filter's later stages are not added. */
static void report(napi_env env, bk_handle *h, bloom_filter *f) {
  size_t size = 0;
  int64_t total = 0;
  if (bloom_serialized_size(f, &size) != BLOOM_OK || size > INT64_MAX) return;
  if (napi_adjust_external_memory(env, (int64_t)size, &total) == napi_ok) h->reported = (int64_t)size;
}

static void release(napi_env env, bk_handle *h) {
  int64_t total = 0;
  bloom_destroy(h->filter);
  h->filter = NULL;
  if (h->reported != 0) napi_adjust_external_memory(env, -h->reported, &total);
  h->reported = 0;
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  bk_handle *h = data;
  release(env, h);
  free(h);
}

napi_value bk_handle_new(napi_env env, bloom_filter *f) {
  bk_handle *h = malloc(sizeof *h);
  napi_value out = NULL;
  if (!h) {
    bloom_destroy(f);
    return bk_throw_error(env, "bloomkit: out of memory for a handle");
  }
  h->filter = f;
  h->reported = 0;
  report(env, h, f);
  if (napi_create_external(env, h, finalize, NULL, &out) != napi_ok) {
    finalize(env, h, NULL);
    return NULL;
  }
  return out;
}

static bk_handle *handle_of(napi_env env, napi_value v) {
  void *data = NULL;
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_external ||
      napi_get_value_external(env, v, &data) != napi_ok)
    return NULL;
  return data;
}

bloom_filter *bk_handle_get(napi_env env, napi_value v) {
  bk_handle *h = handle_of(env, v);
  if (!h) {
    bk_throw_type(env, "bloomkit: not a filter handle");
    return NULL;
  }
  if (!h->filter) bk_throw_error(env, "bloomkit: the filter is closed");
  return h->filter;
}

void bk_handle_close(napi_env env, napi_value v) {
  bk_handle *h = handle_of(env, v);
  if (!h) return;
  release(env, h);
}
