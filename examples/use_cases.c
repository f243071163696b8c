/* SPDX-License-Identifier: Apache-2.0 */
/* use_cases.c -- three common uses of a Bloom filter, from C.
 *
 * Build against an installed bloom:  cc use_cases.c $(pkg-config --cflags --libs bloom)
 *
 *  1. "Is the key in this data file?" (as Cassandra asks): a filter saved
 *     next to each data file answers "certainly not" for most absent keys, so
 *     those lookups never read the file.
 *  2. Join pre-filter (MapReduce): a filter of the small table's
 *     keys drops big-table rows that cannot join before they are shuffled.
 *  3. Stream de-duplication: bloom_test_and_add is "contains,
 *     else add" in one call.
 */
#include <bloom/bloom.h>
#include <stdio.h>
#include <string.h>

static bloom_filter *make(uint64_t n, double p) {
  bloom_options o;
  bloom_options_init(&o);
  o.capacity = n;
  o.fp_rate = p;
  bloom_filter *f = NULL;
  if (bloom_create(&o, &f) != BLOOM_OK) fprintf(stderr, "create: %s\n", bloom_last_error());
  return f;
}

static size_t key(char *buf, const char *tag, int i) { return (size_t)sprintf(buf, "%s%d", tag, i); }

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char path[4096], k[64];
  int i;
  snprintf(path, sizeof path, "%s/use_cases_c.data.bloom", dir);

  /* 1. The data file holds rows 0..9999; its filter is saved beside it. */
  bloom_filter *f = make(10000, 0.01);
  if (f == NULL) return 1;
  for (i = 0; i < 10000; i++) bloom_add(f, k, key(k, "row", i));
  if (bloom_save(f, path) != BLOOM_OK) return fprintf(stderr, "%s\n", bloom_last_error()), 1;
  bloom_destroy(f);
  bloom_filter *sstable = NULL;
  if (bloom_map(path, &sstable) != BLOOM_OK) return fprintf(stderr, "%s\n", bloom_last_error()), 1;
  int reads = 0, found = 0; /* lookups of rows 5000..24999: half present */
  for (i = 5000; i < 25000; i++)
    if (bloom_query(sstable, k, key(k, "row", i)) == 1) reads++, found += i < 10000;
  printf("precheck: 20000 lookups, %d data-file reads, %d of 5000 present rows found\n", reads, found);
  bloom_destroy(sstable);

  /* 2. users (small side) JOIN clicks (big side) ON user id. */
  bloom_filter *users = make(1000, 0.01);
  for (i = 0; i < 1000; i++) bloom_add(users, k, key(k, "user", i * 7));
  int shuffled = 0, joinable = 0;
  for (i = 0; i < 50000; i++) { /* click i comes from user i % 20000 */
    int u = i % 20000;
    if (bloom_query(users, k, key(k, "user", u)) == 1) shuffled++, joinable += (u % 7 == 0 && u < 7000);
  }
  printf("join: 50000 clicks, %d shuffled, %d joinable kept\n", shuffled, joinable);
  bloom_destroy(users);

  /* 3. Message ids with every tenth one delivered twice. */
  bloom_filter *seen = make(100000, 0.001);
  int delivered = 0, duplicates = 0;
  for (i = 0; i < 11000; i++) {
    int id = i < 10000 ? i : (i - 10000) * 10;
    if (bloom_test_and_add(seen, k, key(k, "msg-", id)) == 1)
      duplicates++;
    else
      delivered++;
  }
  printf("dedup: 11000 messages, %d delivered, %d dropped as duplicates\n", delivered, duplicates);
  bloom_destroy(seen);
  remove(path);
  return 0;
}
