/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The native half of bloomkit: one N-API function per C API call, taking a
 * filter handle (a JS External, handle.c) first. Argument shapes are checked
 * by the JS half (lib/), which is the public API; this file only converts
 * and reports C statuses as BloomError (errors.c).
 */
#include <node_api.h>
#include <stdlib.h>
#include <string.h>

#include "bloom_next.h"
#include "errors.h"
#include "handle.h"
#include "info.h"
#include "keys.h"
#include "options.h"

#define ARGS(n)                                           \
  size_t argc = (n);                                      \
  napi_value argv[(n) > 0 ? (n) : 1];                     \
  napi_get_cb_info(env, cbinfo, &argc, argv, NULL, NULL); \
  if (argc < (n)) return bk_throw_type(env, "bloomkit: missing argument")

static napi_value undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

static napi_value boolean(napi_env env, int b) {
  napi_value v;
  napi_get_boolean(env, b, &v);
  return v;
}

static napi_value number(napi_env env, double x) {
  napi_value v;
  napi_create_double(env, x, &v);
  return v;
}

static napi_value string(napi_env env, const char *s) {
  napi_value v;
  if (!s) return undefined(env);
  napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v);
  return v;
}

/* A path as a malloc'd C string; NULL (thrown) on a non-string. The JS half
 * refuses embedded NULs, which C would silently stop at. */
static char *path_of(napi_env env, napi_value v) {
  size_t n = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &n) != napi_ok) {
    bk_throw_type(env, "bloomkit: a path must be a string");
    return NULL;
  }
  char *p = malloc(n + 1);
  if (!p) {
    bk_throw_error(env, "bloomkit: out of memory");
    return NULL;
  }
  napi_get_value_string_utf8(env, v, p, n + 1, &n);
  return p;
}

static napi_value js_set_error_class(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  if (bk_set_error_class(env, argv[0]) != napi_ok)
    return bk_throw_error(env, "bloomkit: setErrorClass failed");
  return undefined(env);
}

static napi_value js_options_defaults(napi_env env, napi_callback_info cbinfo) {
  (void)cbinfo;
  return bk_options_defaults(env);
}

static napi_value js_create(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  bloomkit_options o;
  if (!bk_options_get(env, argv[0], &o)) return NULL;
  bloom_filter *f = NULL;
  bloom_status s = bloom_create((const bloom_options *)&o, &f);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "create");
  return bk_handle_new(env, f);
}

static napi_value js_close(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  bk_handle_close(env, argv[0]);
  return undefined(env);
}

static napi_value js_clone(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  bloom_filter *f = bk_handle_get(env, argv[0]), *copy = NULL;
  if (!f) return NULL;
  bloom_status s = bloom_clone(f, &copy);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "clone");
  return bk_handle_new(env, copy);
}

static napi_value js_clear(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  bloom_status s = bloom_clear(f);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "clear");
  return undefined(env);
}

/* ---- keys ---------------------------------------------------------------- */

static napi_value js_add(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  bk_key k;
  if (!f || !bk_key_get(env, argv[1], &k)) return NULL;
  bloom_status s = bloom_add(f, k.data, k.len);
  bk_key_release(&k);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "add");
  return undefined(env);
}

static napi_value js_query(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  bk_key k;
  if (!f || !bk_key_get(env, argv[1], &k)) return NULL;
  int r = bloom_query(f, k.data, k.len);
  bk_key_release(&k);
  if (r < 0) return bk_throw_status(env, r, "query");
  return boolean(env, r == 1);
}

static napi_value js_test_and_add(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  bk_key k;
  if (!f || !bk_key_get(env, argv[1], &k)) return NULL;
  int r = bloom_test_and_add(f, k.data, k.len);
  bk_key_release(&k);
  if (r < 0) return bk_throw_status(env, r, "testAndAdd");
  return boolean(env, r == 1);
}

static napi_value js_remove(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  bk_key k;
  if (!f || !bk_key_get(env, argv[1], &k)) return NULL;
  bloom_status s = bloom_remove(f, k.data, k.len);
  bk_key_release(&k);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "remove");
  return undefined(env);
}

