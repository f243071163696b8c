/* SPDX-License-Identifier: Apache-2.0 */
#include "info.h"

static void put(napi_env env, napi_value obj, const char *name, napi_value v) {
  napi_set_named_property(env, obj, name, v);
}

static void put_num(napi_env env, napi_value obj, const char *name, double x) {
  napi_value v;
  napi_create_double(env, x, &v);
  put(env, obj, name, v);
}

static void put_name(napi_env env, napi_value obj, const char *name, const char *text, int code) {
  napi_value v;
  if (text)
    napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &v);
  else  // a value newer than this library's name table
    napi_create_int32(env, code, &v);
  put(env, obj, name, v);
}

napi_value bk_info_object(napi_env env, const bloom_info *in) {
  napi_value obj, v, flags;
  napi_create_object(env, &obj);
  put_name(env, obj, "kind", in->kind == 6 ? "window" : bloom_kind_name(in->kind), in->kind);
  put_name(env, obj, "hash", bloom_hash_name(in->hash), in->hash);
  napi_create_bigint_uint64(env, in->seed, &v);
  put(env, obj, "seed", v);
  napi_create_array(env, &flags);
  uint32_t n = 0;
  if (in->flags & BLOOM_FLAG_CONCURRENT) {
    napi_create_string_utf8(env, "concurrent", NAPI_AUTO_LENGTH, &v);
    napi_set_element(env, flags, n++, v);
  }
  if (in->flags & BLOOM_FLAG_PLAIN_DOUBLE_HASHING) {
    napi_create_string_utf8(env, "plain_double_hashing", NAPI_AUTO_LENGTH, &v);
    napi_set_element(env, flags, n++, v);
  }
  if (in->flags & 0x4u) { /* BLOOM_FLAG_SPLIT_BLOCK (0.3.0): older headers lack the name */
    napi_create_string_utf8(env, "split_block", NAPI_AUTO_LENGTH, &v);
    napi_set_element(env, flags, n++, v);
  }
  put(env, obj, "flags", flags);
  put_num(env, obj, "flagBits", in->flags);
  put_num(env, obj, "hashes", in->hashes);
  put_num(env, obj, "bits", (double)in->bits);
  put_num(env, obj, "bytes", (double)in->bytes);
  put_num(env, obj, "capacity", (double)in->capacity);
  put_num(env, obj, "fpRate", in->fp_rate);
  put_num(env, obj, "keysAdded", (double)in->keys_added);
  put_num(env, obj, "estimatedKeys", in->estimated_keys);
  put_num(env, obj, "fillRatio", in->fill_ratio);
  put_num(env, obj, "expectedFpRate", in->expected_fp_rate);
  put_num(env, obj, "stages", in->stages);
  put_num(env, obj, "counterBits", in->counter_bits);
  put_num(env, obj, "growth", in->growth);
  put_num(env, obj, "tightening", in->tightening);
  napi_get_boolean(env, in->read_only != 0, &v);
  put(env, obj, "readOnly", v);
  put_num(env, obj, "formatMajor", in->format_major);
  put_num(env, obj, "formatMinor", in->format_minor);
  return obj;
}
