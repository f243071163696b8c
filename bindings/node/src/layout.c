/* SPDX-License-Identifier: Apache-2.0 */
#include "layout.h"

#include "errors.h"

/* The types other than BK_U64 and BK_F64 are integers of at most 32 bits,
 * which an int64_t holds exactly. */
static int64_t small_int_at(const char *p, bk_ctype type) {
  if (type == BK_I32) return *(const int32_t *)p;
  if (type == BK_U16) return *(const uint16_t *)p;
  return *(const uint32_t *)p;
}

napi_value bk_member_get(napi_env env, const void *base, const bk_member *m, int bigint) {
  const char *p = (const char *)base + m->offset;
  napi_value v = NULL;
  if (m->type == BK_U64 && bigint)
    napi_create_bigint_uint64(env, *(const uint64_t *)p, &v);
  else if (m->type == BK_U64)
    napi_create_double(env, (double)*(const uint64_t *)p, &v);
  else if (m->type == BK_F64)
    napi_create_double(env, *(const double *)p, &v);
  else
    napi_create_int64(env, small_int_at(p, m->type), &v);
  return v;
}

int bk_member_set(napi_env env, void *base, const bk_member *m, napi_value v) {
  char *p = (char *)base + m->offset;
  bool lossless = false;
  int64_t i = 0; /* N-API saturates; the casts below wrap, never overflow */
  if (m->type == BK_U64) {
    if (napi_get_value_bigint_uint64(env, v, (uint64_t *)p, &lossless) == napi_ok && lossless) return 1;
    bk_throw_type(env, "bloomkit: internal options member is not a uint64 BigInt");
    return 0;
  }
  if ((m->type == BK_F64 ? napi_get_value_double(env, v, (double *)p) : napi_get_value_int64(env, v, &i)) !=
      napi_ok) {
    bk_throw_type(env, "bloomkit: internal options member is not a number");
    return 0;
  }
  if (m->type == BK_I32)
    *(int32_t *)p = (int32_t)(uint32_t)i;
  else if (m->type == BK_U16)
    *(uint16_t *)p = (uint16_t)i;
  else if (m->type == BK_U32)
    *(uint32_t *)p = (uint32_t)i;
  return 1;
}
