/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bloom.h -- the C API of bloom, a Bloom-filter library.
 *
 * This header is the whole contract: anything not declared here is not API.
 * It is C99, uses no C++ types, and is safe to include from C++.
 *
 * Conventions that hold for every function unless its comment says otherwise:
 *
 *  - Fallible calls return a bloom_status (0 = BLOOM_OK, negative = error).
 *    On failure a thread-local message with details is available from
 *    bloom_last_error(). Out-parameters come last; an out handle is set to
 *    NULL on failure.
 *  - Every pointer argument is checked: NULL where NULL is not allowed gives
 *    BLOOM_E_INVALID_ARG, never a crash. A key pointer may be NULL only when
 *    its length is 0.
 *  - Handles are opaque. The caller owns every handle it receives from a
 *    create/load/clone/deserialize/map call and releases it with
 *    bloom_destroy(). The library never keeps a pointer to caller memory
 *    after a call returns (except bloom_map, which owns its own mapping).
 *  - Thread safety: any number of threads may call read-only functions
 *    (query, query_batch, get_info, serialize, save, clone) on one filter at
 *    once. Functions that modify a filter need exclusive access, except
 *    bloom_add / bloom_add_batch / bloom_test_and_add on a filter created with
 *    BLOOM_FLAG_CONCURRENT (classic, partitioned and blocked kinds), which
 *    may run from many threads at once, alongside bloom_query and
 *    bloom_query_batch. Counting filters take the flag too (compare-and-swap
 *    counters; bloom_remove may also run concurrently); scalable filters
 *    refuse it with BLOOM_E_UNSUPPORTED. The other read-only calls
 *    (get_info, get_stage_info, serialize, serialized_size, save, clone,
 *    and the src of a merge or intersect) read the whole filter without
 *    atomics: call them once the concurrent writers have finished (e.g.
 *    after joining them).
 *  - No C++ exception ever leaves the library and bad input never aborts.
 *
 * Status values, enum values and struct layouts are pinned forever; new
 * values and new struct members are only ever appended.
 */
#ifndef BLOOM_BLOOM_H
#define BLOOM_BLOOM_H

#include <stddef.h>
#include <stdint.h>

#define BLOOM_VERSION_MAJOR 0
#define BLOOM_VERSION_MINOR 3
#define BLOOM_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, as bloom_version_number() returns. */
#define BLOOM_VERSION_NUMBER (BLOOM_VERSION_MAJOR * 10000 + BLOOM_VERSION_MINOR * 100 + BLOOM_VERSION_PATCH)

#if defined(_WIN32) && defined(BLOOM_BUILDING_SHARED)
#define BLOOM_API __declspec(dllexport)
#elif defined(__GNUC__) && defined(BLOOM_BUILDING_LIBRARY)
#define BLOOM_API __attribute__((visibility("default")))
#else
#define BLOOM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

typedef enum bloom_status {
  BLOOM_OK = 0,
  BLOOM_E_INVALID_ARG = -1,       /* a NULL pointer, a value out of range */
  BLOOM_E_NOMEM = -2,             /* an allocation failed */
  BLOOM_E_IO = -3,                /* open/read/write/fsync/rename failed */
  BLOOM_E_FORMAT = -4,            /* not a bloom filter, or fields that disagree */
  BLOOM_E_CHECKSUM = -5,          /* header or payload checksum mismatch */
  BLOOM_E_VERSION = -6,           /* written by a newer, incompatible format */
  BLOOM_E_UNSUPPORTED = -7,       /* the operation does not apply to this filter */
  BLOOM_E_INCOMPATIBLE = -8,      /* two filters whose parameters differ */
  BLOOM_E_OVERFLOW = -9,          /* a size exceeds the library's limits */
  BLOOM_E_BUFFER_TOO_SMALL = -10, /* the output buffer cannot hold the result */
  BLOOM_E_NOT_PRESENT = -11       /* bloom_remove of a key that was never added */
} bloom_status;

/* ------------------------------------------------------------------------ */
/* Kinds, hashers, flags, limits                                             */
/* ------------------------------------------------------------------------ */

typedef enum bloom_kind {
  BLOOM_KIND_CLASSIC = 1,     /* one bit array, k probes anywhere in it */
  BLOOM_KIND_PARTITIONED = 2, /* k slices of m/k bits, probe i in slice i */
  BLOOM_KIND_BLOCKED = 3,     /* all k probes inside one 64-byte cache line */
  BLOOM_KIND_COUNTING = 4,    /* small counters instead of bits: remove */
  BLOOM_KIND_SCALABLE = 5,    /* a growing chain of filters (Almeida 2007) */
  BLOOM_KIND_WINDOW = 6       /* a sliding window: remembers the last capacity
                                 insertions (or window_ms milliseconds) and
                                 forgets older keys (age-partitioned, Shtul,
                                 Baquero & Almeida 2020); since 0.3.0 */
} bloom_kind;

typedef enum bloom_hash {
  BLOOM_HASH_XXH3 = 1,    /* XXH3-128 (xxHash): the default, fastest;
                             blocked filters use XXH3-64 (format 1.1) */
  BLOOM_HASH_MURMUR3 = 2, /* MurmurHash3 x64-128 */
  BLOOM_HASH_FNV1A = 3,   /* FNV-1a 64, widened to 128 bits by a mixer */
  BLOOM_HASH_REDISBLOOM = 4, /* RedisBloom's: MurmurHash64A twice (the seed,
                               then the first value), positions (a + i*b)
                               mod m; seed 0 means RedisBloom's fixed
                               0xc6a4a7935bd1e995. Classic and scalable
                               only, which then size and grow as RedisBloom
                               does (format 1.4, since 0.3.0) */
  BLOOM_HASH_GUAVA = 5, /* Guava's BloomFilter (MURMUR128_MITZ_64): MurmurHash3
                           x64-128 with seed 0, positions ((a + i*b) & (2^63 - 1))
                           mod m, m a multiple of 64. Classic only; sizes as
                           Guava does (format 1.5, since 0.3.0; docs/interop.md) */
  BLOOM_HASH_BITS_AND_BLOOMS = 6, /* Go's bits-and-blooms/bloom v3: four 64-bit
                           MurmurHash3 values, positions as that library's.
                           Classic only; sizes as it does (format 1.5, since 0.3.0) */
  BLOOM_HASH_PARQUET = 7 /* Parquet's split-block filter: XXH64 with seed 0 of
                            the key (the value's plain encoding), Parquet's block
                            rule and salts. Blocked with BLOOM_FLAG_SPLIT_BLOCK
                            only (format 1.5, since 0.3.0) */
} bloom_hash;

/* Adds may run from many threads at once; see the top comment. Use
 * bloom_add_batch from each thread: a single bloom_add pays a memory latency
 * per key in this mode, where batches overlap their keys' cache misses. */
