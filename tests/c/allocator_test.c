/* SPDX-License-Identifier: Apache-2.0 */
/* allocator_test.c -- bloom_set_allocator through the public C API (issue
 * 28): every kind's memory comes from the embedder's allocator with the
 * alignment asked, all of it is given back, failures are NOMEM without a
 * leak, and the allocator cannot change while a filter exists. */
#include <bloom/bloom.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* A counting allocator: live blocks and bytes, the largest request, whether
 * every free matched its alloc's size and alignment, and a countdown to an
 * injected failure. */
enum { kMaxBlocks = 4096 };
static struct {
  void *ptr[kMaxBlocks];
  size_t size[kMaxBlocks], align[kMaxBlocks];
  int used;
  long allocs, frees, live;
  size_t live_bytes, largest, largest_align;
  int mismatched, misaligned;
  long fail_after; /* 0: never fail */
  int misalign_next;
} g;

static void reset(void) { memset(&g, 0, sizeof g); }

static void *count_alloc(void *user, size_t size, size_t alignment) {
  CHECK(user == &g);
  if (g.fail_after > 0 && --g.fail_after == 0) return NULL;
  if (alignment < 16 || alignment > 64 || (alignment & (alignment - 1)) != 0 || size == 0) ++g.misaligned;
  char *p = aligned_alloc(64, (size + 64 + 63) / 64 * 64);
  if (p == NULL) return NULL;
  if (g.misalign_next) { /* hand out a pointer 8 bytes off: the library must refuse it */
    g.misalign_next = 0;
    p += 8;
  }
  int slot = -1;
  for (int i = 0; i < g.used; ++i)
    if (g.ptr[i] == NULL) slot = i;
  if (slot < 0) slot = g.used++;
  g.ptr[slot] = p;
  g.size[slot] = size;
  g.align[slot] = alignment;
  ++g.allocs;
  ++g.live;
  g.live_bytes += size;
  if (size > g.largest) {
    g.largest = size;
    g.largest_align = alignment;
  }
  return p;
}

static void count_free(void *user, void *ptr, size_t size, size_t alignment) {
  CHECK(user == &g);
  for (int i = 0; i < g.used; ++i) {
    if (g.ptr[i] != ptr) continue;
    if (g.size[i] != size || g.align[i] != alignment) ++g.mismatched;
    g.ptr[i] = NULL;
    ++g.frees;
    --g.live;
    g.live_bytes -= g.size[i];
    free((char *)ptr - ((uintptr_t)ptr % 64));
    return;
  }
  ++g.mismatched; /* not ours */
}

static const bloom_allocator kCounting = {sizeof(bloom_allocator), count_alloc, count_free, &g};

static bloom_filter *make(int kind, uint64_t capacity) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.capacity = capacity;
  o.fp_rate = 0.01;
  bloom_filter *f = NULL;
  return bloom_create(&o, &f) == BLOOM_OK ? f : NULL;
}

static void add_keys(bloom_filter *f, int from, int to) {
  char key[32];
  for (int i = from; i < to; ++i) {
    snprintf(key, sizeof key, "k%d", i);
    CHECK(bloom_add(f, key, strlen(key)) == BLOOM_OK);
  }
}

static int all_present(const bloom_filter *f, int from, int to) {
  char key[32];
  for (int i = from; i < to; ++i) {
    snprintf(key, sizeof key, "k%d", i);
    if (bloom_query(f, key, strlen(key)) != 1) return 0;
  }
  return 1;
}

static void test_arguments(void) {
  bloom_allocator a = kCounting;
  a.struct_size = sizeof a - 1;
  CHECK(bloom_set_allocator(&a) == BLOOM_E_INVALID_ARG);
  a = kCounting;
  a.alloc = NULL;
  CHECK(bloom_set_allocator(&a) == BLOOM_E_INVALID_ARG);
  a = kCounting;
  a.free = NULL;
  CHECK(bloom_set_allocator(&a) == BLOOM_E_INVALID_ARG);
  CHECK(bloom_set_allocator(NULL) == BLOOM_OK);
}

