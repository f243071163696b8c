/* SPDX-License-Identifier: Apache-2.0 */
/* batch.h -- the Go binding's batch calls, included by filter.go's cgo
 * preamble.
 *
 * Why in C: cgo forbids passing Go memory that holds Go pointers, so a batch
 * of Go keys cannot be handed to bloom_add_batch as an array of pointers. Go
 * copies the keys into one buffer (no pointers in it) with their lengths;
 * this builds the pointer array on the C stack, CHUNK keys at a time, and
 * calls the library. */
#ifndef BLOOM_GO_BATCH_H
#define BLOOM_GO_BATCH_H

#include <bloom/bloom.h>
#include <stddef.h>
#include <stdint.h>

/* 1024 pointers = 8 KiB of stack: batches keep their speed (the library
 * hashes in blocks of far fewer) without an allocation per call. */
#define BLOOMGO_CHUNK 1024

/* bloom_query_batch into results, or bloom_add_batch when results is NULL. */
static inline bloom_status bloomgo_batch(bloom_filter *f, const char *buf, const size_t *lens, size_t n,
                                         uint8_t *results) {
  const void *ptrs[BLOOMGO_CHUNK];
  size_t done = 0;
  while (done < n) {
    size_t m = n - done < BLOOMGO_CHUNK ? n - done : BLOOMGO_CHUNK;
    for (size_t i = 0; i < m; ++i) {
      ptrs[i] = buf;
      buf += lens[done + i];
    }
    bloom_status st = results ? bloom_query_batch(f, ptrs, lens + done, m, results + done)
                              : bloom_add_batch(f, ptrs, lens + done, m);
    if (st != BLOOM_OK) return st;
    done += m;
  }
  return BLOOM_OK;
}

#endif