#define BLOOM_FLAG_CONCURRENT 0x1u
/* Derive the k probes by plain Kirsch-Mitzenmacher double hashing
 * (h1 + i*h2) instead of the default enhanced double hashing of Dillinger
 * and Manolios (which adds a cubic term). The flag is recorded in saved
 * files, and filters that differ in it do not merge. In filters whose
 * probe values are mixed (format 1.2: m * k * 2^-k < 4000, i.e. small or
 * low-p filters, and scalable ones; docs/FORMAT.md) the two
 * schemes set different bits; unmixed, they set the same bits for all but
 * about C(k+1,4) * m / 2^64 of the keys.
 * Blocked filters refuse it (BLOOM_E_INVALID_ARG): their probes inside a
 * line are not double hashing. */
#define BLOOM_FLAG_PLAIN_DOUBLE_HASHING 0x2u
/* Blocked filters only (BLOOM_E_INVALID_ARG elsewhere): split blocks of 32
 * bytes and k = 8, one bit in each 32-bit word of the block, where the
 * default blocked filter puts k bits anywhere in a 64-byte line. One SIMD
 * compare per query or add; in exchange it needs more memory for the same
 * fp_rate (bits per key at p = 1e-2 / 1e-3 / 1e-4: 10.53 / 16.89 / 26.34,
 * against 9.92 / 15.55 / 22.03; docs/choosing.md). Explicit bits must be a
 * multiple of 256 and explicit hashes 0 or 8. Recorded in saved files
 * (format 1.4); filters that differ in it do not merge. Since 0.3.0. */
#define BLOOM_FLAG_SPLIT_BLOCK 0x4u

/* The largest filter: 2^40 bits (128 GiB) or, for counting filters, 2^40
 * counters (512 GiB at 4 bits each). */
#define BLOOM_MAX_BITS (UINT64_C(1) << 40)
/* The largest number of probes per key. */
#define BLOOM_MAX_HASHES 64u

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

/* Parameters of a new filter. Always call bloom_options_init() first: it
 * sets struct_size and every default, so later library versions can append
 * members without breaking callers compiled against this header (the
 * library reads only the first struct_size bytes and defaults the rest). */
typedef struct bloom_options {
  size_t struct_size;    /* = sizeof(bloom_options), set by bloom_options_init */
  int32_t kind;          /* a bloom_kind; default BLOOM_KIND_CLASSIC */
  uint64_t capacity;     /* n: expected distinct keys; default 1,000,000.
                            For scalable: the first stage's capacity. */
  double fp_rate;        /* p: target false-positive rate in (0, 1); default 0.01 */
  int32_t hash;          /* a bloom_hash; default BLOOM_HASH_XXH3 */
  uint64_t seed;         /* hash seed; default 0. Part of the filter's identity */
  uint32_t flags;        /* BLOOM_FLAG_*; default 0 */
  uint64_t bits;         /* explicit m; 0 (default) = size from (capacity, fp_rate) */
  uint32_t hashes;       /* explicit k; 0 (default) = optimal k for m and capacity */
  double growth;         /* scalable: capacity factor per stage; default 2 */
  double tightening;     /* scalable: error factor r per stage; default 0.85 */
  uint32_t counter_bits; /* counting: 4 (default) or 8 */
  /* Since 0.3.0 (bloom_options_init_sized). window kind: 0 (default) = a
   * count window remembering the last `capacity` insertions; > 0 = a time
   * window of window_ms milliseconds holding at most `capacity` insertions
   * (the caller's clock: bloom_advance). fp_rate is the window's rate. */
  uint64_t window_ms;
} bloom_options;

/* Fill *o with defaults and set o->struct_size. NULL is ignored.
 * The function behind this name writes exactly the 0.2.0 layout (every
 * member up to counter_bits; struct_size = offsetof(bloom_options,
 * window_ms)), so a program compiled against the 0.2.0 header never has
 * bytes written past its struct. Compiled against this header, the macro
 * below calls bloom_options_init_sized with this header's
 * sizeof(bloom_options) instead (NULL still ignored), so C and C++
 * callers get every member; FFI callers (which bind the symbol) call
 * bloom_options_init_sized(o, size of their struct) to set window_ms, or set
 * struct_size themselves after filling the rest. */
BLOOM_API void bloom_options_init(bloom_options *o);
/* Fill the first `size` bytes of *o with defaults: min(size,
 * bloom_options_size()) bytes are written and struct_size is set to that
 * number. A size too small to hold struct_size writes nothing. NULL is
 * ignored. Since 0.3.0. */
BLOOM_API void bloom_options_init_sized(bloom_options *o, size_t size);
#define bloom_options_init(o) bloom_options_init_sized((o), sizeof(bloom_options))
/* sizeof(bloom_options) as this library was built: for FFI callers. */
BLOOM_API size_t bloom_options_size(void);

/* ------------------------------------------------------------------------ */
/* Life cycle                                                                */
/* ------------------------------------------------------------------------ */

typedef struct bloom_filter bloom_filter; /* opaque */

/* Create an empty filter.
 * Sizing: with o->bits == 0, m and k follow from (capacity, fp_rate):
 *   m = ceil(n * |ln p| / (ln 2)^2),  k = round((m / n) * ln 2)  (k >= 1);
 * where that k would pass 64 (p below about 5e-20), k = 64 and m is the
 * least that meets p with it.
 * With o->bits != 0 the filter has exactly that many bits; k is o->hashes,
 * or, when that is 0, round((m / capacity) * ln 2).
 * Blocked: m is whole 512-bit lines sized by the blocked-filter FPR model
 * (a few % to 15% above the formula) and an explicit m must be a multiple of
 * 512; with an explicit m and o->hashes == 0, k is the one that minimises
 * that model's rate for capacity keys, not the formula above. Partitioned
 * needs m >= k. (docs/kinds-partitioned-blocked.md)
 * o: not NULL, read only, not retained. out: not NULL; receives the new
 * handle, owned by the caller (release with bloom_destroy), or NULL.
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG (NULL, struct_size too small, unknown
 * kind/hash/flags, capacity 0 without bits, fp_rate not in (0,1), k > 64);
 * BLOOM_E_OVERFLOW (m above BLOOM_MAX_BITS); BLOOM_E_NOMEM;
 * BLOOM_E_UNSUPPORTED (a kind this build does not implement). */
BLOOM_API bloom_status bloom_create(const bloom_options *o, bloom_filter **out);

/* Release a filter and everything it owns. NULL is a no-op. */
BLOOM_API void bloom_destroy(bloom_filter *f);

/* Deep copy. f: not NULL. out: receives a new caller-owned handle or NULL.
 * A copy of a mapped filter is an ordinary writable in-memory filter.
 * Returns BLOOM_OK, BLOOM_E_INVALID_ARG, BLOOM_E_NOMEM. */
