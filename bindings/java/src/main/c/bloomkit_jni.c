/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The key-taking calls of the Java binding by JNI (bloomkit.FastNative): a
 * single key of up to 256 bytes is copied to the stack, a longer one and a
 * batch are read in place from the Java arrays (GetPrimitiveArrayCritical:
 * no native block to fill); a batch is one byte[] of packed keys plus an
 * int[] of each key's end offset. Through JNA the same calls cost several
 * times what C's do, through this about half of JNA's (bindings/bench;
 * docs/PERFORMANCE.md has the numbers). The rest stays JNA.
 *
 * Critical sections hold no JNI call and no allocation beyond malloc: the
 * JVM may block its collector while they are open, which is why keys are
 * validated and pointers built in one pass and C is called at once.
 */
#include <bloom/bloom.h>
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>

#include "bloomkit_FastNative.h"

/* Failures of this file, not of C, as FastNative.java numbers them: they
 * must not reach BloomNative.check, which would report bloom_last_error(),
 * a message of some earlier call. The Java half checks the arguments first,
 * so BAD_ARGS only guards against a caller bypassing it. */
static jint status_nomem(void) { return (jint)bloomkit_FastNative_NO_MEMORY; }
static jint status_invalid(void) { return (jint)bloomkit_FastNative_BAD_ARGS; }

typedef int (*key_call)(bloom_filter *f, const void *key, size_t len);

static int call_add(bloom_filter *f, const void *key, size_t len) { return (int)bloom_add(f, key, len); }
static int call_query(bloom_filter *f, const void *key, size_t len) { return bloom_query(f, key, len); }
static int call_remove(bloom_filter *f, const void *key, size_t len) {
  return (int)bloom_remove(f, key, len);
}

/* Keys up to this long are copied to the stack by one GetByteArrayRegion
 * (one JNI transition); longer ones are read in place through a critical
 * section (two), which saves copying them. */
enum { SMALL_KEY = 256 };

static jint single(JNIEnv *env, jlong f, jbyteArray key, jint len, key_call call) {
  bloom_filter *filter = (bloom_filter *)(intptr_t)f;
  if (!key) return status_invalid();
  if (len <= SMALL_KEY) {
    /* bloom_* refuse a NULL key; an empty key still gets a real pointer. */
    jbyte local[SMALL_KEY];
    (*env)->GetByteArrayRegion(env, key, 0, len, local); /* throws if len is out of range */
    if ((*env)->ExceptionCheck(env)) return 0;
    return call(filter, local, (size_t)len);
  }
  if (len > (*env)->GetArrayLength(env, key)) return status_invalid();
  void *p = (*env)->GetPrimitiveArrayCritical(env, key, NULL);
  if (!p) return status_nomem();
  int r = call(filter, p, (size_t)len);
  (*env)->ReleasePrimitiveArrayCritical(env, key, p, JNI_ABORT);
  return r;
}

/* FastNative's single-key natives: add, query, testAndAdd, remove. */
#define SINGLE_KEY_NATIVE(name, call)                                                                      \
  JNIEXPORT jint JNICALL Java_bloomkit_FastNative_##name(JNIEnv *env, jclass cls, jlong f, jbyteArray key, \
                                                         jint len) {                                       \
    (void)cls;                                                                                             \
    return single(env, f, key, len, call);                                                                 \
  }

SINGLE_KEY_NATIVE(add, call_add)
SINGLE_KEY_NATIVE(query, call_query)
SINGLE_KEY_NATIVE(testAndAdd, bloom_test_and_add)
SINGLE_KEY_NATIVE(remove, call_remove)

/* Up to this many keys' pointers and lengths live on the stack (16 KiB);
 * larger batches take one malloc, a fraction of a ns per key. */
enum { STACK_KEYS = 512 };

typedef struct batch {
  const void **ptrs;
  size_t *lens;
  const void *stack_ptrs[STACK_KEYS];
  size_t stack_lens[STACK_KEYS];
} batch;

static int batch_reserve(batch *b, jint n) {
  if (n <= STACK_KEYS) {
    b->ptrs = b->stack_ptrs;
    b->lens = b->stack_lens;
    return 1;
  }
  b->ptrs = malloc((size_t)n * sizeof *b->ptrs);
  b->lens = malloc((size_t)n * sizeof *b->lens);
  return b->ptrs && b->lens;
}

static void batch_free(batch *b) {
  if (b->ptrs != b->stack_ptrs) {
    free(b->ptrs);
    free(b->lens);
  }
}

/* Key i is bytes[ends[i-1] .. ends[i]) (ends[-1] = 0); ends must not
 * decrease nor pass the bytes. 1 if so, with ptrs/lens filled. */
static int batch_fill(batch *b, const char *bytes, jsize nbytes, const jint *ends, jint n) {
  static const char empty = 0;
  jint at = 0;
  for (jint i = 0; i < n; i++) {
    jint end = ends[i];
    if (end < at || end > nbytes) return 0;
    b->ptrs[i] = end > at ? bytes + at : &empty;
    b->lens[i] = (size_t)(end - at);
    at = end;
  }
  return 1;
}

/* Both batch calls: results NULL = add, else query into results (n bytes). */
static jint packed(JNIEnv *env, jlong f, jbyteArray bytes, jintArray ends, jint n, jbooleanArray results) {
  if (!bytes || !ends || n < 0 || n > (*env)->GetArrayLength(env, ends)) return status_invalid();
  if (results && n > (*env)->GetArrayLength(env, results)) return status_invalid();
  if (n == 0) return (jint)BLOOM_OK;
  jsize nbytes = (*env)->GetArrayLength(env, bytes);
  batch b;
  if (!batch_reserve(&b, n)) {
    batch_free(&b);
    return status_nomem();
  }
  jint status = status_nomem();
  char *kb = (*env)->GetPrimitiveArrayCritical(env, bytes, NULL);
  jint *ke = kb ? (*env)->GetPrimitiveArrayCritical(env, ends, NULL) : NULL;
  jboolean *out = ke && results ? (*env)->GetPrimitiveArrayCritical(env, results, NULL) : NULL;
  if (ke && (out || !results)) {
    if (!batch_fill(&b, kb, nbytes, ke, n))
      status = status_invalid();
    else if (results) /* bloom_query_batch writes 1 or 0: a jboolean's true and false */
      status = (jint)bloom_query_batch((const bloom_filter *)(intptr_t)f, b.ptrs, b.lens, (size_t)n, out);
    else
      status = (jint)bloom_add_batch((bloom_filter *)(intptr_t)f, b.ptrs, b.lens, (size_t)n);
  }
  if (out) (*env)->ReleasePrimitiveArrayCritical(env, results, out, 0);
  if (ke) (*env)->ReleasePrimitiveArrayCritical(env, ends, ke, JNI_ABORT);
  if (kb) (*env)->ReleasePrimitiveArrayCritical(env, bytes, kb, JNI_ABORT);
  batch_free(&b);
  return status;
}

JNIEXPORT jint JNICALL Java_bloomkit_FastNative_addBatch(JNIEnv *env, jclass cls, jlong f, jbyteArray bytes,
                                                         jintArray ends, jint n) {
  (void)cls;
  return packed(env, f, bytes, ends, n, NULL);
}

JNIEXPORT jint JNICALL Java_bloomkit_FastNative_queryBatch(JNIEnv *env, jclass cls, jlong f, jbyteArray bytes,
                                                           jintArray ends, jint n, jbooleanArray results) {
  (void)cls;
  return packed(env, f, bytes, ends, n, results);
}
