/* SPDX-License-Identifier: Apache-2.0 */
#ifndef BLOOMKIT_NODE_INFO_H
#define BLOOMKIT_NODE_INFO_H

#include <bloom/bloom.h>
#include <node_api.h>

/* bloom_info as a JS object with camelCase members (seed as a BigInt, the
 * other 64-bit counts as Numbers, exact below 2^53). */
napi_value bk_info_object(napi_env env, const bloom_info *info);

#endif