BLOOM_API bloom_status bloom_clone(const bloom_filter *f, bloom_filter **out);

/* Reset to empty, keeping the parameters (scalable: back to one stage).
 * Returns BLOOM_OK, BLOOM_E_INVALID_ARG, BLOOM_E_UNSUPPORTED (mapped). */
BLOOM_API bloom_status bloom_clear(bloom_filter *f);

/* ------------------------------------------------------------------------ */
/* Keys                                                                      */
/* ------------------------------------------------------------------------ */

/* Add a key of len bytes. key may be NULL only when len is 0.
 * Returns BLOOM_OK, BLOOM_E_INVALID_ARG, BLOOM_E_UNSUPPORTED (mapped filter),
 * BLOOM_E_NOMEM (scalable: a new stage could not be allocated),
 * BLOOM_E_OVERFLOW (scalable: the next stage would take the chain past
 * BLOOM_MAX_BITS -- a large growth factor gets there sooner --
 * or its capacity would pass 2^64 or its error rate underflow to 0).
 * On either scalable failure the filter is unchanged. bloom_add_batch and
 * bloom_test_and_add return the same statuses. */
BLOOM_API bloom_status bloom_add(bloom_filter *f, const void *key, size_t len);

/* 1 if the key may be in the set, 0 if it certainly is not, or a negative
 * bloom_status (BLOOM_E_INVALID_ARG). Never a false negative. */
BLOOM_API int bloom_query(const bloom_filter *f, const void *key, size_t len);

/* Add the key and report whether it may have been present before: 0 = it
 * was certainly new (and is now added), 1 = it may have been present,
 * negative = a bloom_status. With BLOOM_FLAG_CONCURRENT, when several
 * threads add the same new key at once exactly one of them is told 0.
 * On classic, partitioned and blocked filters a key answered 1 is found by
 * reads alone: its bits are not written again, so memory shared with a
 * forked process stays shared. */
BLOOM_API int bloom_test_and_add(bloom_filter *f, const void *key, size_t len);

/* Window filters (BLOOM_KIND_WINDOW): an age-partitioned Bloom filter
 * (Shtul, Baquero & Almeida, "Age-Partitioned Bloom Filters", 2020).
 *
 * Shape. k + l slices of m bits each (a ring; "newest" to "oldest"). A key
 * is added by setting one bit in each of the k newest slices (slice j uses
 * its own probe j of the key's hash), and is present when its bits are set
 * in k consecutive slices anywhere in the ring. A generation holds
 * g = ceil(W / l) insertions (W = capacity); when it is full (count window)
 * or its time is up (time window), the oldest slice is cleared and becomes
 * the newest. A slice receives insertions while it is among the k newest,
 * i.e. for k generations, k g keys; m = ceil(k g / ln 2), rounded up to a
 * multiple of 64, leaves a retired slice half full, as in the paper.
 * Memory: (k + l) m bits ~ (k + l) k W / (l ln 2). Windows created since
 * format 1.4 are blocked: a key's bits in 8 neighbouring slices share one
 * 64-byte line (2-3 lines per add instead of k), and m is grown 2-4% over
 * the formula so that the rate still meets fp_rate (docs/kinds-window.md).
 *
 * Rate. With slice fills x_i = 1 - 2^(-a_i / k) (a_i = generations slice i
 * has received, at most k), a key that was never added is a false positive
 * when k consecutive slices have its bit set; the library computes that
 * probability exactly (a run-length recursion over the k + l slices) at the
 * worst moment, a full newest generation, and picks, among every (k, l)
 * that meets fp_rate, the one with the fewest expected probes for an absent
 * key (2 (k + l) / k) whose memory is within 5% of the least memory of any
 * (k, l). p = 0.01: k = 10, l = 24, 20.4 bits per window key; p = 0.001:
 * k = 15, l = 61, 27.0 bits (a classic filter of W keys needs 14.4);
 * docs/kinds-window.md lists more.
 *
 * Guarantees (never a false negative inside the window):
 *  - count window (window_ms = 0): a key is present for at least the next W
 *    insertions after it (l full generations: l g >= W). From (l + 1) g
 *    insertions on -- at most one generation past the window -- it is no
 *    longer guaranteed: one of its k slices is cleared per generation, so a
 *    "maybe" for it needs ever more slices set by chance (about half as
 *    likely each generation), and once all k are cleared, (l + k) g
 *    insertions after it, it answers like a key never added.
 *  - time window (window_ms = T > 0): generations last d = ceil(T / l) ms of
 *    the caller's clock. A key added at clock t is present until at least
 *    t + T, no longer guaranteed from t + T + d, and answers like a key never
 *    added from t + T + k d. A generation that receives more than
 *    g keys before its time is up keeps them (nothing is forgotten early);
 *    the false-positive rate then rises above fp_rate (bloom_info's
 *    generation_keys and expected_fp_rate show it).
 * Every add, bloom_add_batch key and bloom_test_and_add counts as one
 * insertion (a test-and-add of a key that may be present refreshes it: it
 * is set in the newest slices again). keys_added counts them all.
 *
 * Operations: bloom_merge and bloom_intersect return BLOOM_E_UNSUPPORTED
 * (two windows age at their own generation counters; no slice of one
 * corresponds to a slice of the other). bloom_clear empties every slice and
 * keeps the clock. With BLOOM_FLAG_CONCURRENT, adds, test-and-adds and
 * bloom_advance take one lock (they run one at a time, so a generation
 * shift never races an insertion) and queries take it shared: safe from
 * many threads, but adds do not run in parallel. bloom_remove:
 * BLOOM_E_UNSUPPORTED. */

/* Window filters: set the caller's clock to now_ms (milliseconds, any
 * epoch; one clock per filter). Generations whose time is up are retired:
 * with d = ceil(window_ms / l), as many shifts as whole periods d have
 * passed since the current generation began (at most k + l slices are
 * cleared, however far the clock jumps). The first call starts the clock
 * (keys added before it belong to the generation that starts then). A
 * clock that goes backwards is taken as no time passing: the filter moves
 * its clock back by the same amount, so nothing is forgotten early and
 * generations advance again from the new value (a monotonic clock that
 * restarted after a reboot keeps working). Queries and adds never read a
 * clock: call bloom_advance before them.
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG (NULL); BLOOM_E_UNSUPPORTED (a count
 * window, which advances by insertions; any other kind; a mapped filter).
 * Since 0.3.0. */
BLOOM_API bloom_status bloom_advance(bloom_filter *f, uint64_t now_ms);

