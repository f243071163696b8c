/* SPDX-License-Identifier: Apache-2.0 */
/* runner.c -- the conformance suite (cases.json) through the C API.
 *
 *   bloom_conformance_runner CASES_JSON REPO_ROOT TMP_DIR
 *
 * Per case: create, add (batch or one by one), remove, every query single
 * and batch, every recorded info field, the image's size and SHA-256; then
 * the answers again from a deserialized copy (whose image must be
 * byte-identical), a saved and loaded file and a mapped one. Then every
 * golden file. BLOOM_CONFORMANCE_OUT: write each image as <case>.bloom
 * there; BLOOM_CONFORMANCE_IN: also check the images another language
 * wrote there. Exit status 1 on any failure, each one printed. */
#include <bloom/bloom.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_reader.h"
#include "sha256.h"

/* bloom_options with window_ms appended after counter_bits (the window
 * kind's API), laid out here so the runner builds whether or not this
 * tree's bloom.h has the member yet; struct_size tells the library. */
typedef struct runner_options {
  size_t struct_size;
  int32_t kind;
  uint64_t capacity;
  double fp_rate;
  int32_t hash;
  uint64_t seed;
  uint32_t flags;
  uint64_t bits;
  uint32_t hashes;
  double growth;
  double tightening;
  uint32_t counter_bits;
  uint64_t window_ms;
} runner_options;
_Static_assert(offsetof(runner_options, counter_bits) == offsetof(bloom_options, counter_bits),
               "runner_options extends bloom_options");
_Static_assert(sizeof(bloom_options) <= sizeof(runner_options), "runner_options extends bloom_options");

static int failures;
static const char *current = "";

static void failf(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "FAIL %s: ", current);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  failures++;
}

static void fail_status(const char *what, int st) {
  fprintf(stderr, "FAIL %s: %s: %s (%s)\n", current, what, bloom_strerror(st), bloom_last_error());
  failures++;
}

/* Decode a key ("s:text" or "x:hex") into a malloc'd buffer; -1 if malformed. */
static int decode_key(const json_value *k, unsigned char **out, size_t *len) {
  if (!k || k->type != JSON_STRING || k->len < 2 || k->text[1] != ':') return -1;
  const char *body = k->text + 2;
  size_t n = k->len - 2;
  if (k->text[0] == 's') {
    *out = malloc(n ? n : 1);
    if (!*out) return -1;
    memcpy(*out, body, n);
    *len = n;
    return 0;
  }
  if (k->text[0] != 'x' || n % 2) return -1;
  *out = malloc(n / 2 ? n / 2 : 1);
  if (!*out) return -1;
  for (size_t i = 0; i < n / 2; ++i) {
    unsigned v;
    if (sscanf(body + 2 * i, "%2x", &v) != 1) {
      free(*out);
      return -1;
    }
    (*out)[i] = (unsigned char)v;
  }
  *len = n / 2;
  return 0;
}

typedef struct keyset {
  size_t n;
  unsigned char **keys;
  size_t *lens;
} keyset;

static void keyset_free(keyset *s) {
  for (size_t i = 0; i < s->n; ++i) free(s->keys[i]);
  free(s->keys);
  free(s->lens);
  memset(s, 0, sizeof *s);
}

/* items: an array of key strings, or (pairs) of [key, answer] pairs. */
static int keyset_from(const json_value *arr, int pairs, keyset *s, uint8_t **want) {
  memset(s, 0, sizeof *s);
  if (!arr || arr->type != JSON_ARRAY) return -1;
  s->keys = calloc(arr->n + 1, sizeof *s->keys);
  s->lens = calloc(arr->n + 1, sizeof *s->lens);
  if (want) *want = calloc(arr->n + 1, 1);
  if (!s->keys || !s->lens || (want && !*want)) return -1;
  for (size_t i = 0; i < arr->n; ++i) {
    const json_value *k = &arr->items[i];
    if (pairs) {
      if (k->type != JSON_ARRAY || k->n != 2 || k->items[1].type != JSON_BOOL) return -1;
      (*want)[i] = (uint8_t)k->items[1].boolean;
      k = &k->items[0];
    }
    if (decode_key(k, &s->keys[i], &s->lens[i]) != 0) return -1;
    s->n = i + 1;
  }
  return 0;
}