static napi_value js_add_batch(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  bk_batch b;
  if (!bk_batch_get(env, argv[1], &b)) {
    bk_batch_release(&b);
    return NULL;
  }
  bloom_status s = bloom_add_batch(f, (const void *const *)b.ptrs, b.lens, b.n);
  bk_batch_release(&b);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "addBatch");
  return undefined(env);
}

/* Answers as a Uint8Array of 0/1 (one allocation); lib/ turns it into
 * booleans in JS, far cheaper than a napi_set_element call per key. */
static napi_value js_query_batch(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  bk_batch b;
  if (!bk_batch_get(env, argv[1], &b)) {
    bk_batch_release(&b);
    return NULL;
  }
  napi_value buffer, out;
  void *results = NULL;
  if (napi_create_arraybuffer(env, b.n, &results, &buffer) != napi_ok ||
      napi_create_typedarray(env, napi_uint8_array, b.n, buffer, 0, &out) != napi_ok) {
    bk_batch_release(&b);
    return NULL;
  }
  bloom_status s = bloom_query_batch(f, (const void *const *)b.ptrs, b.lens, b.n, results);
  bk_batch_release(&b);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "queryBatch");
  return out;
}

/* Packed batches: all keys' bytes in one byte view, their lengths in a
 * Uint32Array. lib/filter.js packs arrays of strings this way (one join and
 * one UTF-8 encoding in JS), which avoids the four N-API calls per key of
 * bk_batch_get: with those, a batch cost several times the C call per key. */
typedef struct packed {
  const void **ptrs;
  size_t *lens;
  size_t n;
} packed;

static int packed_get(napi_env env, napi_value bytes_v, napi_value lens_v, packed *p) {
  p->ptrs = NULL;
  p->lens = NULL;
  p->n = 0;
  bk_key bytes;
  napi_typedarray_type type;
  size_t n = 0;
  void *raw = NULL;
  bool is = false;
  if (napi_is_typedarray(env, lens_v, &is) != napi_ok || !is ||
      napi_get_typedarray_info(env, lens_v, &type, &n, &raw, NULL, NULL) != napi_ok ||
      type != napi_uint32_array)
    return bk_throw_type(env, "bloomkit: lengths must be a Uint32Array") != NULL;
  napi_valuetype t = napi_undefined;
  if (napi_typeof(env, bytes_v, &t) != napi_ok || t == napi_string || !bk_key_get(env, bytes_v, &bytes))
    return t == napi_string ? bk_throw_type(env, "bloomkit: packed keys must be bytes") != NULL : 0;
  const uint32_t *lens = raw;
  p->ptrs = malloc((n ? n : 1) * sizeof *p->ptrs);
  p->lens = malloc((n ? n : 1) * sizeof *p->lens);
  if (!p->ptrs || !p->lens) return bk_throw_error(env, "bloomkit: out of memory for a batch") != NULL;
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    if (lens[i] > bytes.len - at)
      return bk_throw_type(env, "bloomkit: key lengths run past the bytes") != NULL;
    p->ptrs[i] = (const char *)bytes.data + at;
    p->lens[i] = lens[i];
    at += lens[i];
  }
  if (at != bytes.len) return bk_throw_type(env, "bloomkit: key lengths do not add up to the bytes") != NULL;
  p->n = n;
  return 1;
}

static void packed_release(packed *p) {
  free(p->ptrs);
  free(p->lens);
}

static napi_value js_add_packed(napi_env env, napi_callback_info cbinfo) {
  ARGS(3);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  packed p;
  if (!packed_get(env, argv[1], argv[2], &p)) {
    packed_release(&p);
    return NULL;
  }
  bloom_status s = bloom_add_batch(f, (const void *const *)p.ptrs, p.lens, p.n);
  packed_release(&p);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "addBatch");
  return undefined(env);
}

static napi_value js_query_packed(napi_env env, napi_callback_info cbinfo) {
  ARGS(3);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  packed p;
  if (!packed_get(env, argv[1], argv[2], &p)) {
    packed_release(&p);
    return NULL;
  }
  napi_value buffer, out;
  void *results = NULL;
  if (napi_create_arraybuffer(env, p.n, &results, &buffer) != napi_ok ||
      napi_create_typedarray(env, napi_uint8_array, p.n, buffer, 0, &out) != napi_ok) {
    packed_release(&p);
    return NULL;
  }
  bloom_status s = bloom_query_batch(f, (const void *const *)p.ptrs, p.lens, p.n, results);
  packed_release(&p);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "queryBatch");
  return out;
}

