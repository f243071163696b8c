/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bloom_next.h -- C API the library is gaining while this binding is written:
 * the window kind (BLOOM_KIND_WINDOW = 6, bloom_options.window_ms,
 * bloom_advance). Declared here so the binding builds against a bloom.h that
 * lacks them and runs against a library that lacks them: bloom_advance is a
 * weak reference (NULL when the loaded library has no such symbol), and the
 * options struct below is the header's plus window_ms, whose struct_size the
 * library uses to read only what it knows (capi/filter_api.cpp copies
 * min(struct_size, its own size) bytes).
 */
#ifndef BLOOMKIT_NODE_BLOOM_NEXT_H
#define BLOOMKIT_NODE_BLOOM_NEXT_H

#include <bloom/bloom.h>
#include <stddef.h>
#include <stdint.h>

#define BLOOMKIT_KIND_WINDOW 6

/* bloom_options as of library 0.2.0 with window_ms appended. Our own copy,
 * not the header's struct, so this stays one window_ms when bloom.h gains it. */
typedef struct bloomkit_options {
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
  uint64_t window_ms; /* window kind: 0 = a count window of capacity keys, > 0 = ms */
} bloomkit_options;

_Static_assert(offsetof(bloomkit_options, counter_bits) == offsetof(bloom_options, counter_bits),
               "bloomkit_options must extend bloom_options member for member");
_Static_assert(sizeof(bloomkit_options) >= sizeof(bloom_options), "bloomkit_options is the larger struct");

bloom_status bloom_advance(bloom_filter *f, uint64_t now_ms) __attribute__((weak));

#endif
