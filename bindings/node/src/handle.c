/* SPDX-License-Identifier: Apache-2.0 */
#include "handle.h"

#include <stdlib.h>

#include "errors.h"

typedef struct bk_handle {
  bloom_filter *filter;
} bk_handle;

static void finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  bk_handle *h = data;
  bloom_destroy(h->filter);
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
  bloom_destroy(h->filter);
  h->filter = NULL;
}