/* ---- set operations -------------------------------------------------------- */

static napi_value js_merge(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *dst = bk_handle_get(env, argv[0]);
  if (!dst) return NULL;
  bloom_filter *src = bk_handle_get(env, argv[1]);
  if (!src) return NULL;
  bloom_status s = bloom_merge(dst, src);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "merge");
  return undefined(env);
}

static napi_value js_intersect(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *dst = bk_handle_get(env, argv[0]);
  if (!dst) return NULL;
  bloom_filter *src = bk_handle_get(env, argv[1]);
  if (!src) return NULL;
  bloom_status s = bloom_intersect(dst, src);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "intersect");
  return undefined(env);
}

/* ---- persistence ----------------------------------------------------------- */

static napi_value js_save(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  char *path = path_of(env, argv[1]);
  if (!path) return NULL;
  bloom_status s = bloom_save(f, path);
  free(path);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "save");
  return undefined(env);
}

typedef bloom_status (*opener)(const char *, bloom_filter **);

static napi_value open_path(napi_env env, napi_callback_info cbinfo, opener open, const char *what) {
  ARGS(1);
  char *path = path_of(env, argv[0]);
  if (!path) return NULL;
  bloom_filter *f = NULL;
  bloom_status s = open(path, &f);
  free(path);
  if (s != BLOOM_OK) return bk_throw_status(env, s, what);
  return bk_handle_new(env, f);
}

static napi_value js_load(napi_env env, napi_callback_info cbinfo) {
  return open_path(env, cbinfo, bloom_load, "load");
}

static napi_value js_map(napi_env env, napi_callback_info cbinfo) {
  return open_path(env, cbinfo, bloom_map, "map");
}

static napi_value js_serialized_size(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  size_t size = 0;
  bloom_status s = bloom_serialized_size(f, &size);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "serializedSize");
  return number(env, (double)size);
}

/* Straight into a new Buffer: no copy of the image. */
static napi_value js_serialize(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  size_t size = 0, written = 0;
  bloom_status s = bloom_serialized_size(f, &size);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "serialize");
  void *data = NULL;
  napi_value out;
  if (napi_create_buffer(env, size, &data, &out) != napi_ok) return NULL;
  s = bloom_serialize(f, data, size, &written);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "serialize");
  return out;
}

static napi_value js_deserialize(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  bk_key bytes;
  if (!bk_key_get(env, argv[0], &bytes)) return NULL;
  bloom_filter *f = NULL;
  bloom_status s = bloom_deserialize(bytes.data, bytes.len, &f);
  bk_key_release(&bytes);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "deserialize");
  return bk_handle_new(env, f);
}

/* ---- introspection ---------------------------------------------------------- */

static napi_value js_info(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  bloom_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  bloom_status s = bloom_get_info(f, &info);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "info");
  return bk_info_object(env, &info);
}

static napi_value js_stage_info(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  uint32_t stage = 0;
  if (napi_get_value_uint32(env, argv[1], &stage) != napi_ok)
    return bk_throw_type(env, "bloomkit: stage must be a number");
  bloom_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  bloom_status s = bloom_get_stage_info(f, stage, &info);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "stageInfo");
  return bk_info_object(env, &info);
}

static napi_value js_advance(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  if (!bloom_advance)
    return bk_throw_error(env, "bloomkit: this libbloomfilter has no bloom_advance (the window kind)");
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  uint64_t now = 0;
  bool lossless = false;
  if (napi_get_value_bigint_uint64(env, argv[1], &now, &lossless) != napi_ok || !lossless)
    return bk_throw_type(env, "bloomkit: nowMs must be a non-negative BigInt");
  bloom_status s = bloom_advance(f, now);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "advance");
  return undefined(env);
}