/* bloom_test_and_add for n keys in order: results[i] = 1 when key i may
 * have been present before it was added (a key repeated within the batch
 * finds its earlier copy), 0 when it was certainly new. Keys are hashed in
 * blocks and their memory prefetched, as in bloom_add_batch. keys, lens,
 * results: as bloom_add_batch and bloom_query_batch; every pointer is
 * validated before anything is added. Returns as bloom_add_batch; on a
 * scalable filter's failure part-way, results for the keys before it are
 * written and the rest are not. Since 0.3.0. */
BLOOM_API bloom_status bloom_test_and_add_batch(bloom_filter *f, const void *const *keys, const size_t *lens,
                                                size_t n, uint8_t *results);

/* Counting filters only: remove one occurrence of a key that was added.
 * Returns BLOOM_OK; BLOOM_E_NOT_PRESENT when the filter shows the key was
 * never added (then nothing changes); BLOOM_E_UNSUPPORTED for other kinds;
 * BLOOM_E_INVALID_ARG. Removing a key that was not added but collides with
 * added keys cannot be detected and may cause false negatives for them.
 * Saturation is sticky: a counter that reached its maximum (15 for 4-bit
 * counters, 255 for 8-bit) is never decremented, so removes never make a
 * key that is still in the filter answer 0. keys_added drops by one. With
 * BLOOM_FLAG_CONCURRENT, removes of equal keys run one at a time: of two
 * threads removing a key added once, one gets BLOOM_OK and the other
 * BLOOM_E_NOT_PRESENT, as if they had taken turns. */
BLOOM_API bloom_status bloom_remove(bloom_filter *f, const void *key, size_t len);

/* Add n keys: keys[i] points to lens[i] bytes. Faster than n single calls
 * (keys are hashed in blocks and their memory prefetched). keys and lens may
 * be NULL only when n is 0; keys[i] may be NULL only when lens[i] is 0.
 * Every pointer is validated before anything is added, so on
 * BLOOM_E_INVALID_ARG the filter is unchanged. When a scalable filter
 * cannot grow part-way (BLOOM_E_NOMEM for a new stage's memory,
 * BLOOM_E_OVERFLOW past its limits; no other kind fails while adding), the
 * keys before the one that needed the new stage are in the filter and
 * counted in keys_added, and the rest are not; adding them again later is
 * safe. */
BLOOM_API bloom_status bloom_add_batch(bloom_filter *f, const void *const *keys, const size_t *lens,
                                       size_t n);

/* Query n keys; results[i] is set to 1 (maybe present) or 0 (absent).
 * results: not NULL unless n is 0, room for n bytes, written only on
 * BLOOM_OK. Returns BLOOM_OK or BLOOM_E_INVALID_ARG. */
BLOOM_API bloom_status bloom_query_batch(const bloom_filter *f, const void *const *keys, const size_t *lens,
                                         size_t n, uint8_t *results);

/* ------------------------------------------------------------------------ */
/* Set operations                                                            */
/* ------------------------------------------------------------------------ */

/* dst := dst UNION src. Both must have the same kind, hasher, seed, m, k,
 * probe scheme and kind parameters, and the same format version (a blocked
 * file written before format 1.1, or a small filter's file written before
 * 1.2, cannot be merged with one created now; rebuild it from its keys);
 * otherwise BLOOM_E_INCOMPATIBLE with a message naming the first parameter
 * that differs, and dst is unchanged.
 * The result answers "maybe" for every key of either. keys_added becomes the
 * sum (an upper bound on distinct keys). dst may equal src.
 * The union's false-positive rate is that of one filter holding the keys of
 * both: above p when together they exceed the capacity. Scalable filters
 * merge stage by stage (stage i OR stage i, src's extra stages copied), so
 * each shared stage holds the keys of both: two halves of 1.2 M words, four
 * stages each, answered 0.127 for p = 0.01. bloom_get_info's
 * expected_fp_rate is the union's rate from its fill; compare it with p
 * (`bloom merge` warns when it is above).
 * Returns BLOOM_OK, BLOOM_E_INVALID_ARG, BLOOM_E_INCOMPATIBLE,
 * BLOOM_E_UNSUPPORTED (dst mapped, or the kind has no sound union);
 * scalable, where dst takes copies of src's extra stages: BLOOM_E_NOMEM,
 * BLOOM_E_OVERFLOW (the union would pass BLOOM_MAX_BITS), dst unchanged. */
BLOOM_API bloom_status bloom_merge(bloom_filter *dst, const bloom_filter *src);

/* dst := dst INTERSECT src (bitwise AND). Same rules as bloom_merge. Every
 * key added to both still answers "maybe"; the false-positive rate of the
 * result is at most that of either input. keys_added becomes the smaller. */
BLOOM_API bloom_status bloom_intersect(bloom_filter *dst, const bloom_filter *src);

/* ------------------------------------------------------------------------ */
/* Persistence: format v1 (see docs/FORMAT.md)                                */
/* A window filter's file holds its ring and clock: loaded, it resumes where
 * it stopped. */
/* ------------------------------------------------------------------------ */

/* Write the filter to path, replacing any file there atomically: a temporary
 * file in the same directory is written, fsync'ed and renamed over path, and
 * the directory is fsync'ed. On failure the old file is left intact and the
 * temporary file is removed. Where the file system has O_TMPFILE (Linux) the
 * file is written unnamed and named only just before the rename, so a
 * process killed mid-save leaves a temporary file only if killed in that
 * moment (elsewhere a kill may leave one). Such a leftover is named
 * <path>.tmp.<pid>.<n>; the next bloom_save of the same path removes those
 * of processes that no longer exist (docs/hardening.md). A symbolic link at path is followed: the file
 * it points to is replaced and the link stays. A replaced file keeps its
 * permission bits (and owner and group where the process may set them); a
 * new one gets 0666 minus the umask. A path that names something other than
 * a regular file (a directory, device, FIFO or socket) is refused with
 * BLOOM_E_IO before anything is written, and left as it is.
 * Returns BLOOM_OK, BLOOM_E_INVALID_ARG, BLOOM_E_IO. */
BLOOM_API bloom_status bloom_save(const bloom_filter *f, const char *path);

/* Read a filter saved by bloom_save (or bloom_serialize). Everything is
 * validated before any allocation larger than the file: magic, version, the
 * agreement of every size with the others and with the file length, both
 * checksums. out receives a new caller-owned handle or NULL.
 * Returns BLOOM_OK, BLOOM_E_INVALID_ARG, BLOOM_E_IO (missing, unreadable,
 * not a regular file), BLOOM_E_FORMAT, BLOOM_E_CHECKSUM, BLOOM_E_VERSION,
 * BLOOM_E_OVERFLOW, BLOOM_E_NOMEM, BLOOM_E_UNSUPPORTED (a kind or a
 * combination of kind and flags this build cannot run, e.g. a scalable
 * filter with BLOOM_FLAG_CONCURRENT, which bloom_create refuses too). */
