/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The native half of bloomkit: N-API functions over the C API, taking a
 * filter handle (a JS External, handle.c) first. Argument shapes are checked
 * by the JS half (lib/), which is the public API; this file only converts
 * and reports C statuses as BloomError (errors.c).
 *
 * Every function is one row of the table at the end: its JS name, a runner
 * for its shape (a key call, a batch, two filters, a path, ...), and the C
 * call the runner makes. One entry point (dispatch) takes the arguments and
 * hands the row to its runner.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <node_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "handle.h"
#include "info.h"
#include "keys.h"
#include "options.h"

typedef struct op op;
/* argv holds op->argc arguments (dispatch checked that many were given). */
typedef napi_value (*runner)(napi_env env, const op *o, napi_value *argv);

struct op {
  const char *name; /* the JS name */
  runner run;
  size_t argc;
  const char *what; /* the operation errors name; NULL: the JS name */
  int answers;      /* key and batch calls: return the answers */
  int packed;       /* batch calls: packed bytes and lengths, not an array */
  int (*key)(bloom_filter *f, const void *key, size_t len);
  bloom_status (*pair)(bloom_filter *dst, const bloom_filter *src);
  bloom_status (*open)(const char *path, bloom_filter **out);
  bloom_status (*self)(bloom_filter *f);
};

enum { MAX_ARGS = 3 };

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

/* undefined after a successful call, else the BloomError thrown. */
static napi_value done(napi_env env, const op *o, int status) {
  if (status < 0) return bk_throw_status(env, status, o->what ? o->what : o->name);
  return undefined(env);
}

