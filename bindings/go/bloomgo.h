/* SPDX-License-Identifier: Apache-2.0 */
/* bloomgo.h -- C helpers of the Go binding (package bloom), included by the
 * cgo preamble of every file that calls C.
 *
 * Why here and not in Go: cgo forbids passing Go memory that holds Go
 * pointers, so a batch of Go keys cannot be handed to bloom_add_batch as an
 * array of pointers. Go copies the keys into one buffer (no pointers in
 * it) with their lengths; these helpers build the pointer array on the C
 * stack, CHUNK keys at a time, and call the library. */
#ifndef BLOOM_GO_BLOOMGO_H
#define BLOOM_GO_BLOOMGO_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEFAULT */
#endif
#include <bloom/bloom.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

/* 1024 pointers = 8 KiB of stack: batches keep their speed (the library
 * hashes in blocks of far fewer) without an allocation per call. */
#define BLOOMGO_CHUNK 1024

/* bloom_options with the window kind's window_ms appended after
 * counter_bits, laid out here so that it does not depend on whether the
 * installed bloom.h has the member yet. */
typedef struct bloomgo_options {
  size_t struct_size;
  int32_t kind;
  uint64_t capacity;
  double fp_rate;
  int32_t hash;
  uint64_t seed;
  uint32_t flags;
  uint64_t bits;
  uint32_t hashes;
  double growth;
  double tightening;
  uint32_t counter_bits;
  uint64_t window_ms;
} bloomgo_options;

_Static_assert(offsetof(bloomgo_options, counter_bits) == offsetof(bloom_options, counter_bits),
               "bloomgo_options must extend bloom_options");
_Static_assert(sizeof(bloom_options) <= sizeof(bloomgo_options), "bloomgo_options must extend bloom_options");

static inline void bloomgo_options_init(bloomgo_options *o) {
  bloom_options base;
  bloom_options_init(&base);
  *o = (bloomgo_options){0};
  /* The library writes only its own layout: copy what it filled. */
  __builtin_memcpy(o, &base, sizeof base < sizeof *o ? sizeof base : sizeof *o);
  o->struct_size = sizeof *o;
}

static inline bloom_status bloomgo_create(const bloomgo_options *o, bloom_filter **out) {
  return bloom_create((const bloom_options *)o, out);
}

static inline bloom_status bloomgo_add_batch(bloom_filter *f, const char *buf, const size_t *lens, size_t n) {
  const void *ptrs[BLOOMGO_CHUNK];
  size_t done = 0;
  while (done < n) {
    size_t m = n - done < BLOOMGO_CHUNK ? n - done : BLOOMGO_CHUNK;
    for (size_t i = 0; i < m; ++i) {
      ptrs[i] = buf;
      buf += lens[done + i];
    }
    bloom_status st = bloom_add_batch(f, ptrs, lens + done, m);
    if (st != BLOOM_OK) return st;
    done += m;
  }
  return BLOOM_OK;
}

static inline bloom_status bloomgo_query_batch(const bloom_filter *f, const char *buf, const size_t *lens,
                                               size_t n, uint8_t *results) {
  const void *ptrs[BLOOMGO_CHUNK];
  size_t done = 0;
  while (done < n) {
    size_t m = n - done < BLOOMGO_CHUNK ? n - done : BLOOMGO_CHUNK;
    for (size_t i = 0; i < m; ++i) {
      ptrs[i] = buf;
      buf += lens[done + i];
    }
    bloom_status st = bloom_query_batch(f, ptrs, lens + done, m, results + done);
    if (st != BLOOM_OK) return st;
    done += m;
  }
  return BLOOM_OK;
}

typedef bloom_status (*bloomgo_advance_fn)(bloom_filter *f, uint64_t now_ms);

/* bloom_advance of the loaded library, or NULL when it predates the window
 * kind: looked up at run time so the package still links against it. */
static inline bloomgo_advance_fn bloomgo_advance_lookup(void) {
  return (bloomgo_advance_fn)dlsym(RTLD_DEFAULT, "bloom_advance");
}

static inline bloom_status bloomgo_advance(bloomgo_advance_fn fn, bloom_filter *f, uint64_t now_ms) {
  return fn(f, now_ms);
}

#endif