BLOOM_API bloom_status bloom_load(const char *path, bloom_filter **out);

/* Map a saved file read-only and query it in place (zero copy, shared by
 * every process that maps it). Validated like bloom_load, checksums included.
 * Writes to the result return BLOOM_E_UNSUPPORTED. The file must not be
 * modified in place while mapped (bloom_save replaces it by rename, which is
 * safe). Returns as bloom_load, plus BLOOM_E_UNSUPPORTED where the host
 * cannot map (big-endian hosts, kinds whose payload cannot be used in place). */
BLOOM_API bloom_status bloom_map(const char *path, bloom_filter **out);

/* Exact number of bytes bloom_serialize writes for f. size: not NULL.
 * Returns BLOOM_OK, BLOOM_E_INVALID_ARG (NULL), BLOOM_E_OVERFLOW (the image
 * would not fit in size_t, on 32-bit hosts). */
BLOOM_API bloom_status bloom_serialized_size(const bloom_filter *f, size_t *size);

/* Write the file image of f into buf (cap bytes). *written receives the
 * number of bytes written, or on BLOOM_E_BUFFER_TOO_SMALL the size needed.
 * written: not NULL. buf may be NULL only when cap is 0. */
BLOOM_API bloom_status bloom_serialize(const bloom_filter *f, void *buf, size_t cap, size_t *written);

/* What a reader must know of an image before it holds all of it (the Redis
 * module's BF.LOADCHUNK receives one in pieces): from the image's first len
 * bytes, at least BLOOM_IMAGE_PREFIX_SIZE (the magic, the kind and size
 * fields and a scalable filter's growth), the size of the whole image
 * (header, payload and checksum), its kind, and for a scalable filter its
 * growth factor (0 for other kinds). Nothing else is checked: the header's
 * checksum lies beyond the prefix, and bloom_deserialize validates the
 * complete image. kind and growth may be NULL.
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG (prefix or size NULL);
 * BLOOM_E_BUFFER_TOO_SMALL (len < BLOOM_IMAGE_PREFIX_SIZE); BLOOM_E_FORMAT
 * (not the start of a bloom filter image, or a payload larger than any
 * filter's); BLOOM_E_VERSION (a format major other than this library's).
 * Since 0.3.0. */
#define BLOOM_IMAGE_PREFIX_SIZE 88u
BLOOM_API bloom_status bloom_image_size(const void *prefix, size_t len, uint64_t *size, int32_t *kind,
                                        double *growth);

/* Build a filter from len bytes produced by bloom_serialize / bloom_save.
 * Validated as bloom_load, with the same statuses; buf is not retained. */
BLOOM_API bloom_status bloom_deserialize(const void *buf, size_t len, bloom_filter **out);

/* ------------------------------------------------------------------------ */
/* Other systems' filters (docs/interop.md). Since 0.3.0.                   */

/* The file formats of other Bloom filter libraries that bloom_import reads
 * and bloom_export writes:
 *  - BLOOM_FORMAT_GUAVA: Java Guava's BloomFilter.writeTo (strategy
 *    MURMUR128_MITZ_64, Guava's default since 13). Becomes a classic filter
 *    of hash BLOOM_HASH_GUAVA. A key is the bytes Guava's funnel feeds: a
 *    string funnel's UTF-8 bytes, a long as 8 bytes little-endian, an int
 *    as 4, a byte array as it is.
 *  - BLOOM_FORMAT_BITS_AND_BLOOMS: Go's github.com/bits-and-blooms/bloom v3
 *    WriteTo (also GobEncode / MarshalBinary). Becomes a classic filter of
 *    hash BLOOM_HASH_BITS_AND_BLOOMS; a key is the []byte given to Add.
 *  - BLOOM_FORMAT_PARQUET: a Parquet split-block filter as a column chunk
 *    stores it, the Thrift BloomFilterHeader and the bitset. Becomes a
 *    blocked filter with BLOOM_FLAG_SPLIT_BLOCK and hash BLOOM_HASH_PARQUET;
 *    a key is the value's plain encoding (a BYTE_ARRAY's bytes without their
 *    length, INT32/INT64/FLOAT/DOUBLE as 4 or 8 bytes little-endian).
 * Values are pinned; bloom_format_name / bloom_format_from_name name them. */
typedef enum bloom_format {
  BLOOM_FORMAT_GUAVA = 1,
  BLOOM_FORMAT_BITS_AND_BLOOMS = 2,
  BLOOM_FORMAT_PARQUET = 3
} bloom_format;

/* Build a filter from len bytes another library wrote in the given format
 * (above). The filter answers every key as that library does, takes adds,
 * and saves, merges and exports like any filter; its keys_added is 0 (these
 * formats do not record it; bloom_info.estimated_keys estimates it). buf is
 * not retained; *out is set to NULL on failure.
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG (NULL out, NULL buf with len > 0, an
 * unknown format); BLOOM_E_FORMAT (not that format, truncated, trailing
 * bytes, fields that disagree); BLOOM_E_UNSUPPORTED (valid in that system
 * but not representable: Guava's older MURMUR128_MITZ_32 strategy, a Parquet
 * filter of another algorithm, hash or compression); BLOOM_E_OVERFLOW (more
 * than 2^40 bits or 64 hashes); BLOOM_E_NOMEM. Since 0.3.0. */
BLOOM_API bloom_status bloom_import(int format, const void *buf, size_t len, bloom_filter **out);

/* Exact number of bytes bloom_export writes for f in the format. size: not
 * NULL. Returns BLOOM_OK; BLOOM_E_INVALID_ARG (NULL, an unknown format);
 * BLOOM_E_UNSUPPORTED (f was not made with that format's hash: its keys set
 * other bits, so rebuild it from its keys); BLOOM_E_OVERFLOW (beyond the
 * format's limits or size_t). Since 0.3.0. */
BLOOM_API bloom_status bloom_export_size(const bloom_filter *f, int format, size_t *size);

/* Write f in another library's format into buf (cap bytes): for a filter
 * that bloom_import made, the bytes it read, with any keys added since (a
 * Parquet header is written as Parquet's writers encode it; one encoded
 * otherwise, e.g. with fields a later Parquet added, comes back in that
 * encoding, the bitset unchanged).
 * *written receives the number of bytes written, or on
 * BLOOM_E_BUFFER_TOO_SMALL the size needed. written: not NULL; buf may be
 * NULL only when cap is 0. Statuses as bloom_export_size, plus
 * BLOOM_E_BUFFER_TOO_SMALL. Safe alongside queries; not alongside writers.
 * Since 0.3.0. */
BLOOM_API bloom_status bloom_export(const bloom_filter *f, int format, void *buf, size_t cap, size_t *written);