static void test_every_kind(void) {
  const int kinds[] = {BLOOM_KIND_CLASSIC, BLOOM_KIND_COUNTING, BLOOM_KIND_SCALABLE, BLOOM_KIND_PARTITIONED,
                       BLOOM_KIND_BLOCKED};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) {
    reset();
    CHECK(bloom_set_allocator(&kCounting) == BLOOM_OK);
    /* 3 M keys: arrays above the 2 MiB the default path maps itself. */
    bloom_filter *f = make(kinds[i], 3000000);
    CHECK(f != NULL);
    if (f == NULL) continue;
    bloom_info info;
    info.struct_size = sizeof info;
    CHECK(bloom_get_info(f, &info) == BLOOM_OK);
    CHECK(g.allocs >= 2); /* object and array */
    CHECK(g.largest >= info.bytes && g.largest_align == 64);
    CHECK(g.live_bytes >= info.bytes);
    /* While it lives the allocator cannot change. */
    CHECK(bloom_set_allocator(NULL) == BLOOM_E_UNSUPPORTED);
    add_keys(f, 0, 1000);
    bloom_filter *c = NULL;
    CHECK(bloom_clone(f, &c) == BLOOM_OK);
    size_t size = 0;
    CHECK(bloom_serialized_size(f, &size) == BLOOM_OK);
    void *buf = malloc(size);
    size_t written = 0;
    CHECK(buf != NULL && bloom_serialize(f, buf, size, &written) == BLOOM_OK);
    bloom_filter *d = NULL;
    CHECK(bloom_deserialize(buf, written, &d) == BLOOM_OK);
    free(buf);
    CHECK(c != NULL && d != NULL && all_present(c, 0, 1000) && all_present(d, 0, 1000));
    CHECK(g.live_bytes >= 3 * info.bytes);
    bloom_destroy(f);
    bloom_destroy(c);
    bloom_destroy(d);
    CHECK(g.live == 0 && g.live_bytes == 0 && g.allocs == g.frees);
    CHECK(g.mismatched == 0 && g.misaligned == 0);
    CHECK(bloom_set_allocator(NULL) == BLOOM_OK);
  }
}

static void test_scalable_growth_and_failure(void) {
  reset();
  CHECK(bloom_set_allocator(&kCounting) == BLOOM_OK);
  bloom_filter *f = make(BLOOM_KIND_SCALABLE, 1000);
  CHECK(f != NULL);
  const long before = g.allocs;
  add_keys(f, 0, 5000); /* grows by stages */
  CHECK(g.allocs > before);
  /* The next stage's allocation fails: NOMEM, and every key added stays. */
  bloom_info info;
  info.struct_size = sizeof info;
  CHECK(bloom_get_info(f, &info) == BLOOM_OK);
  g.fail_after = 1;
  bloom_status st = BLOOM_OK;
  char key[32];
  int added = 5000;
  for (; added < 200000 && st == BLOOM_OK; ++added) {
    snprintf(key, sizeof key, "k%d", added);
    st = bloom_add(f, key, strlen(key));
  }
  CHECK(st == BLOOM_E_NOMEM);
  CHECK(all_present(f, 0, added - 1));
  g.fail_after = 0;
  bloom_destroy(f);
  CHECK(g.live == 0 && g.mismatched == 0);
  /* Creation failing at each allocation in turn: NOMEM, nothing left. */
  for (long n = 1; n <= 3; ++n) {
    reset();
    g.fail_after = n;
    bloom_filter *h = make(BLOOM_KIND_BLOCKED, 100000);
    if (h != NULL) bloom_destroy(h);
    CHECK(g.live == 0 && g.mismatched == 0);
  }
  reset();
  g.fail_after = 1;
  bloom_options o;
  bloom_options_init(&o);
  bloom_filter *h = NULL;
  CHECK(bloom_create(&o, &h) == BLOOM_E_NOMEM && h == NULL);
  /* A block with less alignment than asked is refused (and freed). */
  reset();
  g.misalign_next = 1;
  bloom_options_init(&o);
  o.kind = BLOOM_KIND_BLOCKED;
  CHECK(bloom_create(&o, &h) == BLOOM_E_NOMEM && h == NULL);
  CHECK(strstr(bloom_last_error(), "aligned") != NULL);
  CHECK(g.live == 0 && g.mismatched == 0);
  CHECK(bloom_set_allocator(NULL) == BLOOM_OK);
}

static void test_default_restored(void) {
  reset();
  bloom_filter *f = make(BLOOM_KIND_CLASSIC, 100000);
  CHECK(f != NULL);
  add_keys(f, 0, 100);
  CHECK(all_present(f, 0, 100));
  bloom_destroy(f);
  CHECK(g.allocs == 0); /* the defaults, not the old allocator */
}

int main(void) {
  test_arguments();
  test_every_kind();
  test_scalable_growth_and_failure();
  test_default_restored();
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  puts("allocator: all checks passed");
  return 0;
}
