/* SPDX-License-Identifier: Apache-2.0 */
#include "options.h"

#include <string.h>

#include "errors.h"

static void init(bloomkit_options *o) {
  memset(o, 0, sizeof *o);
  bloom_options_init((bloom_options *)o);  // writes at most its own, smaller or equal, layout
  o->struct_size = sizeof *o;
  o->window_ms = 0;
}

static int get_u64(napi_env env, napi_value obj, const char *name, uint64_t *out) {
  napi_value v;
  bool lossless = false;
  if (napi_get_named_property(env, obj, name, &v) != napi_ok ||
      napi_get_value_bigint_uint64(env, v, out, &lossless) != napi_ok || !lossless) {
    bk_throw_type(env, "bloomkit: internal options member is not a uint64 BigInt");
    return 0;
  }
  return 1;
}

static int get_u32(napi_env env, napi_value obj, const char *name, uint32_t *out) {
  napi_value v;
  if (napi_get_named_property(env, obj, name, &v) != napi_ok ||
      napi_get_value_uint32(env, v, out) != napi_ok) {
    bk_throw_type(env, "bloomkit: internal options member is not a number");
    return 0;
  }
  return 1;
}

static int get_f64(napi_env env, napi_value obj, const char *name, double *out) {
  napi_value v;
  if (napi_get_named_property(env, obj, name, &v) != napi_ok ||
      napi_get_value_double(env, v, out) != napi_ok) {
    bk_throw_type(env, "bloomkit: internal options member is not a number");
    return 0;
  }
  return 1;
}

int bk_options_get(napi_env env, napi_value v, bloomkit_options *o) {
  init(o);
  uint32_t kind = 0, hash = 0;
  int ok = get_u32(env, v, "kind", &kind) && get_u64(env, v, "capacity", &o->capacity) &&
           get_f64(env, v, "fp_rate", &o->fp_rate) && get_u32(env, v, "hash", &hash) &&
           get_u64(env, v, "seed", &o->seed) && get_u32(env, v, "flags", &o->flags) &&
           get_u64(env, v, "bits", &o->bits) && get_u32(env, v, "hashes", &o->hashes) &&
           get_f64(env, v, "growth", &o->growth) && get_f64(env, v, "tightening", &o->tightening) &&
           get_u32(env, v, "counter_bits", &o->counter_bits) && get_u64(env, v, "window_ms", &o->window_ms);
  o->kind = (int32_t)kind;
  o->hash = (int32_t)hash;
  return ok;
}

static void set_u64(napi_env env, napi_value obj, const char *name, uint64_t x) {
  napi_value v;
  napi_create_bigint_uint64(env, x, &v);
  napi_set_named_property(env, obj, name, v);
}

static void set_f64(napi_env env, napi_value obj, const char *name, double x) {
  napi_value v;
  napi_create_double(env, x, &v);
  napi_set_named_property(env, obj, name, v);
}

napi_value bk_options_defaults(napi_env env) {
  bloomkit_options o;
  init(&o);
  napi_value obj;
  napi_create_object(env, &obj);
  set_f64(env, obj, "kind", o.kind);
  set_u64(env, obj, "capacity", o.capacity);
  set_f64(env, obj, "fp_rate", o.fp_rate);
  set_f64(env, obj, "hash", o.hash);
  set_u64(env, obj, "seed", o.seed);
  set_f64(env, obj, "flags", o.flags);
  set_u64(env, obj, "bits", o.bits);
  set_f64(env, obj, "hashes", o.hashes);
  set_f64(env, obj, "growth", o.growth);
  set_f64(env, obj, "tightening", o.tightening);
  set_f64(env, obj, "counter_bits", o.counter_bits);
  set_u64(env, obj, "window_ms", o.window_ms);
  return obj;
}
