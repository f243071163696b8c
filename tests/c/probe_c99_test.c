/* SPDX-License-Identifier: Apache-2.0 */
/* bloom_probe.h from strict C99: the header-only probe answers as
 * bloom_query does, for the default blocked layout and split blocks, every
 * k of the 64-byte layout, on a live filter and on the same filter mapped
 * from its file. Built twice: portable and with -mavx2. */
#include <stdio.h>
#include <string.h>

#include "bloom/bloom_probe.h"

static int check(bloom_filter *f, const char *what) {
  bloom_blocked_view v;
  char key[64];
  unsigned i, hits = 0;
  memset(&v, 0, sizeof v);
  v.struct_size = sizeof v;
  if (bloom_get_blocked_view(f, &v) != BLOOM_OK) {
    fprintf(stderr, "%s: bloom_get_blocked_view: %s\n", what, bloom_last_error());
    return 1;
  }
  for (i = 0; i < 20000; ++i) {
    int n = snprintf(key, sizeof key, "key-%u", i);
    int want = bloom_query(f, key, (size_t)n);
    int got = bloom_probe(&v, key, (size_t)n);
    if (want != got) {
      fprintf(stderr, "%s: %s: bloom_query %d, bloom_probe %d\n", what, key, want, got);
      return 1;
    }
    hits += (unsigned)got;
  }
  /* Keys past 16 bytes take the probe's out-of-line hash. */
  for (i = 0; i < 5000; ++i) {
    int n = snprintf(key, sizeof key, "a key longer than sixteen bytes, %u", i);
    if (bloom_query(f, key, (size_t)n) != bloom_probe(&v, key, (size_t)n)) {
      fprintf(stderr, "%s: %s: the probe disagrees\n", what, key);
      return 1;
    }
  }
  /* The first 5,000 were added: at least those answer 1. */
  if (hits < 5000) {
    fprintf(stderr, "%s: only %u hits\n", what, hits);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  uint32_t flags[2] = {0u, BLOOM_FLAG_SPLIT_BLOCK};
  unsigned seeds[2] = {0u, 12345u};
  char path[4096];
  int failed = 0, i, s;
  unsigned k, hashes;
  if (argc < 2) return 2;
#ifdef BLOOM_PROBE_TEST_NEEDS_AVX2
  if (!__builtin_cpu_supports("avx2")) {
    fprintf(stderr, "this CPU has no AVX2: the AVX2 probe cannot run here\n");
    return 77;
  }
#endif
  snprintf(path, sizeof path, "%s/probe_c99_test.bloom", argv[1]);
  for (i = 0; i < 2; ++i)
    for (s = 0; s < 2; ++s)
      for (hashes = (i == 0 ? 1u : 8u); hashes <= (i == 0 ? 64u : 8u); hashes += (i == 0 ? 7u : 1u)) {
        bloom_options o;
        bloom_filter *f = NULL, *m = NULL;
        char key[64];
        bloom_options_init(&o);
        o.kind = BLOOM_KIND_BLOCKED;
        o.capacity = 5000;
        o.fp_rate = i == 0 ? 1e-4 : 1e-2;
        o.hashes = hashes;
        o.seed = seeds[s];
        o.flags = flags[i];
        if (bloom_create(&o, &f) != BLOOM_OK) return 1;
        for (k = 0; k < 5000; ++k) {
          int n = snprintf(key, sizeof key, "key-%u", k);
          bloom_add(f, key, (size_t)n);
          n = snprintf(key, sizeof key, "a key longer than sixteen bytes, %u", 2 * k);
          bloom_add(f, key, (size_t)n);
        }
        failed |= check(f, i == 0 ? "blocked" : "split");
        if (bloom_save(f, path) != BLOOM_OK || bloom_map(path, &m) != BLOOM_OK) {
          fprintf(stderr, "save/map: %s\n", bloom_last_error());
          return 1;
        }
        failed |= check(m, i == 0 ? "blocked, mapped" : "split, mapped");
        bloom_destroy(m);
        bloom_destroy(f);
      }
  remove(path);
  {
    /* Other kinds have no view. */
    bloom_options o;
    bloom_filter *f = NULL;
    bloom_blocked_view v;
    bloom_options_init(&o);
    if (bloom_create(&o, &f) != BLOOM_OK) return 1;
    v.struct_size = sizeof v;
    if (bloom_get_blocked_view(f, &v) != BLOOM_E_UNSUPPORTED) {
      fprintf(stderr, "a classic filter gave a blocked view\n");
      failed = 1;
    }
    v.struct_size = sizeof v - 1;
    if (bloom_get_blocked_view(f, &v) != BLOOM_E_INVALID_ARG) failed = 1;
    bloom_destroy(f);
  }
  return failed;
}
