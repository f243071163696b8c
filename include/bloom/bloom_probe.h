/* SPDX-License-Identifier: Apache-2.0 */
/* bloom_probe.h -- a header-only, stateless query over a blocked filter's
 * bits, for C and C++ programs whose hot loop should not leave the caller.
 *
 *   bloom_blocked_view v;
 *   v.struct_size = sizeof v;
 *   if (bloom_get_blocked_view(f, &v) == BLOOM_OK)      // once
 *     for (...) hit += bloom_probe(&v, key, len);        // inlined, no call
 *
 * bloom_probe answers exactly as bloom_query does on the filter the view
 * came from (live or bloom_map'ped). It reads only the view, so any number
 * of threads may probe at once; the view's lifetime and the rules for
 * writers are bloom_get_blocked_view's (bloom.h).
 *
 * It needs xxHash's header (Debian: libxxhash-dev): unless
 * BLOOM_PROBE_CALL_XXHASH is defined, it defines XXH_INLINE_ALL and includes
 * <xxhash.h>, so the hash is inlined too (xxhash.h allows that beside a
 * plain include of its own elsewhere); define BLOOM_PROBE_CALL_XXHASH to
 * call libxxhash instead (link with -lxxhash). Since 0.3.0. */
#ifndef BLOOM_BLOOM_PROBE_H
#define BLOOM_BLOOM_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "bloom/bloom.h"

#ifndef BLOOM_PROBE_CALL_XXHASH
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#endif
/* Inlined into a caller whose key is a small fixed array, xxhash.h's
 * length-class branches for longer keys draw GCC's -Warray-bounds on code
 * that never runs for that key: silenced for xxhash.h's lines only. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#if __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif
#endif
#include <xxhash.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* floor(h * n / 2^64): the line of a hash, without a division. */
static inline uint64_t bloom_probe_range(uint64_t h, uint64_t n) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 wide; /* __extension__: -pedantic C */
  return (uint64_t)(((wide)h * n) >> 64);
#else
  const uint64_t h_lo = h & 0xffffffffu, h_hi = h >> 32;
  const uint64_t n_lo = n & 0xffffffffu, n_hi = n >> 32;
  const uint64_t lo_lo = h_lo * n_lo, hi_lo = h_hi * n_lo, lo_hi = h_lo * n_hi, hi_hi = h_hi * n_hi;
  const uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
  return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

/* XXH3-64 of a key longer than 16 bytes, out of line. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static uint64_t
bloom_probe_hash_long(const void *key, size_t len, uint64_t seed) {
  return XXH3_64bits_withSeed(key, len, seed);
}

/* 1 when every bit of the key whose XXH3-64 value (with v->seed) is h is
 * set, else 0. */
static inline int bloom_probe_hash(const bloom_blocked_view *v, uint64_t h) {
  const uint32_t x = (uint32_t)h;
  const uint32_t *m = v->multipliers;
  if (v->split) {
    /* Split block: bit (x * m[i]) >> 27 of 32-bit word i, i < 8, which is
     * the low (i even) or high (i odd) half of 64-bit word i / 2. */
    const uint64_t *block = v->words + bloom_probe_range(h, v->lines) * 4;
#if defined(__AVX2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* All eight words at once: one multiply, two shifts, one test. */
    const __m256i mult = _mm256_loadu_si256((const __m256i *)(const void *)m);
    const __m256i bits = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int)x), mult), 27);
    const __m256i mask = _mm256_sllv_epi32(_mm256_set1_epi32(1), bits);
    return _mm256_testc_si256(_mm256_loadu_si256((const __m256i *)(const void *)block), mask);
#else
    /* The key's four mask words first (no load waits on the block), then
     * four compares. */
    uint64_t mask[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < 8; ++i) mask[i >> 1] |= (uint64_t)1 << ((i & 1u) * 32u + ((uint32_t)(x * m[i]) >> 27));
    return ((block[0] & mask[0]) == mask[0]) & ((block[1] & mask[1]) == mask[1]) &
           ((block[2] & mask[2]) == mask[2]) & ((block[3] & mask[3]) == mask[3]);
#endif
  }
  /* 512-bit line: bit (x * m[j]) >> 23 for j < k. */
  const uint64_t *line = v->words + bloom_probe_range(h, v->lines) * 8;
#if defined(__AVX2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  {
    /* Eight probes at a time, no gather: probe bit b = x_j >> 23 is bit
     * b % 32 of 32-bit word b / 32 (a little-endian CPU), so x_j's top
     * bits pick the word (vpermd within a half, x_j's sign the half) and a
     * shift by 31 - b % 32 moves the bit to the lane's sign; lanes past k
     * do not count. m holds 64 entries, so every group's load is in
     * bounds. */
    const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)line);
    const __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(line + 4));
    const __m256i xv = _mm256_set1_epi32((int)x);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i low5 = _mm256_set1_epi32(31);
    __m256i bad = _mm256_setzero_si256();
    for (uint32_t j = 0; j < v->hashes; j += 8) {
      const __m256i xs = _mm256_mullo_epi32(xv, _mm256_loadu_si256((const __m256i *)(const void *)(m + j)));
      const __m256i word = _mm256_srli_epi32(xs, 28);
      const __m256 words = _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(lo, word)),
                                            _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(hi, word)),
                                            _mm256_castsi256_ps(xs));
      const __m256i shift = _mm256_andnot_si256(_mm256_srli_epi32(xs, 23), low5);
      const __m256i signs = _mm256_sllv_epi32(_mm256_castps_si256(words), shift);
      const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(v->hashes - j)), lane);
      bad = _mm256_or_si256(bad, _mm256_andnot_si256(signs, live));
    }
    /* testz of the sign bits: no live lane lacks its bit. */
    return _mm256_testz_ps(_mm256_castsi256_ps(bad), _mm256_castsi256_ps(bad));
  }
#else
  for (uint32_t j = 0; j < v->hashes; ++j) {
    const uint32_t b = (uint32_t)(x * m[j]) >> 23;
    if (((line[b >> 6] >> (b & 63)) & 1u) == 0) return 0;
  }
  return 1;
#endif
}

/* 1 when key (len bytes; NULL only with len 0) may be in the filter, 0 when
 * it certainly is not: bloom_query's answer. */
static inline int bloom_probe(const bloom_blocked_view *v, const void *key, size_t len) {
  /* Keys of up to 16 bytes get XXH3's short path inlined, and nothing else:
   * a single query is bound by how many instructions it holds while its
   * line is on the way, so longer keys take a call instead. */
  if (len <= 16) return bloom_probe_hash(v, XXH3_64bits_withSeed(key, len, v->seed));
  return bloom_probe_hash(v, bloom_probe_hash_long(key, len, v->seed));
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOOM_BLOOM_PROBE_H */