/* A filter handle made from the out-parameter of a successful call. */
static napi_value made(napi_env env, const op *o, int status, bloom_filter *f) {
  if (status < 0) return bk_throw_status(env, status, o->what ? o->what : o->name);
  return bk_handle_new(env, f);
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

/* A new Uint8Array of n bytes (one allocation) for a batch's answers; lib/
 * turns it into booleans in JS, far cheaper than a napi_set_element call
 * per key. */
static int answers_new(napi_env env, size_t n, void **bytes, napi_value *out) {
  napi_value buffer;
  return napi_create_arraybuffer(env, n, bytes, &buffer) == napi_ok &&
         napi_create_typedarray(env, napi_uint8_array, n, buffer, 0, out) == napi_ok;
}

/* ---- life cycle ------------------------------------------------------------- */

static napi_value run_set_error_class(napi_env env, const op *o, napi_value *argv) {
  (void)o;
  if (bk_set_error_class(env, argv[0]) != napi_ok)
    return bk_throw_error(env, "bloomkit: setErrorClass failed");
  return undefined(env);
}

static napi_value run_options_defaults(napi_env env, const op *o, napi_value *argv) {
  (void)o;
  (void)argv;
  return bk_options_defaults(env);
}

static napi_value run_create(napi_env env, const op *o, napi_value *argv) {
  bloom_options opts;
  if (!bk_options_get(env, argv[0], &opts)) return NULL;
  bloom_filter *f = NULL;
  bloom_status s = bloom_create(&opts, &f); /* before made() reads f */
  return made(env, o, s, f);
}

static napi_value run_close(napi_env env, const op *o, napi_value *argv) {
  (void)o;
  bk_handle_close(env, argv[0]);
  return undefined(env);
}

static napi_value run_clone(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *f = bk_handle_get(env, argv[0]), *copy = NULL;
  if (!f) return NULL;
  bloom_status s = bloom_clone(f, &copy); /* before made() reads copy */
  return made(env, o, s, copy);
}

/* A call on the filter alone (clear). */
static napi_value run_self(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  return done(env, o, o->self(f));
}

/* ---- keys ------------------------------------------------------------------- */

static int c_add(bloom_filter *f, const void *key, size_t len) { return bloom_add(f, key, len); }
static int c_query(bloom_filter *f, const void *key, size_t len) { return bloom_query(f, key, len); }
static int c_remove(bloom_filter *f, const void *key, size_t len) { return bloom_remove(f, key, len); }

/* One key: add, query, testAndAdd, remove. */
static napi_value run_key(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *f = bk_handle_get(env, argv[0]);
  bk_key k;
  if (!f || !bk_key_get(env, argv[1], &k)) return NULL;
  int r = o->key(f, k.data, k.len);
  bk_key_release(&k);
  if (r < 0 || !o->answers) return done(env, o, r);
  return boolean(env, r == 1);
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

/* A batch of keys, from an array (bk_batch_get) or packed: added, or
 * queried into a Uint8Array of 0/1. */
static napi_value run_batch(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  bk_batch b = {0};
  packed p = {0};
  int ok = o->packed ? packed_get(env, argv[1], argv[2], &p) : bk_batch_get(env, argv[1], &b);
  const void *const *ptrs = o->packed ? p.ptrs : (const void *const *)b.ptrs;
  const size_t *lens = o->packed ? p.lens : b.lens;
  size_t n = o->packed ? p.n : b.n;
  napi_value out = NULL;
  void *results = NULL;
  bloom_status s = BLOOM_OK;
  if (ok && o->answers) ok = answers_new(env, n, &results, &out);
  if (ok) s = o->answers ? bloom_query_batch(f, ptrs, lens, n, results) : bloom_add_batch(f, ptrs, lens, n);
  if (o->packed)
    packed_release(&p);
  else
    bk_batch_release(&b);
  if (!ok) return NULL;
  if (s != BLOOM_OK || !o->answers) return done(env, o, s);
  return out;
}

/* ---- set operations ----------------------------------------------------------- */

static napi_value run_pair(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *dst = bk_handle_get(env, argv[0]);
  if (!dst) return NULL;
  bloom_filter *src = bk_handle_get(env, argv[1]);
  if (!src) return NULL;
  return done(env, o, o->pair(dst, src));
}

/* ---- persistence -------------------------------------------------------------- */

static napi_value run_save(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  char *path = path_of(env, argv[1]);
  if (!path) return NULL;
  bloom_status s = bloom_save(f, path);
  free(path);
  return done(env, o, s);
}

/* load, map. */
static napi_value run_open(napi_env env, const op *o, napi_value *argv) {
  char *path = path_of(env, argv[0]);
  if (!path) return NULL;
  bloom_filter *f = NULL;
  bloom_status s = o->open(path, &f);
  free(path);
  return made(env, o, s, f);
}

static napi_value run_serialized_size(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  size_t size = 0;
  bloom_status s = bloom_serialized_size(f, &size);
  if (s != BLOOM_OK) return done(env, o, s);
  return number(env, (double)size);
}

/* Straight into a new Buffer: no copy of the image. */
static napi_value run_serialize(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  size_t size = 0, written = 0;
  bloom_status s = bloom_serialized_size(f, &size);
  if (s != BLOOM_OK) return done(env, o, s);
  void *data = NULL;
  napi_value out;
  if (napi_create_buffer(env, size, &data, &out) != napi_ok) return NULL;
  s = bloom_serialize(f, data, size, &written);
  if (s != BLOOM_OK) return done(env, o, s);
  return out;
}

static napi_value run_deserialize(napi_env env, const op *o, napi_value *argv) {
  bk_key bytes;
  if (!bk_key_get(env, argv[0], &bytes)) return NULL;
  bloom_filter *f = NULL;
  bloom_status s = bloom_deserialize(bytes.data, bytes.len, &f);
  bk_key_release(&bytes);
  return made(env, o, s, f);
}

/* ---- introspection ------------------------------------------------------------ */

/* info (argc 1) and stageInfo (argc 2: the stage). */
static napi_value run_info(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  uint32_t stage = 0;
  if (o->argc == 2 && napi_get_value_uint32(env, argv[1], &stage) != napi_ok)
    return bk_throw_type(env, "bloomkit: stage must be a number");
  bloom_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  bloom_status s = o->argc == 2 ? bloom_get_stage_info(f, stage, &info) : bloom_get_info(f, &info);
  if (s != BLOOM_OK) return done(env, o, s);
  return bk_info_object(env, &info);
}

static napi_value run_advance(napi_env env, const op *o, napi_value *argv) {
  bloom_filter *f = bk_handle_get(env, argv[0]);
  if (!f) return NULL;
  uint64_t now = 0;
  bool lossless = false;
  if (napi_get_value_bigint_uint64(env, argv[1], &now, &lossless) != napi_ok || !lossless)
    return bk_throw_type(env, "bloomkit: nowMs must be a non-negative BigInt");
  return done(env, o, bloom_advance(f, now));
}

static napi_value run_optimal_params(napi_env env, const op *o, napi_value *argv) {
  uint64_t n = 0, bits = 0;
  uint32_t hashes = 0;
  double p = 0;
  bool lossless = false;
  if (napi_get_value_bigint_uint64(env, argv[0], &n, &lossless) != napi_ok || !lossless ||
      napi_get_value_double(env, argv[1], &p) != napi_ok)
    return bk_throw_type(env, "bloomkit: optimalParams(n: BigInt, p: number)");
  bloom_status s = bloom_optimal_params(n, p, &bits, &hashes);
  if (s != BLOOM_OK) return done(env, o, s);
  napi_value obj;
  napi_create_object(env, &obj);
  napi_set_named_property(env, obj, "bits", number(env, (double)bits));
  napi_set_named_property(env, obj, "hashes", number(env, hashes));
  return obj;
}

static napi_value run_expected_fp_rate(napi_env env, const op *o, napi_value *argv) {
  (void)o;
  uint64_t n = 0, bits = 0;
  uint32_t hashes = 0;
  bool l1 = false, l2 = false;
  if (napi_get_value_bigint_uint64(env, argv[0], &n, &l1) != napi_ok ||
      napi_get_value_bigint_uint64(env, argv[1], &bits, &l2) != napi_ok || !l1 || !l2 ||
      napi_get_value_uint32(env, argv[2], &hashes) != napi_ok)
    return bk_throw_type(env, "bloomkit: expectedFpRate(n: BigInt, bits: BigInt, hashes: number)");
  return number(env, bloom_expected_fp_rate(n, bits, hashes));
}

static napi_value run_strerror(napi_env env, const op *o, napi_value *argv) {
  (void)o;
  int32_t status = 0;
  napi_get_value_int32(env, argv[0], &status);
  return string(env, bloom_strerror(status));
}

/* [{name, code, caps}] for every kind the library lists, caps as
 * BLOOM_CAP_* bits (lib/kinds.js names them). */
static napi_value run_kinds(napi_env env, const op *o, napi_value *argv) {
  (void)o;
  (void)argv;
  napi_value list;
  napi_create_array(env, &list);
  int count = bloom_kind_count();
  for (int i = 0; i < count; i++) {
    int code = bloom_kind_at(i);
    napi_value kind;
    napi_create_object(env, &kind);
    napi_set_named_property(env, kind, "name", string(env, bloom_kind_name(code)));
    napi_set_named_property(env, kind, "code", number(env, code));
    napi_set_named_property(env, kind, "caps", number(env, bloom_kind_caps(code)));
    napi_set_element(env, list, (uint32_t)i, kind);
  }
  return list;
}

/* The file the dynamic loader resolved the library's functions from. */
static const char *library_file(void) {
  Dl_info info;
  if (dladdr((void *)bloom_version_number, &info) != 0 && info.dli_fname != NULL) return info.dli_fname;
  return "(unknown file)";
}

static napi_value run_library(napi_env env, const op *o, napi_value *argv) {
  (void)o;
  (void)argv;
  napi_value obj;
  napi_create_object(env, &obj);
  napi_set_named_property(env, obj, "version", string(env, bloom_version_string()));
  napi_set_named_property(env, obj, "versionNumber", number(env, bloom_version_number()));
  napi_set_named_property(env, obj, "builtFor", number(env, BLOOM_VERSION_NUMBER));
  napi_set_named_property(env, obj, "file", string(env, library_file()));
  napi_set_named_property(env, obj, "optionsSize", number(env, (double)bloom_options_size()));
  napi_set_named_property(env, obj, "infoSize", number(env, (double)bloom_info_size()));
  napi_set_named_property(env, obj, "bindingOptionsSize", number(env, (double)sizeof(bloom_options)));
  /* The addon links bloom_advance, so a library that loads has it. */
  napi_set_named_property(env, obj, "hasAdvance", boolean(env, 1));
  return obj;
}

/* ---- the table ------------------------------------------------------------------ */

static const op ops[] = {
    {.name = "setErrorClass", .run = run_set_error_class, .argc = 1},
    {.name = "optionsDefaults", .run = run_options_defaults},
    {.name = "create", .run = run_create, .argc = 1},
    {.name = "close", .run = run_close, .argc = 1},
    {.name = "clone", .run = run_clone, .argc = 1},
    {.name = "clear", .run = run_self, .argc = 1, .self = bloom_clear},
    {.name = "add", .run = run_key, .argc = 2, .key = c_add},
    {.name = "query", .run = run_key, .argc = 2, .key = c_query, .answers = 1},
    {.name = "testAndAdd", .run = run_key, .argc = 2, .key = bloom_test_and_add, .answers = 1},
    {.name = "remove", .run = run_key, .argc = 2, .key = c_remove},
    {.name = "addBatch", .run = run_batch, .argc = 2},
    {.name = "queryBatch", .run = run_batch, .argc = 2, .answers = 1},
    {.name = "addPacked", .run = run_batch, .argc = 3, .what = "addBatch", .packed = 1},
    {.name = "queryPacked", .run = run_batch, .argc = 3, .what = "queryBatch", .packed = 1, .answers = 1},
    {.name = "merge", .run = run_pair, .argc = 2, .pair = bloom_merge},
    {.name = "intersect", .run = run_pair, .argc = 2, .pair = bloom_intersect},
    {.name = "save", .run = run_save, .argc = 2},
    {.name = "load", .run = run_open, .argc = 1, .open = bloom_load},
    {.name = "map", .run = run_open, .argc = 1, .open = bloom_map},
    {.name = "serializedSize", .run = run_serialized_size, .argc = 1},
    {.name = "serialize", .run = run_serialize, .argc = 1},
    {.name = "deserialize", .run = run_deserialize, .argc = 1},
    {.name = "info", .run = run_info, .argc = 1},
    {.name = "stageInfo", .run = run_info, .argc = 2},
    {.name = "advance", .run = run_advance, .argc = 2},
    {.name = "optimalParams", .run = run_optimal_params, .argc = 2},
    {.name = "expectedFpRate", .run = run_expected_fp_rate, .argc = 3},
    {.name = "strerror", .run = run_strerror, .argc = 1},
    {.name = "kinds", .run = run_kinds},
    {.name = "library", .run = run_library},
};

static napi_value dispatch(napi_env env, napi_callback_info cbinfo) {
  size_t argc = MAX_ARGS;
  napi_value argv[MAX_ARGS];
  void *data = NULL;
  napi_get_cb_info(env, cbinfo, &argc, argv, NULL, &data);
  const op *o = data;
  if (argc < o->argc) return bk_throw_type(env, "bloomkit: missing argument");
  return o->run(env, o, argv);
}

static napi_value init(napi_env env, napi_value exports) {
  /* At load time: a libbloomfilter.so.1 older than the header this addon was
   * compiled against (another copy earlier on the loader's path) would act
   * as that release does; refuse it, naming the file. */
  if (bloom_version_number() < BLOOM_VERSION_NUMBER) {
    char message[1024];
    const unsigned v = bloom_version_number();
    snprintf(
        message, sizeof message,
        "bloomkit: the library loaded from %s is version %u.%u.%u, older than %d.%d.%d, which this addon "
        "was built against: put the newer libbloomfilter.so.1 first on the loader's path",
        library_file(), v / 10000, v / 100 % 100, v % 100, BLOOM_VERSION_MAJOR, BLOOM_VERSION_MINOR,
        BLOOM_VERSION_PATCH);
    napi_throw_error(env, NULL, message);
    return NULL;
  }
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    napi_value fn;
    if (napi_create_function(env, ops[i].name, NAPI_AUTO_LENGTH, dispatch, (void *)&ops[i], &fn) != napi_ok ||
        napi_set_named_property(env, exports, ops[i].name, fn) != napi_ok)
      return NULL;
  }
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