static void check_answers(const bloom_filter *f, const json_value *query, const char *where) {
  keyset s;
  uint8_t *want = NULL;
  if (keyset_from(query, 1, &s, &want) != 0) {
    failf("%s: malformed query list%s", where, "");
  } else {
    uint8_t *got = calloc(s.n + 1, 1);
    int st = got ? bloom_query_batch(f, (const void *const *)s.keys, s.lens, s.n, got) : BLOOM_E_NOMEM;
    if (st != BLOOM_OK) fail_status("query_batch", st);
    for (size_t i = 0; i < s.n && st == BLOOM_OK; ++i) {
      int one = bloom_query(f, s.keys[i], s.lens[i]);
      const char *key = query->items[i].items[0].text;
      if (one != want[i]) failf("%s: query %s differs from the case", where, key);
      if (got[i] != want[i]) failf("%s: batch query %s differs from the case", where, key);
    }
    free(got);
  }
  keyset_free(&s);
  free(want);
}

static uint64_t num_u64(const json_value *v) {
  return v && v->type == JSON_NUMBER ? strtoull(v->text, NULL, 10) : 0;
}

static int options_from(const json_value *o, runner_options *out) {
  bloom_options base;
  bloom_options_init(&base);
  memset(out, 0, sizeof *out);
  memcpy(out, &base, sizeof base);
  out->struct_size = sizeof *out;
  if (!o || o->type != JSON_OBJECT) return -1;
  for (size_t i = 0; i < o->n; ++i) {
    const char *k = o->keys[i];
    const json_value *v = &o->items[i];
    if (strcmp(k, "kind") == 0 || strcmp(k, "hash") == 0) {
      int code = v->type == JSON_STRING
                     ? (k[0] == 'k' ? bloom_kind_from_name(v->text) : bloom_hash_from_name(v->text))
                     : 0;
      if (code == 0) {
        failf("unknown %s %s (not in this library)", k, v->type == JSON_STRING ? v->text : "?");
        return -1;
      }
      if (k[0] == 'k')
        out->kind = code;
      else
        out->hash = code;
    } else if (strcmp(k, "capacity") == 0)
      out->capacity = num_u64(v);
    else if (strcmp(k, "fp_rate") == 0)
      out->fp_rate = strtod(v->text, NULL);
    else if (strcmp(k, "seed") == 0)
      out->seed = num_u64(v);
    else if (strcmp(k, "bits") == 0)
      out->bits = num_u64(v);
    else if (strcmp(k, "hashes") == 0)
      out->hashes = (uint32_t)num_u64(v);
    else if (strcmp(k, "growth") == 0)
      out->growth = strtod(v->text, NULL);
    else if (strcmp(k, "tightening") == 0)
      out->tightening = strtod(v->text, NULL);
    else if (strcmp(k, "counter_bits") == 0)
      out->counter_bits = (uint32_t)num_u64(v);
    else if (strcmp(k, "window_ms") == 0) {
      out->window_ms = num_u64(v);
      if (out->window_ms && bloom_options_size() < sizeof *out) {
        failf("window_ms %s: this library has no window_ms option%s", v->text, "");
        return -1;
      }
    } else if (strcmp(k, "flags") == 0) {
      for (size_t j = 0; j < v->n; ++j) {
        const char *fl = v->items[j].text;
        if (fl && strcmp(fl, "concurrent") == 0)
          out->flags |= BLOOM_FLAG_CONCURRENT;
        else if (fl && strcmp(fl, "plain_double_hashing") == 0)
          out->flags |= BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
        else {
          failf("unknown flag %s%s", fl ? fl : "?", "");
          return -1;
        }
      }
    } else {
      failf("unknown option %s%s", k, "");
      return -1;
    }
  }
  return 0;
}

