/* SPDX-License-Identifier: Apache-2.0 */
/*
 * c_per_call.c -- the C baseline for the bindings' per-call benchmarks:
 * the same work every language's bench does (bindings/bench/README.md), in
 * ns per key, the median of ROUNDS rounds. Output: one "name ns" line each.
 *
 * Work: KEYS keys "key-<i>" (9-14 bytes) into a classic filter of capacity
 * KEYS at p = 0.01 (1.2 MB); single add, single query (every key present),
 * then add/query in batches of BATCH keys; process CPU time. Build:
 *   cc -O2 c_per_call.c $(pkg-config --cflags --libs bloom) -o c_per_call
 */
#define _POSIX_C_SOURCE 199309L
#include <bloom/bloom.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { KEYS = 1000000, BATCH = 1000, ROUNDS = 5 };

/* Process CPU time, not wall time: on a machine shared by many jobs (load
 * 16-31 on 2 cores while this was written) wall time mostly measures the
 * wait for a core. Every language's bench measures the same way. */
static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static bloom_filter *fresh(void) {
  bloom_options o;
  bloom_options_init(&o);
  o.capacity = KEYS;
  o.fp_rate = 0.01;
  bloom_filter *f = NULL;
  if (bloom_create(&o, &f) != BLOOM_OK) {
    fprintf(stderr, "create: %s\n", bloom_last_error());
    exit(2);
  }
  return f;
}

int main(void) {
  char **keys = malloc(KEYS * sizeof *keys);
  size_t *lens = malloc(KEYS * sizeof *lens);
  uint8_t *results = malloc(BATCH);
  if (!keys || !lens || !results) return 2;
  for (int i = 0; i < KEYS; i++) {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "key-%d", i);
    keys[i] = malloc((size_t)n);
    memcpy(keys[i], buf, (size_t)n);
    lens[i] = (size_t)n;
  }
  const char *names[4] = {"add", "query", "add_batch", "query_batch"};
  double samples[4][ROUNDS];
  long hits = 0;
  for (int r = 0; r < ROUNDS; r++) {
    bloom_filter *f = fresh();
    double t0 = now_ns();
    for (int i = 0; i < KEYS; i++) bloom_add(f, keys[i], lens[i]);
    double t1 = now_ns();
    for (int i = 0; i < KEYS; i++) hits += bloom_query(f, keys[i], lens[i]);
    double t2 = now_ns();
    bloom_destroy(f);
    f = fresh();
    double t3 = now_ns();
    for (int i = 0; i < KEYS; i += BATCH)
      bloom_add_batch(f, (const void *const *)(keys + i), lens + i, BATCH);
    double t4 = now_ns();
    for (int i = 0; i < KEYS; i += BATCH) {
      bloom_query_batch(f, (const void *const *)(keys + i), lens + i, BATCH, results);
      hits += results[0];
    }
    double t5 = now_ns();
    bloom_destroy(f);
    samples[0][r] = (t1 - t0) / KEYS;
    samples[1][r] = (t2 - t1) / KEYS;
    samples[2][r] = (t4 - t3) / KEYS;
    samples[3][r] = (t5 - t4) / KEYS;
  }
  for (int m = 0; m < 4; m++) {
    qsort(samples[m], ROUNDS, sizeof(double), by_value);
    printf("%s %.1f\n", names[m], samples[m][ROUNDS / 2]);
  }
  fprintf(stderr, "(%ld hits)\n", hits);
  for (int i = 0; i < KEYS; i++) free(keys[i]);
  free(keys);
  free(lens);
  free(results);
  return 0;
}
