/* SPDX-License-Identifier: Apache-2.0 */
/* consumer_check.c -- a C program outside the tree, as a user writes one: built
 * only through `pkg-config --cflags --libs bloom` (or bloom-static, or
 * find_package) against an installed prefix. It mimics the acceptance checks
 * of issue 2 and exits non-zero on the first failed one.
 *
 * With Debian's libbloom-dev installed, <bloom.h> is theirs; ours is
 * <bloom/bloom.h>, and bloom_version_string() exists only in ours, so linking
 * this program at all proves it was linked against libbloomfilter.
 *
 *   consumer_check SCRATCH_DIR
 */
#include <bloom/bloom.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 200000
#define PROBES 200000

static int failed = 0;

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "FAIL: %s (last error: %s)\n", what, bloom_last_error());
    failed = 1;
  }
}

static size_t key(char *buf, const char *tag, unsigned i) { return (size_t)sprintf(buf, "%s:%u:x", tag, i); }

int main(int argc, char **argv) {
  char path[4096], k[64];
  bloom_options o;
  bloom_filter *f = NULL, *loaded = NULL, *copy = NULL, *other = NULL, *bad = NULL;
  unsigned char *image;
  size_t size = 0, written = 0;
  uint64_t m = 0;
  uint32_t hashes = 0;
  unsigned i, fp = 0;

  if (argc < 2) return 2;
  snprintf(path, sizeof path, "%s/consumer_check.bloom", argv[1]);
  printf("bloom %s (%u), header %d.%d.%d\n", bloom_version_string(), bloom_version_number(),
         BLOOM_VERSION_MAJOR, BLOOM_VERSION_MINOR, BLOOM_VERSION_PATCH);
  check(bloom_version_number() == BLOOM_VERSION_NUMBER, "library version matches the header");

  /* Sizing: m within 1% of n|ln p|/ln^2 2, k = 7. */
  check(bloom_optimal_params(N, 0.01, &m, &hashes) == BLOOM_OK, "optimal_params");
  {
    double formula = N * fabs(log(0.01)) / (log(2.0) * log(2.0));
    check(fabs((double)m - formula) <= 0.01 * formula, "m within 1% of the formula");
    check(hashes == 7, "k = 7");
  }

  /* Classic filter, n = 200,000, p = 0.01: no false negatives and a measured
   * FPR in [0.5 p, 1.15 p] over 200,000 absent keys. */
  bloom_options_init(&o);
  o.capacity = N;
  o.fp_rate = 0.01;
  check(bloom_create(&o, &f) == BLOOM_OK, "create");
  if (f == NULL) return 1;
  for (i = 0; i < N; i++) check(bloom_add(f, k, key(k, "in", i)) == BLOOM_OK, "add");
  for (i = 0; i < N; i++) {
    size_t len = key(k, "in", i);
    if (bloom_query(f, k, len) != 1) {
      check(0, "no false negatives");
      break;
    }
  }
  for (i = 0; i < PROBES; i++) {
    size_t len = key(k, "out", i);
    fp += bloom_query(f, k, len) == 1;
  }
  printf("measured FPR %.5f at p = 0.01\n", (double)fp / PROBES);
  check(fp >= 0.5 * 0.01 * PROBES && fp <= 1.15 * 0.01 * PROBES, "measured FPR in [0.5p, 1.15p]");

  /* save -> load and serialize -> deserialize answer every query identically. */
  check(bloom_save(f, path) == BLOOM_OK, "save");
  check(bloom_load(path, &loaded) == BLOOM_OK, "load");
  check(bloom_serialized_size(f, &size) == BLOOM_OK, "serialized_size");
  image = malloc(size);
  if (image == NULL) return 1;
  check(bloom_serialize(f, image, size, &written) == BLOOM_OK && written == size, "serialize");
  check(bloom_deserialize(image, size, &copy) == BLOOM_OK, "deserialize");
  if (loaded == NULL || copy == NULL) return 1;
  for (i = 0; i < 20000; i++) {
    size_t len = key(k, i % 2 ? "in" : "out", i);
    int want = bloom_query(f, k, len);
    if (bloom_query(loaded, k, len) != want || bloom_query(copy, k, len) != want) {
      check(0, "round trips answer identically");
      break;
    }
  }

  /* A flipped payload bit and a 5-byte buffer are refused, with a NULL out. */
  image[200] ^= 0x04;
  check(bloom_deserialize(image, size, &bad) == BLOOM_E_CHECKSUM && bad == NULL, "flipped bit refused");
  check(bloom_deserialize(image, 5, &bad) != BLOOM_OK && bad == NULL, "5-byte buffer refused");
  free(image);

  /* Filters of different sizes do not merge. */
  o.capacity = N / 2;
  check(bloom_create(&o, &other) == BLOOM_OK, "create other");
  check(bloom_merge(f, other) == BLOOM_E_INCOMPATIBLE, "merge of different sizes refused");

  /* NULL handles are errors, not crashes. */
  check(bloom_add(NULL, "a", 1) == BLOOM_E_INVALID_ARG, "add(NULL)");
  check(bloom_query(NULL, "a", 1) == BLOOM_E_INVALID_ARG, "query(NULL)");
  check(bloom_save(NULL, path) == BLOOM_E_INVALID_ARG, "save(NULL)");
  check(bloom_merge(NULL, f) == BLOOM_E_INVALID_ARG, "merge(NULL)");
  check(bloom_load(NULL, &bad) == BLOOM_E_INVALID_ARG, "load(NULL)");
  bloom_destroy(NULL);

  bloom_destroy(f);
  bloom_destroy(loaded);
  bloom_destroy(copy);
  bloom_destroy(other);
  remove(path);
  puts(failed ? "consumer_check: FAILED" : "consumer_check: all checks passed");
  return failed;
}
