/* SPDX-License-Identifier: Apache-2.0 */
/* interop_tool.c -- the C library's side of the Redis interop tests.
 *
 *   interop_tool write FILE KIND CAPACITY FP_RATE N PREFIX [BITS HASHES]
 *       creates a filter of KIND ("classic", "scalable", ...), adds the keys
 *       PREFIX0 .. PREFIX(N-1), and saves it to FILE with bloom_save. BITS
 *       and HASHES give m and k explicitly (then CAPACITY may be 0).
 *   interop_tool check FILE N PREFIX ABSENT_PREFIX
 *       loads FILE with bloom_load and checks that every key PREFIXi is
 *       present; prints "present=N absent_hits=X" for N keys ABSENT_PREFIXi.
 *       Exits 1 on any false negative or load error.
 */
#include <bloom/bloom.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, int status) {
  fprintf(stderr, "%s: %s (%s)\n", what, bloom_strerror(status), bloom_last_error());
  return 1;
}

static int write_filter(char **argv) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = bloom_kind_from_name(argv[3]);
  o.capacity = strtoull(argv[4], NULL, 10);
  o.fp_rate = strtod(argv[5], NULL);
  const unsigned long n = strtoul(argv[6], NULL, 10);
  if (argv[8] != NULL && argv[9] != NULL) {
    o.bits = strtoull(argv[8], NULL, 10);
    o.hashes = (uint32_t)strtoul(argv[9], NULL, 10);
  }
  bloom_filter *f = NULL;
  int st = bloom_create(&o, &f);
  if (st != BLOOM_OK) return fail("create", st);
  char key[256];
  for (unsigned long i = 0; i < n; ++i) {
    int len = snprintf(key, sizeof key, "%s%lu", argv[7], i);
    if ((st = bloom_add(f, key, (size_t)len)) != BLOOM_OK) return fail("add", st);
  }
  st = bloom_save(f, argv[2]);
  bloom_destroy(f);
  return st == BLOOM_OK ? 0 : fail("save", st);
}

static int check_filter(char **argv) {
  bloom_filter *f = NULL;
  int st = bloom_load(argv[2], &f);
  if (st != BLOOM_OK) return fail("load", st);
  const unsigned long n = strtoul(argv[3], NULL, 10);
  char key[256];
  unsigned long present = 0, absent_hits = 0;
  for (unsigned long i = 0; i < n; ++i) {
    int len = snprintf(key, sizeof key, "%s%lu", argv[4], i);
    present += bloom_query(f, key, (size_t)len) == 1;
    len = snprintf(key, sizeof key, "%s%lu", argv[5], i);
    absent_hits += bloom_query(f, key, (size_t)len) == 1;
  }
  bloom_destroy(f);
  printf("present=%lu absent_hits=%lu\n", present, absent_hits);
  return present == n ? 0 : 1;
}

int main(int argc, char **argv) {
  if ((argc == 8 || argc == 10) && strcmp(argv[1], "write") == 0) return write_filter(argv);
  if (argc == 6 && strcmp(argv[1], "check") == 0) return check_filter(argv);
  fprintf(stderr,
          "usage: %s write FILE KIND CAPACITY FP_RATE N PREFIX\n"
          "       %s check FILE N PREFIX ABSENT_PREFIX\n",
          argv[0], argv[0]);
  return 2;
}
