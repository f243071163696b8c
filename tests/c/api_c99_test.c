/* SPDX-License-Identifier: Apache-2.0 */
/* api_c99_test.c -- every function of the C API, called from strict C99
 * (-std=c99 -pedantic -Werror) against the shared library.
 *
 * usage: bloom_c99_api_test SCRATCH_DIR
 */
#include <bloom/bloom.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                                           \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: %s\n", __FILE__, __LINE__, #cond, \
              bloom_last_error());                                                            \
      failures++;                                                                             \
    }                                                                                         \
  } while (0)

static int little_endian_host(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

int main(int argc, char **argv) {
  char path[4096];
  bloom_options o;
  bloom_filter *f = NULL, *g = NULL, *h = NULL, *m = NULL;
  bloom_info info;
  char key[32];
  const void *keys[100];
  size_t lens[100];
  char store[100][16];
  uint8_t results[100];
  size_t size = 0, written = 0;
  unsigned char *buf;
  uint64_t bits = 0;
  uint32_t hashes = 0;
  int i;

  if (argc < 2) return 2;
  snprintf(path, sizeof path, "%s/c99_api_test.bloom", argv[1]);

  bloom_options_init(&o);
  CHECK(o.struct_size == sizeof o && bloom_options_size() == sizeof o);
  o.capacity = 1000;
  o.fp_rate = 0.01;
  CHECK(bloom_create(&o, &f) == BLOOM_OK && f != NULL);

  for (i = 0; i < 100; i++) {
    sprintf(store[i], "batch-%d", i);
    keys[i] = store[i];
    lens[i] = strlen(store[i]);
  }
  CHECK(bloom_add(f, "alpha", 5) == BLOOM_OK);
  CHECK(bloom_query(f, "alpha", 5) == 1);
  CHECK(bloom_test_and_add(f, "beta", 4) == 0);
  CHECK(bloom_test_and_add(f, "beta", 4) == 1);
  CHECK(bloom_remove(f, "alpha", 5) == BLOOM_E_UNSUPPORTED);
  CHECK(bloom_add_batch(f, keys, lens, 100) == BLOOM_OK);
  CHECK(bloom_query_batch(f, keys, lens, 100, results) == BLOOM_OK);
  for (i = 0; i < 100; i++) CHECK(results[i] == 1);

  CHECK(bloom_clone(f, &g) == BLOOM_OK && g != NULL);
  CHECK(bloom_clear(g) == BLOOM_OK);
  CHECK(bloom_query(g, "alpha", 5) == 0);
  CHECK(bloom_merge(g, f) == BLOOM_OK);
  CHECK(bloom_query(g, "alpha", 5) == 1);
  CHECK(bloom_intersect(g, f) == BLOOM_OK);
  CHECK(bloom_query(g, "beta", 4) == 1);

  CHECK(bloom_save(f, path) == BLOOM_OK);
  CHECK(bloom_load(path, &h) == BLOOM_OK && h != NULL);
  if (little_endian_host()) {
    CHECK(bloom_map(path, &m) == BLOOM_OK && m != NULL);
  } else {
    /* Mapping reads the arrays in place: little-endian hosts only. */
    CHECK(bloom_map(path, &m) == BLOOM_E_UNSUPPORTED && m == NULL);
    CHECK(bloom_load(path, &m) == BLOOM_OK && m != NULL); /* what the rest compares */
  }
  for (i = 0; i < 1000; i++) {
    sprintf(key, "probe-%d", i);
    CHECK(bloom_query(h, key, strlen(key)) == bloom_query(f, key, strlen(key)));
    CHECK(bloom_query(m, key, strlen(key)) == bloom_query(f, key, strlen(key)));
  }
  if (little_endian_host()) CHECK(bloom_add(m, "x", 1) == BLOOM_E_UNSUPPORTED);

  CHECK(bloom_serialized_size(f, &size) == BLOOM_OK && size > 136);
  buf = (unsigned char *)malloc(size);
  CHECK(bloom_serialize(f, buf, size, &written) == BLOOM_OK && written == size);
  bloom_destroy(h);
  h = NULL;
  CHECK(bloom_deserialize(buf, size, &h) == BLOOM_OK && h != NULL);
  CHECK(bloom_query(h, "beta", 4) == 1);
  buf[size / 2] ^= 1;
  bloom_destroy(h);
  h = (bloom_filter *)buf; /* must be reset to NULL on failure */
  CHECK(bloom_deserialize(buf, size, &h) == BLOOM_E_CHECKSUM && h == NULL);
  CHECK(bloom_deserialize(buf, 5, &h) == BLOOM_E_FORMAT && h == NULL);
  free(buf);

  info.struct_size = sizeof info;
  CHECK(bloom_info_size() == sizeof info);
  CHECK(bloom_get_info(f, &info) == BLOOM_OK);
  CHECK(info.kind == BLOOM_KIND_CLASSIC && info.hashes == 7 && info.keys_added == 102);
  CHECK(info.estimated_keys > 90 && info.estimated_keys < 115);
  CHECK(bloom_get_stage_info(f, 0, &info) == BLOOM_OK && info.keys_added == 102);
  CHECK(bloom_get_stage_info(f, 1, &info) == BLOOM_E_INVALID_ARG);

  CHECK(bloom_optimal_params(200000, 0.01, &bits, &hashes) == BLOOM_OK);
  CHECK(bits == 1917012 && hashes == 7);
  CHECK(fabs(bloom_expected_fp_rate(200000, bits, hashes) - 0.01) < 0.0005);

  CHECK(strcmp(bloom_strerror(BLOOM_E_CHECKSUM), "checksum mismatch: the data is damaged") == 0);
  CHECK(bloom_add(NULL, "a", 1) == BLOOM_E_INVALID_ARG);
  CHECK(strstr(bloom_last_error(), "bloom_add") != NULL);
  CHECK(strcmp(bloom_kind_name(BLOOM_KIND_COUNTING), "counting") == 0);
  CHECK(strcmp(bloom_hash_name(BLOOM_HASH_XXH3), "xxh3") == 0);
  CHECK(bloom_kind_from_name("blocked") == BLOOM_KIND_BLOCKED);
  CHECK(bloom_hash_from_name("murmur3") == BLOOM_HASH_MURMUR3);
  CHECK(bloom_version_number() == BLOOM_VERSION_NUMBER);
  CHECK(bloom_version_string() != NULL);

  /* Another library's file: Guava 31.1's bytes for a long funnel filter
   * (10 keys at 0.01) holding 42L, imported, queried and exported back. */
  {
    static const unsigned char guava[22] = {0x01, 0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00,
                                            0x80, 0x04, 0x00, 0x00, 0x20, 0x01, 0x01, 0x08,
                                            0x00, 0x00, 0x40, 0x02, 0x00, 0x00};
    static const unsigned char k42[8] = {42, 0, 0, 0, 0, 0, 0, 0};
    unsigned char back[22];
    size_t need = 0, out_len = 0;
    bloom_filter *gv = NULL;
    CHECK(bloom_import(BLOOM_FORMAT_GUAVA, guava, sizeof guava, &gv) == BLOOM_OK);
    CHECK(bloom_query(gv, k42, sizeof k42) == 1);
    CHECK(bloom_export_size(gv, BLOOM_FORMAT_GUAVA, &need) == BLOOM_OK && need == sizeof guava);
    CHECK(bloom_export(gv, BLOOM_FORMAT_GUAVA, back, 3, &out_len) == BLOOM_E_BUFFER_TOO_SMALL && out_len == 22);
    CHECK(bloom_export(gv, BLOOM_FORMAT_GUAVA, back, sizeof back, &out_len) == BLOOM_OK);
    CHECK(out_len == sizeof guava && memcmp(back, guava, sizeof guava) == 0);
    CHECK(bloom_export_size(gv, BLOOM_FORMAT_PARQUET, &need) == BLOOM_E_UNSUPPORTED);
    CHECK(bloom_import(BLOOM_FORMAT_GUAVA, guava, 21, &h) == BLOOM_E_FORMAT && h == NULL);
    CHECK(bloom_import(9, guava, sizeof guava, &h) == BLOOM_E_INVALID_ARG && h == NULL);
    CHECK(bloom_format_from_name("bits-and-blooms") == BLOOM_FORMAT_BITS_AND_BLOOMS);
    CHECK(strcmp(bloom_format_name(BLOOM_FORMAT_PARQUET), "parquet") == 0 && bloom_format_name(0) == NULL);
    bloom_destroy(gv);
  }

  bloom_destroy(f);
  bloom_destroy(g);
  bloom_destroy(h);
  bloom_destroy(m);
  bloom_destroy(NULL);
  remove(path);
  if (failures != 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("all C API checks passed\n");
  return 0;
}
