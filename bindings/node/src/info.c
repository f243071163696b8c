/* SPDX-License-Identifier: Apache-2.0 */
#include "info.h"

#include "layout.h"

static void put(napi_env env, napi_value obj, const char *name, napi_value v) {
  napi_set_named_property(env, obj, name, v);
}

static napi_value text(napi_env env, const char *s) {
  napi_value v;
  napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v);
  return v;
}

/* The library's name of a kind or hash, or its number when the library has
 * no name for it. */
static napi_value name_or_code(napi_env env, const char *name, int32_t code) {
  napi_value v;
  if (name) return text(env, name);
  napi_create_int32(env, code, &v);
  return v;
}

napi_value bk_info_object(napi_env env, const bloom_info *in) {
  napi_value obj, v, flags;
  napi_create_object(env, &obj);
  /* Every member as a Number under its camelCase name; then those with a
   * richer JS form. */
  for (size_t i = 0; i < bk_info_members_count; i++)
    put(env, obj, bk_info_members[i].name, bk_member_get(env, in, &bk_info_members[i], 0));
  put(env, obj, "kind", name_or_code(env, bloom_kind_name(in->kind), in->kind));
  put(env, obj, "hash", name_or_code(env, bloom_hash_name(in->hash), in->hash));
  napi_create_bigint_uint64(env, in->seed, &v);
  put(env, obj, "seed", v);
  napi_create_array(env, &flags);
  uint32_t n = 0;
  for (size_t i = 0; i < bk_flags_count; i++)
    if (in->flags & bk_flags[i].bit) napi_set_element(env, flags, n++, text(env, bk_flags[i].name));
  put(env, obj, "flags", flags);
  napi_create_uint32(env, in->flags, &v);
  put(env, obj, "flagBits", v);
  napi_get_boolean(env, in->read_only != 0, &v);
  put(env, obj, "readOnly", v);
  return obj;
}
