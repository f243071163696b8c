/* SPDX-License-Identifier: Apache-2.0 */
/* quickstart.c -- build a classic filter from a key file (one key per line,
 * any length), save it, load it back, query it, and print its info.
 *
 *   quickstart KEYS_FILE FILTER_OUT [QUERY...]
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <bloom/bloom.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, int status) {
  fprintf(stderr, "quickstart: %s: %s (%s)\n", what, bloom_strerror(status), bloom_last_error());
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s KEYS_FILE FILTER_OUT [QUERY...]\n", argv[0]);
    return 2;
  }
  FILE *in = fopen(argv[1], "r");
  if (in == NULL) {
    perror(argv[1]);
    return 1;
  }
  /* First pass counts the keys so the filter is sized for exactly them.
   * getline, not fgets into a fixed buffer: a longer line would become two
   * keys, and the whole line would then answer "no". */
  char *line = NULL;
  size_t cap = 0;
  ssize_t got;
  uint64_t n = 0;
  while (getline(&line, &cap, in) != -1) n++;
  rewind(in);

  bloom_options opts;
  bloom_options_init(&opts);
  opts.capacity = n > 0 ? n : 1;
  opts.fp_rate = 0.001;
  bloom_filter *f = NULL;
  int rc = bloom_create(&opts, &f);
  if (rc != BLOOM_OK) return fail("create", rc);
  while ((got = getline(&line, &cap, in)) != -1) {
    size_t len = (size_t)got; /* the line's bytes, NULs included */
    if (len > 0 && line[len - 1] == '\n') len--;
    if (len > 0 && line[len - 1] == '\r') len--;
    if ((rc = bloom_add(f, line, len)) != BLOOM_OK) return fail("add", rc);
  }
  free(line);
  fclose(in);

  if ((rc = bloom_save(f, argv[2])) != BLOOM_OK) return fail("save", rc);
  bloom_destroy(f);
  bloom_filter *g = NULL;
  if ((rc = bloom_load(argv[2], &g)) != BLOOM_OK) return fail("load", rc);

  bloom_info info;
  info.struct_size = sizeof info;
  if ((rc = bloom_get_info(g, &info)) != BLOOM_OK) return fail("info", rc);
  printf("bloom %s: %s filter, %llu keys from %s, saved to %s\n", bloom_version_string(),
         bloom_kind_name(info.kind), (unsigned long long)info.keys_added, argv[1], argv[2]);
  printf("  m = %llu bits (%llu bytes, %.2f bits/key), k = %u, hash = %s\n", (unsigned long long)info.bits,
         (unsigned long long)info.bytes, n ? (double)info.bits / (double)n : 0.0, info.hashes,
         bloom_hash_name(info.hash));
  printf("  fill %.4f, estimated distinct keys %.0f, expected FPR now %.6f (target %.6f)\n", info.fill_ratio,
         info.estimated_keys, info.expected_fp_rate, info.fp_rate);
  for (int i = 3; i < argc; i++)
    printf("%s\t%s\n", argv[i], bloom_query(g, argv[i], strlen(argv[i])) == 1 ? "maybe" : "no");
  bloom_destroy(g);
  return 0;
}