/* The Bloom filter of one column in one row group of a whole Parquet file
 * (len bytes of it, footer included), as bloom_import(BLOOM_FORMAT_PARQUET)
 * of the filter the column chunk's metadata points at (its
 * bloom_filter_offset). column is the column's dotted path ("a.b" for a
 * nested field); row_group counts from 0. buf is not retained; *out is set
 * to NULL on failure.
 * Returns as bloom_import, and BLOOM_E_INVALID_ARG for a row group or column
 * the file does not have (the message lists the columns), BLOOM_E_UNSUPPORTED
 * for a column without a filter or an encrypted footer. Since 0.3.0. */
BLOOM_API bloom_status bloom_import_parquet_column(const void *buf, size_t len, const char *column,
                                                   uint32_t row_group, bloom_filter **out);

/* "guava", "bits-and-blooms", "parquet"; NULL for an unknown value.
 * Since 0.3.0. */
BLOOM_API const char *bloom_format_name(int format);
/* Inverse of bloom_format_name (case-sensitive); 0 for an unknown or NULL
 * name. Since 0.3.0. */
BLOOM_API int bloom_format_from_name(const char *name);

/* ------------------------------------------------------------------------ */
/* Introspection and math                                                    */
/* ------------------------------------------------------------------------ */

typedef struct bloom_info {
  size_t struct_size; /* set by the caller to sizeof(bloom_info) */
  int32_t kind;       /* bloom_kind */
  int32_t hash;       /* bloom_hash */
  uint64_t seed;
  uint32_t flags;          /* BLOOM_FLAG_* the filter was created with */
  uint32_t hashes;         /* k (scalable: of the newest stage) */
  uint64_t bits;           /* m: bits or counters (scalable: all stages) */
  uint64_t bytes;          /* memory of the bit/counter arrays */
  uint64_t capacity;       /* n the filter was sized for (scalable: total of stages) */
  double fp_rate;          /* p the filter was sized for (0 if given m, k) */
  uint64_t keys_added;     /* successful bloom_add / bloom_add_batch calls
                              (duplicates count again); a bloom_test_and_add
                              counts only when it changed the filter, except
                              for counting (an occurrence was added) and
                              scalable (every call); counting: minus removes */
  double estimated_keys;   /* distinct keys estimated from the fill
                              (Swamidass & Baldi 2007) */
  double fill_ratio;       /* fraction of bits (counters) set */
  double expected_fp_rate; /* FPR now: fill_ratio^k (Guava's expectedFpp);
                              blocked: the per-line model over the lines'
                              actual fill; scalable: the compound over stages */
  uint32_t stages;         /* scalable: number of stages; window: k + l
                              slices (bloom_get_stage_info: one slice,
                              0 = newest); others 1 */
  uint32_t counter_bits;   /* counting: 4 or 8; others 1 */
  double growth;           /* scalable parameters; 0 for other kinds */
  double tightening;
  int32_t read_only; /* 1 for a filter from bloom_map */
  /* The file format bloom_save writes for this filter (docs/FORMAT.md):
   * 1.1 for blocked filters created since format 1.1 (in-line bit layout
   * 2); 1.2 for classic, partitioned and counting filters with mixed probes
   * (created since 1.2 with m * k * 2^-k < 4000) and scalable filters
   * created since 1.2; 1.4 for window filters created since 1.4 (blocked
   * layout), split-block filters and filters of the redisbloom hash, 1.3
   * for window filters loaded from 1.3 files; 1.0 for the rest,
   * including filters loaded from 1.0 files. A file's minor version does not decide whether it loads: its
   * flags do (an unknown flag is BLOOM_E_FORMAT; docs/FORMAT.md); two
   * filters merge or intersect only when their versions are equal (and the
   * rest of their parameters are). Reported since library 0.2.0
   * (bloom_version_number() >= 200): on 64-bit platforms these members fill
   * what was the struct's tail padding, so sizeof did not change and an
   * older library, given the same struct_size, leaves them unspecified. */
  uint16_t format_major;
  uint16_t format_minor;
  /* Window filters (since 0.3.0; 0 for other kinds and from older
   * libraries). See BLOOM_KIND_WINDOW above bloom_advance. */
  uint64_t window_ms;           /* 0 = count window, else the time window */
  uint32_t window_k;            /* k: slices a key is set in (= hashes) */
  uint32_t window_l;            /* l: the window spans l generations */
  uint64_t slice_bits;          /* m: bits per slice; bits = (k + l) m */
  uint64_t generation_capacity; /* g = ceil(capacity / l) */
  uint64_t generation;          /* generations retired since creation */
  uint64_t generation_keys;     /* insertions in the current generation */
  uint64_t generation_ms;       /* time window: d = ceil(window_ms / l) */
  uint64_t clock_ms;            /* time window: the clock as last advanced */
  uint64_t generation_start_ms; /* time window: when the current generation
                                   began; it retires once the clock reaches
                                   generation_start_ms + generation_ms, so
                                   keys stamped before that may be batched */
} bloom_info;

/* Fill *out. The caller sets out->struct_size; only that many bytes are
 * written. Costs one pass over the bits (it counts them).
 * Returns BLOOM_OK or BLOOM_E_INVALID_ARG. */
BLOOM_API bloom_status bloom_get_info(const bloom_filter *f, bloom_info *out);
/* sizeof(bloom_info) as this library was built: for FFI callers. */
BLOOM_API size_t bloom_info_size(void);

/* Where a blocked filter's bits are, so that a program can answer queries
 * without calling the library: include/bloom/bloom_probe.h is a header-only
 * probe over this view (the same answers as bloom_query, with no call and
 * no dispatch). Since 0.3.0.
 * A key's XXH3-64 value h (XXH3_64bits_withSeed(key, len, seed)) picks the
 * line floor(h * lines / 2^64) and, with x = the low 32 bits of h, bit
 * (x * multipliers[j]) >> 23 of its 512-bit line for j < hashes; split
 * blocks: bit (x * multipliers[i]) >> 27 of 32-bit word i of the 256-bit
 * block, i < 8. Bit b of a line or block is bit b % 64 of its 64-bit word
 * b / 64 (in the host's byte order). */
typedef struct bloom_blocked_view {
  size_t struct_size;          /* set by the caller to sizeof(bloom_blocked_view) */
  const uint64_t *words;       /* lines * 8 words (split: lines * 4) */
  uint64_t lines;              /* 64-byte lines, or 32-byte blocks when split */
  uint64_t seed;               /* the keys' XXH3-64 seed */
  const uint32_t *multipliers; /* 64 odd constants, static */
  uint32_t hashes;             /* k: bits per key (8 when split) */
  uint32_t split;              /* 1: split blocks (BLOOM_FLAG_SPLIT_BLOCK) */
} bloom_blocked_view;