static void check_info(const bloom_filter *f, const json_value *want) {
  bloom_info i;
  memset(&i, 0, sizeof i);
  i.struct_size = sizeof i;
  int st = bloom_get_info(f, &i);
  if (st != BLOOM_OK) {
    fail_status("get_info", st);
    return;
  }
  for (size_t k = 0; want && k < want->n; ++k) {
    const char *name = want->keys[k];
    const json_value *v = &want->items[k];
    int ok;
    if (strcmp(name, "kind") == 0)
      ok = bloom_kind_name(i.kind) && strcmp(bloom_kind_name(i.kind), v->text) == 0;
    else if (strcmp(name, "hash") == 0)
      ok = bloom_hash_name(i.hash) && strcmp(bloom_hash_name(i.hash), v->text) == 0;
    else if (strcmp(name, "seed") == 0)
      ok = i.seed == num_u64(v);
    else if (strcmp(name, "hashes") == 0)
      ok = i.hashes == num_u64(v);
    else if (strcmp(name, "bits") == 0)
      ok = i.bits == num_u64(v);
    else if (strcmp(name, "bytes") == 0)
      ok = i.bytes == num_u64(v);
    else if (strcmp(name, "capacity") == 0)
      ok = i.capacity == num_u64(v);
    else if (strcmp(name, "keys_added") == 0)
      ok = i.keys_added == num_u64(v);
    else if (strcmp(name, "stages") == 0)
      ok = i.stages == num_u64(v);
    else if (strcmp(name, "counter_bits") == 0)
      ok = i.counter_bits == num_u64(v);
    else if (strcmp(name, "flags") == 0) {
      uint32_t flags = 0;
      for (size_t j = 0; j < v->n; ++j)
        flags |= strcmp(v->items[j].text, "concurrent") == 0             ? BLOOM_FLAG_CONCURRENT
                 : strcmp(v->items[j].text, "plain_double_hashing") == 0 ? BLOOM_FLAG_PLAIN_DOUBLE_HASHING
                                                                         : 0x80000000u;
      ok = flags == i.flags;
    } else {
      failf("info field %s is unknown to this runner%s", name, "");
      continue;
    }
    if (!ok) failf("info.%s differs from the case%s", name, "");
  }
}

static unsigned char *image_of(const bloom_filter *f, size_t *len) {
  size_t n = 0, written = 0;
  if (bloom_serialized_size(f, &n) != BLOOM_OK) return NULL;
  unsigned char *buf = malloc(n ? n : 1);
  if (buf && bloom_serialize(f, buf, n, &written) != BLOOM_OK) {
    free(buf);
    return NULL;
  }
  *len = written;
  return buf;
}

/* Check a filter reopened from elsewhere: answers, and the same bytes. */
static void check_reopened(bloom_filter *g, int st, const json_value *query, const unsigned char *image,
                           size_t len, const char *how) {
  if (st != BLOOM_OK) {
    fail_status(how, st);
    return;
  }
  check_answers(g, query, how);
  size_t glen = 0;
  unsigned char *gimg = image_of(g, &glen);
  if (!gimg || glen != len || memcmp(gimg, image, len) != 0) failf("%s: image has other bytes%s", how, "");
  free(gimg);
  bloom_destroy(g);
}

