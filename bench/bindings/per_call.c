/* SPDX-License-Identifier: Apache-2.0 */
/* per_call.c -- the C API's per-key cost, the baseline of the bindings'
 * per-call benchmarks (bench/bindings/run.sh runs it next to them).
 *
 * The workload every language repeats: N = 100,000 keys "key-<i>"
 * (decimal i, 5-9 bytes), a classic XXH3 filter sized for N at p = 0.01;
 * single add and query per key, then batch add and query in calls of 1024
 * keys. Each measurement is the median of 15 runs (a fresh filter for each
 * add run), timed in the thread's CPU time: on a shared machine wall time
 * mostly measures the other processes. Prints "c <op> <ns per key>". */
#include <bloom/bloom.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 100000, BATCH = 1024, RUNS = 15 };

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static bloom_filter *fresh(void) {
  bloom_options o;
  bloom_options_init(&o);
  o.capacity = N;
  o.fp_rate = 0.01;
  bloom_filter *f = NULL;
  if (bloom_create(&o, &f) != BLOOM_OK) {
    fprintf(stderr, "create: %s\n", bloom_last_error());
    exit(1);
  }
  return f;
}

static char *keys[N];
static size_t lens[N];
static unsigned long long sink;

static double run(int op, bloom_filter **f) {
  static uint8_t results[BATCH];
  if (op == 0 || op == 2) {
    bloom_destroy(*f);
    *f = fresh();
  }
  double t0 = now_ns();
  switch (op) {
    case 0:
      for (size_t i = 0; i < N; ++i) bloom_add(*f, keys[i], lens[i]);
      break;
    case 1:
      for (size_t i = 0; i < N; ++i) sink += (unsigned)bloom_query(*f, keys[i], lens[i]);
      break;
    case 2:
      for (size_t i = 0; i < N; i += BATCH) {
        size_t n = N - i < BATCH ? N - i : BATCH;
        bloom_add_batch(*f, (const void *const *)(keys + i), lens + i, n);
      }
      break;
    default:
      for (size_t i = 0; i < N; i += BATCH) {
        size_t n = N - i < BATCH ? N - i : BATCH;
        bloom_query_batch(*f, (const void *const *)(keys + i), lens + i, n, results);
        sink += results[0];
      }
  }
  return (now_ns() - t0) / N;
}

int main(void) {
  for (size_t i = 0; i < N; ++i) {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "key-%zu", i);
    keys[i] = malloc((size_t)n);
    memcpy(keys[i], buf, (size_t)n);
    lens[i] = (size_t)n;
  }
  static const char *names[] = {"add", "query", "add_batch", "query_batch"};
  bloom_filter *f = fresh();
  for (int op = 0; op < 4; ++op) {
    double t[RUNS];
    for (int r = 0; r < RUNS; ++r) t[r] = run(op, &f);
    qsort(t, RUNS, sizeof t[0], cmp);
    printf("c %s %.1f\n", names[op], t[RUNS / 2]);
  }
  bloom_destroy(f);
  for (size_t i = 0; i < N; ++i) free(keys[i]);
  return sink == 42 ? 1 : 0;
}