/* Fill *out with f's view. Valid until f is destroyed; adds, clear, merge
 * and intersect change the bits in place, which the view then sees (they
 * need the same exclusive access as with bloom_query: a probe racing a
 * writer of a BLOOM_FLAG_CONCURRENT filter is a data race in C's model).
 * Works on mapped filters (bloom_map): the view points into the mapping.
 * The owner of a writable filter may also add through it
 * (bloom_view_added below).
 * f: not NULL. out: not NULL, out->struct_size at least
 * sizeof(bloom_blocked_view).
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG; BLOOM_E_UNSUPPORTED when f is not
 * a blocked filter hashing with XXH3 (other kinds and hashers, and blocked
 * files of format 1.0, whose keys do not hash to one 64-bit value).
 * Since 0.3.0. */
BLOOM_API bloom_status bloom_get_blocked_view(const bloom_filter *f, bloom_blocked_view *out);

/* Where a classic filter's bits are and how a key's probes reach them, so
 * that a binding can answer queries (and its owner add) without a call per
 * key. Since 0.3.0.
 * A key's XXH3-128 value (XXH3_128bits_withSeed(key, len, seed)) gives
 * x = its low64 and y = its high64; probe i = 0..hashes-1 takes g = x, then
 * x += y and, when enhanced, y += i + 1 (all modulo 2^64); when mixed, g
 * becomes (g ^ (g >> 32)) * 0x9E3779B97F4A7C15 (modulo 2^64). Its position
 * is floor(g * bits / 2^64), bit position % 64 of 64-bit word position / 64
 * (in the host's byte order). A key is present when all its positions are
 * set; an add sets them all. */
typedef struct bloom_classic_view {
  size_t struct_size;    /* set by the caller to sizeof(bloom_classic_view) */
  const uint64_t *words; /* (bits + 63) / 64 words */
  uint64_t bits;         /* m: positions */
  uint64_t seed;         /* the keys' XXH3-128 seed */
  uint32_t hashes;       /* k: probes per key */
  uint32_t enhanced;     /* 1: enhanced double hashing; 0: plain
                            (BLOOM_FLAG_PLAIN_DOUBLE_HASHING) */
  uint32_t mixed;        /* 1: each probe value is mixed (newer small filters) */
} bloom_classic_view;

/* Fill *out with f's classic view. Lifetime, writers and concurrency as
 * for bloom_get_blocked_view: valid until f is destroyed and sees its bits
 * change in place; works on mapped filters; a probe of a
 * BLOOM_FLAG_CONCURRENT filter racing its writers must load the words
 * atomically (relaxed) to be race-free; the owner of a writable filter may
 * also add through it (bloom_view_added below).
 * f: not NULL. out: not NULL, out->struct_size at least
 * sizeof(bloom_classic_view).
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG; BLOOM_E_UNSUPPORTED when f is not
 * a classic filter hashing with XXH3 (other kinds, and classic filters with
 * another hasher, whose positions this view cannot describe).
 * Since 0.3.0. */
BLOOM_API bloom_status bloom_get_classic_view(const bloom_filter *f, bloom_classic_view *out);

/* Record that the caller added n keys to f by setting their bits through
 * f's view (bloom_get_blocked_view or bloom_get_classic_view, whichever f
 * has), so that keys_added (bloom_get_info, and the saved file's count) is
 * what n bloom_add calls would have made it. For bindings that add in
 * their own language without a call per key: an add of a key sets each of
 * its probe bits (the view's layout, OR-ed into its word; words is const
 * for readers, the owner casts it) and nothing else, so bits set that way
 * are exactly bloom_add's.
 * Only f's exclusive owner may write the view's words, between library
 * calls (as for bloom_add), and it must record the adds before any call
 * that reads the count or the bits as a whole (info, save, serialize,
 * clone, merge, intersect, batch calls); adds through the view of a
 * BLOOM_FLAG_CONCURRENT filter would race its writers, and a mapped
 * filter's (bloom_map) words are read-only, so both refuse. n = 0 records
 * nothing and tells whether f takes adds through its view.
 * f: not NULL. Not safe alongside any other call on f.
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG (NULL); BLOOM_E_UNSUPPORTED when f
 * has neither view, is BLOOM_FLAG_CONCURRENT or is a read-only mapping; f
 * is then unchanged. Since 0.3.0. */
BLOOM_API bloom_status bloom_view_added(bloom_filter *f, uint64_t n);

/* Fill *out like bloom_get_info, but for one stage of a scalable filter
 * (0 = the oldest): hashes, bits, bytes, capacity, fp_rate (the stage's
 * p_i), keys_added (keys inserted into that stage), estimated_keys,
 * fill_ratio and expected_fp_rate are the stage's own; the other fields
 * describe the whole filter. For every other kind stage 0 is the filter
 * itself. Safe alongside other read-only calls, but not alongside the
 * writers of a BLOOM_FLAG_CONCURRENT filter (top comment). The caller sets
 * out->struct_size; only that many bytes are written.
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG (NULL, struct_size unset, stage >=
 * the number of stages). */
BLOOM_API bloom_status bloom_get_stage_info(const bloom_filter *f, uint32_t stage, bloom_info *out);

/* Bytes the next add of a new key would allocate: for a scalable filter
 * whose newest stage is full, the array of the stage that add appends (the
 * next stage's shape follows from the filter's parameters, which loading
 * checks against every stored stage); 0 otherwise, and always 0 for the
 * fixed-size kinds. Embedders with a memory budget check it before an add
 * (the Redis module refuses the add when the new stage would take the
 * filter past MAX_FILTER_BYTES). Same thread rules as bloom_get_stage_info.
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG (NULL); BLOOM_E_OVERFLOW when no
 * further stage can be made (past 2^40 bits or the stage limit): the next
 * add of a new key then fails with that status. Since 0.3.0. */
BLOOM_API bloom_status bloom_growth_bytes(const bloom_filter *f, uint64_t *bytes);

/* m and k for n keys at false-positive rate p, as bloom_create sizes a
 * classic filter: m = ceil(n |ln p| / ln^2 2), k = round((m / n) ln 2); where
 * that m is at most 4096 bits, m grows until the exact expected rate (k
 * probes that may repeat in so few bits) meets p -- the formula alone left
 * one key at 1% at 1.75 p. bits, hashes: not NULL.
 * Returns BLOOM_OK, BLOOM_E_INVALID_ARG (n == 0, p not in (0,1)),
 * BLOOM_E_OVERFLOW (m above BLOOM_MAX_BITS). */
BLOOM_API bloom_status bloom_optimal_params(uint64_t n, double p, uint64_t *bits, uint32_t *hashes);

/* The classic filter's false-positive rate after n distinct keys in m bits
 * with k hashes: (1 - (1 - 1/m)^(k n))^k ~ (1 - e^(-k n / m))^k.
 * Returns NaN when bits or hashes is 0. */
