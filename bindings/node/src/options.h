/* SPDX-License-Identifier: Apache-2.0 */
#ifndef BLOOMKIT_NODE_OPTIONS_H
#define BLOOMKIT_NODE_OPTIONS_H

#include <node_api.h>

#include "bloom_next.h"

/* Read a plain object the JS layer validated ({kind, capacity, fp_rate, hash,
 * seed, flags, bits, hashes, growth, tightening, counter_bits, window_ms};
 * 64-bit members as BigInt) into *o over bloom_options_init's defaults. */
int bk_options_get(napi_env env, napi_value v, bloomkit_options *o);
/* bloom_options_init's defaults as such an object. */
napi_value bk_options_defaults(napi_env env);

#endif
