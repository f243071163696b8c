/* SPDX-License-Identifier: Apache-2.0 */
#ifndef BLOOMKIT_NODE_OPTIONS_H
#define BLOOMKIT_NODE_OPTIONS_H

#include <bloom/bloom.h>
#include <node_api.h>

/* Read a plain object the JS layer validated (every bloom_options member
 * but struct_size, camelCase: {kind, capacity, fpRate, ...}; 64-bit members
 * as BigInt) into *o over bloom_options_init's defaults. */
int bk_options_get(napi_env env, napi_value v, bloom_options *o);
/* bloom_options_init's defaults as such an object. */
napi_value bk_options_defaults(napi_env env);

#endif