BLOOM_API double bloom_expected_fp_rate(uint64_t n, uint64_t bits, uint32_t hashes);

/* The two 64-bit values (h1, h2) a filter hashing with `hash` and `seed`
 * computes for a key, which its probe positions follow from
 * (docs/FORMAT.md, "How a key becomes bits", step 1), for code that keeps a
 * filter's bits itself: XXH3-128 (low half, high half); MurmurHash3
 * x64-128's two lanes; FNV-1a 64's h1 = fmix64(h), h2 = fmix64(h ^
 * 0x9e3779b97f4a7c15); RedisBloom's a = MurmurHash64A(key, seed),
 * b = MurmurHash64A(key, a) (its filters record seed
 * 0xc6a4a7935bd1e995). seed is the filter's (bloom_info.seed).
 * key: may be NULL when len is 0. out: two values.
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG (out NULL, key NULL with len > 0,
 * an unknown hash); BLOOM_E_UNSUPPORTED for Guava's, bits-and-blooms' and
 * Parquet's hashes, whose filters place keys as those systems do rather
 * than from (h1, h2). Since 0.3.0. */
BLOOM_API bloom_status bloom_hash_key(int hash, uint64_t seed, const void *key, size_t len, uint64_t out[2]);

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

/* An embedder's allocator, for a host that must account for the memory its
 * filters hold (the Redis module gives filters the server's allocator, so
 * used_memory, maxmemory and eviction see them; docs/redis.md).
 * alloc: size bytes (> 0) aligned to `alignment`, a power of two from 16 to
 *   64 (64 for bit and counter arrays, whose cache-line layout the blocked
 *   kind relies on; 16 or 32 for filter objects), or NULL on failure, which
 *   the call that needed the memory reports as BLOOM_E_NOMEM, changing
 *   nothing. The memory need not be zeroed. A pointer with less alignment
 *   than asked is handed straight back to free and reported as NOMEM.
 * free: ptr (never NULL) with the size and alignment its alloc was given.
 * user_data: passed to both, untouched.
 * Both may be called from any thread that creates, adds to (a scalable
 * filter grows by stages), clones, loads or destroys a filter; with
 * BLOOM_FLAG_CONCURRENT filters, from several at once. */
typedef struct bloom_allocator {
  size_t struct_size; /* = sizeof(bloom_allocator) */
  void *(*alloc)(void *user_data, size_t size, size_t alignment);
  void (*free)(void *user_data, void *ptr, size_t size, size_t alignment);
  void *user_data;
} bloom_allocator;

/* Installs a process-wide allocator (copied, not retained) for everything a
 * filter holds while it lives: the filter object, its bit or counter arrays
 * and a scalable filter's stage list. (Not covered: the lock and counter
 * stripes of BLOOM_FLAG_CONCURRENT filters, a few KiB, and the small
 * temporaries of a single call; a bloom_map'ed filter's bits stay in the
 * file's mapping.) NULL restores the defaults: malloc-style memory, with
 * arrays of 2 MiB or more mapped from the kernel. Call it before creating
 * any filter and not concurrently with any other bloom_* call. In a library
 * linked statically into a plugin (the Redis module), "process-wide" means
 * that plugin's copy of the library.
 * Returns BLOOM_OK; BLOOM_E_INVALID_ARG (struct_size too small, alloc or free
 * NULL); BLOOM_E_UNSUPPORTED while any filter exists (each allocation must
 * be freed by the allocator that made it), leaving the allocator as it was.
 * Since 0.3.0. */
BLOOM_API bloom_status bloom_set_allocator(const bloom_allocator *a);

/* ------------------------------------------------------------------------ */
/* Errors and versions                                                       */
/* ------------------------------------------------------------------------ */

/* A static description of a status ("invalid argument", ...); never NULL,
 * never to be freed. Unknown values give "unknown status". */
BLOOM_API const char *bloom_strerror(int status);

/* The detail of the most recent failed call on this thread, e.g. "load:
 * header checksum mismatch (stored 0x.., computed 0x..)". "" when no call has
 * failed on this thread. Valid until the next bloom_* call on this thread. */
BLOOM_API const char *bloom_last_error(void);

/* Names of kinds and hashers ("classic", "xxh3", ...), static strings; NULL
 * for an unknown value. */
BLOOM_API const char *bloom_kind_name(int kind);
BLOOM_API const char *bloom_hash_name(int hash);
/* Inverse of the above (case-sensitive); 0 for an unknown or NULL name. */
BLOOM_API int bloom_kind_from_name(const char *name);
BLOOM_API int bloom_hash_from_name(const char *name);

/* What a kind can do, as BLOOM_CAP_* bits, so that a program asks the
 * library instead of listing kinds by hand. 0 for an unknown kind. A kind
 * that has a capability may still refuse one pair of filters (e.g. a merge
 * of filters of different sizes is BLOOM_E_INCOMPATIBLE); one without it
 * always refuses (BLOOM_E_UNSUPPORTED or BLOOM_E_INVALID_ARG). Since 0.3.0. */
#define BLOOM_CAP_MERGE 0x1u          /* bloom_merge (union) */
#define BLOOM_CAP_INTERSECT 0x2u      /* bloom_intersect; scalable filters
                                         only while both have one stage */
#define BLOOM_CAP_REMOVE 0x4u         /* bloom_remove */
#define BLOOM_CAP_GROWS 0x8u          /* grows past its capacity, keeping
                                         fp_rate; the other kinds are fixed in
                                         size and their rate rises when full */
#define BLOOM_CAP_FORGETS 0x10u       /* forgets old keys on a schedule and
                                         keeps a clock (bloom_advance) */
#define BLOOM_CAP_SPLIT_BLOCK 0x20u   /* takes BLOOM_FLAG_SPLIT_BLOCK */
#define BLOOM_CAP_REDISBLOOM_HASH 0x40u /* takes BLOOM_HASH_REDISBLOOM */
#define BLOOM_CAP_CONCURRENT 0x80u    /* takes BLOOM_FLAG_CONCURRENT */
BLOOM_API unsigned bloom_kind_caps(int kind);
/* The kinds this library has: bloom_kind_at(i) for 0 <= i <
 * bloom_kind_count() gives their numbers in increasing order, 0 for any
 * other i. With bloom_kind_name, a program lists them without knowing them
 * in advance. Since 0.3.0. */
BLOOM_API int bloom_kind_count(void);
BLOOM_API int bloom_kind_at(int i);

/* "0.2.0": the library's release version, static. */
BLOOM_API const char *bloom_version_string(void);
/* BLOOM_VERSION_NUMBER of the library actually loaded. */
BLOOM_API unsigned bloom_version_number(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOOM_BLOOM_H */
