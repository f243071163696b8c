/* SPDX-License-Identifier: Apache-2.0 */
/* allocator_ab.c -- add/query speed through the C API, single keys and
 * batches, for an A/B of two library builds (issue 28: installing
 * bloom_set_allocator must not cost the default path speed).
 *
 *   allocator_ab KIND ROUNDS [hook]
 *
 * Builds are swapped by LD_LIBRARY_PATH (this binary links the shared
 * library), so both runs execute identical benchmark code. "hook" installs
 * an allocator over aligned_alloc first, timing the embedder path. Each
 * round creates a 1 M-key filter at p = 1 % and times 1 M adds and 1 M
 * queries (half present), one key per call and in batches of 256; the
 * median ns/key over the rounds is printed per operation.
 */
#include <bloom/bloom.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kKeys = 1000000, kBatch = 256, kMaxRounds = 64 };

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void *hook_alloc(void *user, size_t size, size_t alignment) {
  (void)user;
  return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}

static void hook_free(void *user, void *p, size_t size, size_t alignment) {
  (void)user;
  (void)size;
  (void)alignment;
  free(p);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: allocator_ab KIND ROUNDS [hook]\n");
    return 2;
  }
  const int kind = bloom_kind_from_name(argv[1]);
  int rounds = atoi(argv[2]);
  if (kind == 0 || rounds < 1 || rounds > kMaxRounds) {
    fprintf(stderr, "bad kind or rounds (1..%d)\n", kMaxRounds);
    return 2;
  }
  if (argc > 3 && strcmp(argv[3], "hook") == 0) {
    bloom_allocator a = {sizeof a, hook_alloc, hook_free, NULL};
    if (bloom_set_allocator(&a) != BLOOM_OK) {
      fprintf(stderr, "bloom_set_allocator: %s\n", bloom_last_error());
      return 1;
    }
  }
  /* Keys: 16-byte strings, the second million absent. */
  char(*keys)[16] = malloc(sizeof *keys * 2 * kKeys);
  const void **ptrs = malloc(sizeof *ptrs * 2 * kKeys);
  size_t *lens = malloc(sizeof *lens * 2 * kKeys);
  uint8_t *out = malloc(kBatch);
  if (!keys || !ptrs || !lens || !out) return 1;
  for (int i = 0; i < 2 * kKeys; ++i) {
    snprintf(keys[i], sizeof keys[i], "key:%011d", i);
    ptrs[i] = keys[i];
    lens[i] = 15;
  }
  double add1[kMaxRounds], addb[kMaxRounds], q1[kMaxRounds], qb[kMaxRounds];
  long sink = 0;
  for (int r = 0; r < rounds; ++r) {
    bloom_options o;
    bloom_options_init(&o);
    o.kind = kind;
    o.capacity = kKeys;
    o.fp_rate = 0.01;
    bloom_filter *f = NULL, *g = NULL;
    if (bloom_create(&o, &f) != BLOOM_OK || bloom_create(&o, &g) != BLOOM_OK) {
      fprintf(stderr, "create: %s\n", bloom_last_error());
      return 1;
    }
    double t = now_ns();
    for (int i = 0; i < kKeys; ++i) bloom_add(f, keys[i], 15);
    add1[r] = (now_ns() - t) / kKeys;
    t = now_ns();
    for (int i = 0; i < kKeys; i += kBatch)
      bloom_add_batch(g, ptrs + i, lens + i, kKeys - i < kBatch ? (size_t)(kKeys - i) : kBatch);
    addb[r] = (now_ns() - t) / kKeys;
    const int base = kKeys / 2; /* half present, half absent */
    t = now_ns();
    for (int i = base; i < base + kKeys; ++i) sink += bloom_query(f, keys[i], 15);
    q1[r] = (now_ns() - t) / kKeys;
    t = now_ns();
    for (int i = base; i < base + kKeys; i += kBatch) {
      bloom_query_batch(g, ptrs + i, lens + i, kBatch, out);
      sink += out[0];
    }
    qb[r] = (now_ns() - t) / kKeys;
    bloom_destroy(f);
    bloom_destroy(g);
  }
  printf("%s %s%s: ns/key median of %d: add %.2f  add_batch %.2f  query %.2f  query_batch %.2f  (%ld)\n",
         argv[1], bloom_version_string(), argc > 3 ? " hook" : "", rounds, median(add1, rounds),
         median(addb, rounds), median(q1, rounds), median(qb, rounds), sink);
  return 0;
}