static void run_case(const json_value *c, const char *tmp) {
  runner_options o;
  const json_value *name = json_get(c, "name");
  current = name && name->type == JSON_STRING ? name->text : "?";
  if (options_from(json_get(c, "options"), &o) != 0) return;
  bloom_filter *f = NULL;
  int st = bloom_create((const bloom_options *)&o, &f);
  if (st != BLOOM_OK) {
    fail_status("create", st);
    return;
  }
  keyset add, rm;
  const json_value *batch = json_get(c, "add_batch");
  if (keyset_from(json_get(c, "add"), 0, &add, NULL) != 0) failf("malformed add list%s%s", "", "");
  if (batch && batch->boolean) {
    if ((st = bloom_add_batch(f, (const void *const *)add.keys, add.lens, add.n)) != BLOOM_OK)
      fail_status("add_batch", st);
  } else {
    for (size_t i = 0; i < add.n; ++i)
      if ((st = bloom_add(f, add.keys[i], add.lens[i])) != BLOOM_OK) fail_status("add", st);
  }
  keyset_free(&add);
  const json_value *remove = json_get(c, "remove");
  if (remove) {
    if (keyset_from(remove, 0, &rm, NULL) != 0) failf("malformed remove list%s%s", "", "");
    for (size_t i = 0; i < rm.n; ++i)
      if ((st = bloom_remove(f, rm.keys[i], rm.lens[i])) != BLOOM_OK) fail_status("remove", st);
    keyset_free(&rm);
  }
  const json_value *query = json_get(c, "query");
  check_answers(f, query, "filter");
  check_info(f, json_get(c, "info"));
  size_t len = 0;
  unsigned char *image = image_of(f, &len);
  if (!image) {
    failf("serialize failed%s%s", "", "");
    bloom_destroy(f);
    return;
  }
  char hex[65];
  sha256_hex(image, len, hex);
  const json_value *sha = json_get(c, "image_sha256");
  if (len != num_u64(json_get(c, "image_size"))) failf("image size differs from the case%s%s", "", "");
  if (!sha || sha->type != JSON_STRING || strcmp(sha->text, hex) != 0)
    failf("image sha256 %s differs%s", hex, "");

  bloom_filter *g = NULL;
  st = bloom_deserialize(image, len, &g);
  check_reopened(g, st, query, image, len, "deserialized");
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.bloom", tmp, current);
  if ((st = bloom_save(f, path)) != BLOOM_OK) fail_status("save", st);
  st = bloom_load(path, &g);
  check_reopened(g, st, query, image, len, "loaded");
  st = bloom_map(path, &g);
  check_reopened(g, st, query, image, len, "mapped");
  const char *out = getenv("BLOOM_CONFORMANCE_OUT");
  if (out && *out) {
    snprintf(path, sizeof path, "%s/%s.bloom", out, current);
    if ((st = bloom_save(f, path)) != BLOOM_OK) fail_status("save to BLOOM_CONFORMANCE_OUT", st);
  }
  const char *in = getenv("BLOOM_CONFORMANCE_IN");
  if (in && *in) {
    snprintf(path, sizeof path, "%s/%s.bloom", in, current);
    st = bloom_load(path, &g);
    check_reopened(g, st, query, image, len, "from BLOOM_CONFORMANCE_IN");
  }
  free(image);
  bloom_destroy(f);
}

static char *read_file(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  size_t cap = 1 << 20, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, fp);
    if (n < cap) break;
    char *nb = realloc(buf, cap *= 2);
    if (!nb) free(buf);
    buf = nb;
  }
  fclose(fp);
  *len = n;
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s CASES_JSON REPO_ROOT TMP_DIR\n", argv[0]);
    return 2;
  }
  size_t len = 0;
  char *text = read_file(argv[1], &len);
  if (!text) {
    perror(argv[1]);
    return 2;
  }
  json_value doc;
  char err[256];
  if (json_parse(text, len, &doc, err, sizeof err) != 0) {
    fprintf(stderr, "%s: %s\n", argv[1], err);
    free(text);
    return 2;
  }
  free(text);
  if (num_u64(json_get(&doc, "format")) != 1) {
    fprintf(stderr, "%s: unknown format\n", argv[1]);
    json_free(&doc);
    return 2;
  }
  const json_value *cases = json_get(&doc, "cases"), *golden = json_get(&doc, "golden");
  size_t ncases = cases ? cases->n : 0, ngolden = golden ? golden->n : 0;
  for (size_t i = 0; i < ncases; ++i) run_case(&cases->items[i], argv[3]);
  for (size_t i = 0; i < ngolden; ++i) {
    const json_value *file = json_get(&golden->items[i], "file");
    char path[4096];
    current = file && file->type == JSON_STRING ? file->text : "?";
    snprintf(path, sizeof path, "%s/%s", argv[2], current);
    bloom_filter *f = NULL;
    int st = bloom_load(path, &f);
    if (st != BLOOM_OK) {
      fail_status("load", st);
      continue;
    }
    check_answers(f, json_get(&golden->items[i], "query"), "golden");
    bloom_destroy(f);
  }
  json_free(&doc);
  if (failures) {
    printf("conformance (c, library %s): %d failures in %zu cases + %zu golden files\n",
           bloom_version_string(), failures, ncases, ngolden);
    return 1;
  }
  printf("conformance (c, library %s): %zu cases and %zu golden files pass\n", bloom_version_string(), ncases,
         ngolden);
  return 0;
}
