/* SPDX-License-Identifier: Apache-2.0 */
/* bloom_options and bloom_info member by member, as tables a loop converts
 * to and from JS objects: the tables (layout_gen.c) are generated from
 * bloom.h by scripts/gen_bindings_layout.py, so a member the header gains
 * reaches JS without an edit here. */
#ifndef BLOOMKIT_NODE_LAYOUT_H
#define BLOOMKIT_NODE_LAYOUT_H

#include <bloom/bloom.h>
#include <node_api.h>
#include <stddef.h>
#include <stdint.h>

typedef enum bk_ctype { BK_I32, BK_U16, BK_U32, BK_U64, BK_F64 } bk_ctype;

typedef struct bk_member {
  const char *name; /* the JS name: camelCase of the C member's */
  size_t offset;
  bk_ctype type;
} bk_member;

typedef struct bk_bit {
  const char *name; /* the C name's suffix, lower case ("split_block") */
  uint32_t bit;
} bk_bit;

/* Every member but struct_size, in header order. */
extern const bk_member bk_options_members[];
extern const size_t bk_options_members_count;
extern const bk_member bk_info_members[];
extern const size_t bk_info_members_count;
/* BLOOM_FLAG_* by name. */
extern const bk_bit bk_flags[];
extern const size_t bk_flags_count;

/* The member of the struct at base as a JS value: a BigInt for 64-bit
 * integers when bigint is set, else a Number (exact below 2^53). */
napi_value bk_member_get(napi_env env, const void *base, const bk_member *m, int bigint);
/* Store v (a BigInt for 64-bit integers, else a Number) into the member;
 * 0 with a TypeError thrown when v is not such a value. */
int bk_member_set(napi_env env, void *base, const bk_member *m, napi_value v);

#endif
