/* SPDX-License-Identifier: Apache-2.0 */
/* Throwing JavaScript errors: BloomError for a C status, TypeError/Error for
 * misuse the binding itself detects. Every function returns NULL so a caller
 * can `return bk_throw_status(...)`. */
#ifndef BLOOMKIT_NODE_ERRORS_H
#define BLOOMKIT_NODE_ERRORS_H

#include <node_api.h>

/* Remember the JS class BloomError(status, message) for this environment. */
napi_status bk_set_error_class(napi_env env, napi_value ctor);
/* Throw BloomError(status, "<operation>: <bloom_last_error() or strerror>"). */
napi_value bk_throw_status(napi_env env, int status, const char *operation);
napi_value bk_throw_type(napi_env env, const char *message);
napi_value bk_throw_error(napi_env env, const char *message);

#endif
