/* SPDX-License-Identifier: Apache-2.0 */
/* Keys from JavaScript values: a string is hashed as its UTF-8 bytes (lone
 * surrogates become U+FFFD, as Buffer.from(string) does); a Buffer, any
 * TypedArray, a DataView or an ArrayBuffer is hashed as its bytes, in place. */
#ifndef BLOOMKIT_NODE_KEYS_H
#define BLOOMKIT_NODE_KEYS_H

#include <node_api.h>
#include <stddef.h>

/* One key. Strings up to ~250 bytes are converted into `local`; longer ones
 * into `heap`, freed by bk_key_release. */
typedef struct bk_key {
  const void *data;
  size_t len;
  char *heap;
  char local[256];
} bk_key;

/* Fill *key from v; on a value that is not a key, throw TypeError and return 0. */
int bk_key_get(napi_env env, napi_value v, bk_key *key);
void bk_key_release(bk_key *key);

/* Every key of a JS array, as the pointer and length arrays the C batch
 * calls take. Strings are converted into one growing arena; byte views point
 * at their own memory, which the array keeps alive for the call. */
typedef struct bk_batch {
  const void **ptrs;
  size_t *lens;
  size_t n;
  char *arena;
  size_t arena_used, arena_cap;
} bk_batch;

/* Fill *batch from the array v; on failure throw (TypeError naming the
 * index, or Error on memory exhaustion) and return 0. Always pair with
 * bk_batch_release. */
int bk_batch_get(napi_env env, napi_value v, bk_batch *batch);
void bk_batch_release(bk_batch *batch);

#endif
