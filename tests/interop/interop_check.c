/* SPDX-License-Identifier: Apache-2.0 */
/* interop_check -- checks the library's import and export against filters
 * another library wrote (tests/interop/run_interop.sh runs it):
 *
 *   interop_check FORMAT FILTER KEYS ADDED P
 *     FILTER: the other library's bytes; KEYS: lines "hex answer", the key's
 *     bytes and what the other library's query answered; the first ADDED
 *     keys are the ones it added, to a filter sized for ADDED keys at rate P.
 *     Checks that (1) bloom_import answers every key as the writer did,
 *     (2) bloom_export gives FILTER back byte for byte, (3) a filter made by
 *     bloom_create with the format's hash for (ADDED, P), given the same
 *     keys, exports to the same bytes (P = 0: skipped, the size was not
 *     chosen by (n, p)), and (4) the imported filter survives bloom_save's
 *     image (bloom_serialize / bloom_deserialize) with the same answers.
 *
 *   interop_check parquet-spec OUTDIR
 *     Writes split-block filters from Parquet's specification (BloomFilter.md),
 *     independently of the library (XXH64 from xxhash.h, the spec's block
 *     rule and salts): OUTDIR/parquet_{string,int64}.{bin,keys}, in the
 *     layout above, for the first mode to check.
 *
 * Exit status 0 when everything matches; otherwise 1, with what differed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bloom/bloom.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

typedef struct {
  unsigned char *data;
  size_t len;
} bytes;

static bytes read_file(const char *path) {
  bytes b = {NULL, 0};
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    exit(1);
  }
  size_t cap = 1 << 16;
  b.data = malloc(cap);
  size_t n;
  while ((n = fread(b.data + b.len, 1, cap - b.len, f)) > 0) {
    b.len += n;
    if (b.len == cap) b.data = realloc(b.data, cap *= 2);
  }
  fclose(f);
  return b;
}

typedef struct {
  unsigned char **keys;
  size_t *lens;
  int *answers;
  size_t n;
} key_list;

static int hexval(int c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

static key_list read_keys(const char *path) {
  key_list k = {NULL, NULL, NULL, 0};
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    perror(path);
    exit(1);
  }
  size_t cap = 0;
  char line[4096];
  while (fgets(line, sizeof line, f) != NULL) {
    char *space = strchr(line, ' ');
    if (space == NULL) continue;
    if (k.n == cap) {
      cap = cap ? cap * 2 : 1024;
      k.keys = realloc(k.keys, cap * sizeof *k.keys);
      k.lens = realloc(k.lens, cap * sizeof *k.lens);
      k.answers = realloc(k.answers, cap * sizeof *k.answers);
    }
    const size_t len = (size_t)(space - line) / 2;
    k.keys[k.n] = malloc(len + 1);
    for (size_t i = 0; i < len; ++i) k.keys[k.n][i] = (unsigned char)(hexval(line[2 * i]) * 16 + hexval(line[2 * i + 1]));
    k.lens[k.n] = len;
    k.answers[k.n] = atoi(space + 1);
    ++k.n;
  }
  fclose(f);
  return k;
}

static int failures = 0;

static void check(int ok, const char *what, const char *name) {
  if (!ok) {
    fprintf(stderr, "FAIL %s: %s (%s)\n", name, what, bloom_last_error());
    ++failures;
  }
}

static bytes export_of(const bloom_filter *f, int format) {
  bytes b = {NULL, 0};
  size_t size = 0;
  if (bloom_export_size(f, format, &size) != BLOOM_OK) return b;
  b.data = malloc(size ? size : 1);
  size_t written = 0;
  if (bloom_export(f, format, b.data, size, &written) != BLOOM_OK || written != size) {
    free(b.data);
    b.data = NULL;
    return b;
  }
  b.len = size;
  return b;
}

static int same(bytes a, bytes b) { return a.data != NULL && a.len == b.len && memcmp(a.data, b.data, a.len) == 0; }

static size_t disagreements(const bloom_filter *f, const key_list *k) {
  size_t differ = 0;
  for (size_t i = 0; i < k->n; ++i)
    if (bloom_query(f, k->keys[i], k->lens[i]) != k->answers[i]) ++differ;
  return differ;
}

static int check_filter(const char *format_name, const char *filter_path, const char *keys_path, size_t added,
                        double p) {
  const int format = bloom_format_from_name(format_name);
  if (format == 0) {
    fprintf(stderr, "unknown format %s\n", format_name);
    return 1;
  }
  const bytes in = read_file(filter_path);
  const key_list keys = read_keys(keys_path);
  size_t positives = 0;
  for (size_t i = 0; i < keys.n; ++i) positives += (size_t)keys.answers[i];
  check(keys.n >= added && positives >= added, "the keys file lists the added keys first",
        keys_path);

  bloom_filter *f = NULL;
  check(bloom_import(format, in.data, in.len, &f) == BLOOM_OK, "import", filter_path);
  if (f == NULL) return 1;
  const size_t differ = disagreements(f, &keys);
  check(differ == 0, "imported filter answers every key as its writer", filter_path);
  check(same(export_of(f, format), in), "export gives the writer's bytes", filter_path);

  size_t image_size = 0, written = 0;
  bloom_serialized_size(f, &image_size);
  unsigned char *image = malloc(image_size);
  bloom_filter *g = NULL;
  check(bloom_serialize(f, image, image_size, &written) == BLOOM_OK &&
            bloom_deserialize(image, written, &g) == BLOOM_OK,
        "bloom image round trip", filter_path);
  if (g != NULL) {
    check(disagreements(g, &keys) == 0, "loaded bloom image answers as the writer", filter_path);
    check(same(export_of(g, format), in), "loaded bloom image exports the writer's bytes", filter_path);
  }

  if (p > 0) {
    bloom_options o;
    bloom_options_init(&o);
    o.kind = format == BLOOM_FORMAT_PARQUET ? BLOOM_KIND_BLOCKED : BLOOM_KIND_CLASSIC;
    o.hash = format == BLOOM_FORMAT_GUAVA             ? BLOOM_HASH_GUAVA
             : format == BLOOM_FORMAT_BITS_AND_BLOOMS ? BLOOM_HASH_BITS_AND_BLOOMS
                                                      : BLOOM_HASH_PARQUET;
    o.capacity = added;
    o.fp_rate = p;
    bloom_filter *h = NULL;
    check(bloom_create(&o, &h) == BLOOM_OK, "create with the format's hash", filter_path);
    if (h != NULL) {
      for (size_t i = 0; i < added; ++i) bloom_add(h, keys.keys[i], keys.lens[i]);
      check(same(export_of(h, format), in), "a filter built here for the same keys exports the writer's bytes",
            filter_path);
      bloom_destroy(h);
    }
  }
  printf("%s %s: %zu keys (%zu added, %zu answered present), %zu disagree, %zu bytes%s\n", format_name,
         filter_path, keys.n, added, positives, differ, in.len, failures ? " -- FAILED" : "");
  bloom_destroy(g);
  bloom_destroy(f);
  free(image);
  return failures != 0;
}

/* Parquet's split-block filter, from its specification. */
static const uint32_t kSalt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                  0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

