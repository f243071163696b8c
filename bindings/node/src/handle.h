/* SPDX-License-Identifier: Apache-2.0 */
/* A bloom_filter* owned by a JS External. close() destroys it and sets it to
 * NULL; the External's finalizer destroys it if close() never ran, so a
 * filter is freed exactly once whichever comes first. */
#ifndef BLOOMKIT_NODE_HANDLE_H
#define BLOOMKIT_NODE_HANDLE_H

#include <bloom/bloom.h>
#include <node_api.h>

/* Wrap f (owned from now on) in a new External; on failure f is destroyed. */
napi_value bk_handle_new(napi_env env, bloom_filter *f);
/* The live filter of an External; throws and returns NULL if closed or not one. */
bloom_filter *bk_handle_get(napi_env env, napi_value v);
/* Destroy the filter now; a second call does nothing. */
void bk_handle_close(napi_env env, napi_value v);

#endif