static napi_value js_optimal_params(napi_env env, napi_callback_info cbinfo) {
  ARGS(2);
  uint64_t n = 0, bits = 0;
  uint32_t hashes = 0;
  double p = 0;
  bool lossless = false;
  if (napi_get_value_bigint_uint64(env, argv[0], &n, &lossless) != napi_ok || !lossless ||
      napi_get_value_double(env, argv[1], &p) != napi_ok)
    return bk_throw_type(env, "bloomkit: optimalParams(n: BigInt, p: number)");
  bloom_status s = bloom_optimal_params(n, p, &bits, &hashes);
  if (s != BLOOM_OK) return bk_throw_status(env, s, "optimalParams");
  napi_value obj;
  napi_create_object(env, &obj);
  napi_set_named_property(env, obj, "bits", number(env, (double)bits));
  napi_set_named_property(env, obj, "hashes", number(env, hashes));
  return obj;
}

static napi_value js_expected_fp_rate(napi_env env, napi_callback_info cbinfo) {
  ARGS(3);
  uint64_t n = 0, bits = 0;
  uint32_t hashes = 0;
  bool l1 = false, l2 = false;
  if (napi_get_value_bigint_uint64(env, argv[0], &n, &l1) != napi_ok ||
      napi_get_value_bigint_uint64(env, argv[1], &bits, &l2) != napi_ok || !l1 || !l2 ||
      napi_get_value_uint32(env, argv[2], &hashes) != napi_ok)
    return bk_throw_type(env, "bloomkit: expectedFpRate(n: BigInt, bits: BigInt, hashes: number)");
  return number(env, bloom_expected_fp_rate(n, bits, hashes));
}

static napi_value js_strerror(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  int32_t status = 0;
  napi_get_value_int32(env, argv[0], &status);
  return string(env, bloom_strerror(status));
}

static napi_value js_kind_name(napi_env env, napi_callback_info cbinfo) {
  ARGS(1);
  int32_t code = 0;
  napi_get_value_int32(env, argv[0], &code);
  return string(env, bloom_kind_name(code));
}

static napi_value js_library(napi_env env, napi_callback_info cbinfo) {
  (void)cbinfo;
  napi_value obj;
  napi_create_object(env, &obj);
  napi_set_named_property(env, obj, "version", string(env, bloom_version_string()));
  napi_set_named_property(env, obj, "versionNumber", number(env, bloom_version_number()));
  napi_set_named_property(env, obj, "optionsSize", number(env, (double)bloom_options_size()));
  napi_set_named_property(env, obj, "infoSize", number(env, (double)bloom_info_size()));
  napi_set_named_property(env, obj, "bindingOptionsSize", number(env, (double)sizeof(bloomkit_options)));
  napi_set_named_property(env, obj, "hasAdvance", boolean(env, bloom_advance != NULL));
  return obj;
}

static napi_value init(napi_env env, napi_value exports) {
  static const struct {
    const char *name;
    napi_callback fn;
  } table[] = {
      {"setErrorClass", js_set_error_class},
      {"optionsDefaults", js_options_defaults},
      {"create", js_create},
      {"close", js_close},
      {"clone", js_clone},
      {"clear", js_clear},
      {"add", js_add},
      {"query", js_query},
      {"testAndAdd", js_test_and_add},
      {"remove", js_remove},
      {"addBatch", js_add_batch},
      {"queryBatch", js_query_batch},
      {"addPacked", js_add_packed},
      {"queryPacked", js_query_packed},
      {"merge", js_merge},
      {"intersect", js_intersect},
      {"save", js_save},
      {"load", js_load},
      {"map", js_map},
      {"serializedSize", js_serialized_size},
      {"serialize", js_serialize},
      {"deserialize", js_deserialize},
      {"info", js_info},
      {"stageInfo", js_stage_info},
      {"advance", js_advance},
      {"optimalParams", js_optimal_params},
      {"expectedFpRate", js_expected_fp_rate},
      {"strerror", js_strerror},
      {"kindName", js_kind_name},
      {"library", js_library},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    napi_value fn;
    if (napi_create_function(env, table[i].name, NAPI_AUTO_LENGTH, table[i].fn, NULL, &fn) != napi_ok ||
        napi_set_named_property(env, exports, table[i].name, fn) != napi_ok)
      return NULL;
  }
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