static void spec_insert(uint32_t *words, uint64_t blocks, const void *key, size_t len) {
  const uint64_t h = XXH64(key, len, 0);
  const uint64_t b = ((h >> 32) * blocks) >> 32;
  for (int i = 0; i < 8; ++i) words[b * 8 + i] |= (uint32_t)1 << (((uint32_t)h * kSalt[i]) >> 27);
}

static int spec_check(const uint32_t *words, uint64_t blocks, const void *key, size_t len) {
  const uint64_t h = XXH64(key, len, 0);
  const uint64_t b = ((h >> 32) * blocks) >> 32;
  for (int i = 0; i < 8; ++i)
    if (!(words[b * 8 + i] & ((uint32_t)1 << (((uint32_t)h * kSalt[i]) >> 27)))) return 0;
  return 1;
}

static size_t spec_key(int int64, size_t i, unsigned char *out) {
  if (int64) {
    const uint64_t v = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    for (int b = 0; b < 8; ++b) out[b] = (unsigned char)(v >> (8 * b));
    return 8;
  }
  return (size_t)sprintf((char *)out, i % 2 ? "value-%zu" : "a-longer-parquet-string-%zu", i);
}

static int write_spec(const char *dir) {
  for (int int64 = 0; int64 < 2; ++int64) {
    const uint64_t num_bytes = 4096; /* 128 blocks, a writer's power of two */
    const uint64_t blocks = num_bytes / 32;
    uint32_t *words = calloc(num_bytes / 4, 4);
    unsigned char key[64];
    const size_t added = 1000, probed = 20000;
    for (size_t i = 0; i < added; ++i) spec_insert(words, blocks, key, spec_key(int64, i, key));
    char path[4096];
    snprintf(path, sizeof path, "%s/parquet_%s.bin", dir, int64 ? "int64" : "string");
    FILE *f = fopen(path, "wb");
    if (f == NULL) return perror(path), 1;
    /* BloomFilterHeader: numBytes (zigzag varint of 4096 = 0x80 0x40), then
     * BLOCK, XXHASH, UNCOMPRESSED, each a union holding an empty struct. */
    const unsigned char header[] = {0x15, 0x80, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c,
                                    0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    fwrite(header, 1, sizeof header, f);
    for (uint64_t w = 0; w < num_bytes / 4; ++w) {
      const unsigned char le[4] = {(unsigned char)words[w], (unsigned char)(words[w] >> 8),
                                   (unsigned char)(words[w] >> 16), (unsigned char)(words[w] >> 24)};
      fwrite(le, 1, 4, f);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/parquet_%s.keys", dir, int64 ? "int64" : "string");
    f = fopen(path, "w");
    if (f == NULL) return perror(path), 1;
    for (size_t i = 0; i < probed; ++i) {
      const size_t len = spec_key(int64, i, key);
      for (size_t b = 0; b < len; ++b) fprintf(f, "%02x", key[b]);
      fprintf(f, " %d\n", spec_check(words, blocks, key, len));
    }
    fclose(f);
    free(words);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "parquet-spec") == 0) return write_spec(argv[2]);
  if (argc != 6) {
    fprintf(stderr, "usage: %s FORMAT FILTER KEYS ADDED P | %s parquet-spec OUTDIR\n", argv[0], argv[0]);
    return 2;
  }
  return check_filter(argv[1], argv[2], argv[3], (size_t)strtoull(argv[4], NULL, 10), strtod(argv[5], NULL));
}
