/* SPDX-License-Identifier: Apache-2.0 */
#include "keys.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "errors.h"

/* napi_get_value_string_utf8 writes whole characters only and stops at
 * bufsize - 1, so a result within 4 bytes of the end may be truncated: then
 * the exact length is asked for (a second pass over the string). */
enum { UTF8_MAX_CHAR = 4 };

static size_t element_size(napi_typedarray_type type) {
  switch (type) {
    case napi_int8_array:
    case napi_uint8_array:
    case napi_uint8_clamped_array:
      return 1;
    case napi_int16_array:
    case napi_uint16_array:
      return 2;
    case napi_int32_array:
    case napi_uint32_array:
    case napi_float32_array:
      return 4;
    default:  // float64, bigint64, biguint64
      return 8;
  }
}

/* A byte view's memory; 1 if v is one, 0 if not (nothing thrown). */
static int bytes_of(napi_env env, napi_value v, const void **data, size_t *len) {
  bool is = false;
  if (napi_is_typedarray(env, v, &is) == napi_ok && is) {
    napi_typedarray_type type;
    size_t count = 0;
    void *p = NULL;
    if (napi_get_typedarray_info(env, v, &type, &count, &p, NULL, NULL) != napi_ok) return 0;
    *data = p;
    *len = count * element_size(type);
    return 1;
  }
  if (napi_is_dataview(env, v, &is) == napi_ok && is) {
    void *p = NULL;
    size_t n = 0;
    if (napi_get_dataview_info(env, v, &n, &p, NULL, NULL) != napi_ok) return 0;
    *data = p;
    *len = n;
    return 1;
  }
  if (napi_is_arraybuffer(env, v, &is) == napi_ok && is) {
    void *p = NULL;
    size_t n = 0;
    if (napi_get_arraybuffer_info(env, v, &p, &n) != napi_ok) return 0;
    *data = p;
    *len = n;
    return 1;
  }
  return 0;
}

int bk_key_get(napi_env env, napi_value v, bk_key *key) {
  key->heap = NULL;
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok) return 0;
  if (t == napi_string) {
    size_t n = 0;
    napi_get_value_string_utf8(env, v, key->local, sizeof key->local, &n);
    if (n + UTF8_MAX_CHAR < sizeof key->local) {
      key->data = key->local;
      key->len = n;
      return 1;
    }
    napi_get_value_string_utf8(env, v, NULL, 0, &n);
    key->heap = malloc(n + 1);
    if (!key->heap) return bk_throw_error(env, "bloomkit: out of memory converting a key") != NULL;
    napi_get_value_string_utf8(env, v, key->heap, n + 1, &n);
    key->data = key->heap;
    key->len = n;
    return 1;
  }
  if (t == napi_object && bytes_of(env, v, &key->data, &key->len)) return 1;
  bk_throw_type(env, "a key must be a string, a Buffer, a TypedArray, a DataView or an ArrayBuffer");
  return 0;
}

void bk_key_release(bk_key *key) {
  free(key->heap);
  key->heap = NULL;
}

static int arena_reserve(bk_batch *b, size_t more) {
  if (b->arena_cap - b->arena_used >= more) return 1;
  size_t cap = b->arena_cap ? b->arena_cap : 4096;
  while (cap - b->arena_used < more) {
    if (cap > SIZE_MAX / 2) return 0;
    cap *= 2;
  }
  char *p = realloc(b->arena, cap);
  if (!p) return 0;
  b->arena = p;
  b->arena_cap = cap;
  return 1;
}

/* Append v's UTF-8 to the arena; its offset goes in *offset. */
static int arena_string(napi_env env, bk_batch *b, napi_value v, size_t *offset) {
  if (!arena_reserve(b, 256)) return 0;
  size_t room = b->arena_cap - b->arena_used, n = 0;
  napi_get_value_string_utf8(env, v, b->arena + b->arena_used, room, &n);
  if (n + UTF8_MAX_CHAR >= room) {
    napi_get_value_string_utf8(env, v, NULL, 0, &n);
    if (n == SIZE_MAX || !arena_reserve(b, n + 1)) return 0;
    napi_get_value_string_utf8(env, v, b->arena + b->arena_used, n + 1, &n);
  }
  *offset = b->arena_used;
  b->arena_used += n;
  return 1;
}

int bk_batch_get(napi_env env, napi_value v, bk_batch *b) {
  b->ptrs = NULL;
  b->lens = NULL;
  b->n = 0;
  b->arena = NULL;
  b->arena_used = b->arena_cap = 0;
  bool is_array = false;
  if (napi_is_array(env, v, &is_array) != napi_ok || !is_array)
    return bk_throw_type(env, "keys must be an Array") != NULL;
  uint32_t n = 0;
  napi_get_array_length(env, v, &n);
  if (n == 0) return 1;
  b->ptrs = malloc(n * sizeof *b->ptrs);
  b->lens = malloc(n * sizeof *b->lens);
  /* 1 = the key is a string whose bytes are at arena + (uintptr_t)ptrs[i]:
   * the arena may move while it grows, so pointers are fixed up at the end. */
  unsigned char *in_arena = calloc(n, 1);
  if (!b->ptrs || !b->lens || !in_arena) {
    free(in_arena);
    return bk_throw_error(env, "bloomkit: out of memory for a batch") != NULL;
  }
  int any_string = 0;
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    napi_valuetype t;
    if (napi_get_element(env, v, i, &item) != napi_ok || napi_typeof(env, item, &t) != napi_ok) {
      free(in_arena);
      return 0;
    }
    if (t == napi_string) {
      size_t offset = 0;
      if (!arena_string(env, b, item, &offset)) {
        free(in_arena);
        return bk_throw_error(env, "bloomkit: out of memory for a batch") != NULL;
      }
      b->ptrs[i] = (const void *)(uintptr_t)offset;
      b->lens[i] = b->arena_used - offset;
      in_arena[i] = 1;
      any_string = 1;
    } else if (!(t == napi_object && bytes_of(env, item, &b->ptrs[i], &b->lens[i]))) {
      free(in_arena);
      char message[160];
      snprintf(message, sizeof message,
               "keys[%u] must be a string, a Buffer, a TypedArray, a DataView or an ArrayBuffer", i);
      return bk_throw_type(env, message) != NULL;
    }
  }
  if (any_string)
    for (uint32_t i = 0; i < n; i++)
      if (in_arena[i]) b->ptrs[i] = b->arena + (uintptr_t)b->ptrs[i];
  free(in_arena);
  b->n = n;
  return 1;
}

void bk_batch_release(bk_batch *b) {
  free(b->ptrs);
  free(b->lens);
  free(b->arena);
  b->ptrs = NULL;
  b->lens = NULL;
  b->arena = NULL;
}
