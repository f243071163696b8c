// The AVX2 query loop of the blocked kind. Compiled for the baseline CPU like
// the rest of the library: only these functions carry target("avx2"), and
// they run only after __builtin_cpu_supports("avx2") said yes.
//
// Eight probes at a time: eight 32-bit multiplies give eight positions; the
// line's sixteen 32-bit words sit in two registers, and two permutes plus a
// blend fetch, for each probe, the word its bit lives in; a variable shift
// makes each probe's one-bit mask, and one testc checks all eight.
#include "kinds/blocked_kernels.hpp"
#include "kinds/blocked_line.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

namespace bloom::core::blocked {

namespace {

// One group of eight probes: lane t's position is the top 9 bits of xs[t];
// lo/hi are the line's sixteen 32-bit words. Returns the wanted one-bit mask
// per lane, masked by live, and (through words) the word each lane's bit
// lives in.
__attribute__((target("avx2"))) inline __m256i avx2_group_want(__m256i lo, __m256i hi, __m256i xs,
                                                               __m256i live, __m256i *words) {
  const __m256i bits = _mm256_srli_epi32(xs, 23);
  const __m256i word = _mm256_srli_epi32(bits, 5);  // 0..15
  const __m256i from_lo = _mm256_permutevar8x32_epi32(lo, word);
  const __m256i from_hi = _mm256_permutevar8x32_epi32(hi, word);
  // Word index bit 3 (>= 8) moved to the sign bit selects the high half.
  const __m256 pick_hi = _mm256_castsi256_ps(_mm256_slli_epi32(word, 28));
  *words = _mm256_castps_si256(
      _mm256_blendv_ps(_mm256_castsi256_ps(from_lo), _mm256_castsi256_ps(from_hi), pick_hi));
  const __m256i want = _mm256_sllv_epi32(_mm256_set1_epi32(1), _mm256_and_si256(bits, _mm256_set1_epi32(31)));
  return _mm256_and_si256(want, live);
}

// Lanes t < left are live (all ones), the others zero.
__attribute__((target("avx2"))) inline __m256i avx2_live_lanes(uint32_t left) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(left > 8 ? 8 : left)), lane);
}

// Group g's probe values x * mult[8g + t]: one multiply by eight table
// entries (the table has kMaxProbes = 64 entries, so every group of a legal
// k reads inside it).
__attribute__((target("avx2"))) inline __m256i avx2_group_values(__m256i base, const uint32_t *mult,
                                                                 uint32_t g) {
  return _mm256_mullo_epi32(base, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(mult + 8 * g)));
}

// Any k: groups of eight.
__attribute__((target("avx2"), noinline)) bool avx2_line_has_any_k(const uint64_t *line, uint32_t x,
                                                                   uint32_t k, const uint32_t *mult) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(line));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(line + 4));
  const __m256i base = _mm256_set1_epi32(static_cast<int>(x));
  for (uint32_t g = 0, left = k;; ++g, left -= 8) {
    __m256i words;
    const __m256i want =
        avx2_group_want(lo, hi, avx2_group_values(base, mult, g), avx2_live_lanes(left), &words);
    // testc: (~words & want) == 0, i.e. every wanted bit is set.
    if (!_mm256_testc_si256(words, want)) return false;
    if (left <= 8) return true;
  }
}

// k <= 16 (every p down to about 1e-6 at the sizing's k): at most two groups
// and no loop. live0/live1 are avx2_live_lanes(k) and avx2_live_lanes(k - 8),
// computed once per call of the batch loop.
__attribute__((target("avx2"))) inline bool avx2_line_has_k16(const uint64_t *line, uint32_t x, uint32_t k,
                                                              const uint32_t *mult, __m256i live0,
                                                              __m256i live1) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(line));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(line + 4));
  const __m256i base = _mm256_set1_epi32(static_cast<int>(x));
  __m256i words;
  __m256i want = avx2_group_want(lo, hi, avx2_group_values(base, mult, 0), live0, &words);
  if (!_mm256_testc_si256(words, want)) return false;
  if (k <= 8) return true;
  want = avx2_group_want(lo, hi, avx2_group_values(base, mult, 1), live1, &words);
  return _mm256_testc_si256(words, want) != 0;
}

__attribute__((target("avx2"))) inline bool avx2_line_has(const uint64_t *line, uint32_t x, uint32_t k,
                                                          const uint32_t *mult) {
  if (k > 16) return avx2_line_has_any_k(line, x, k, mult);
  // The usual case (k = 8..16, p <= ~2e-3): the first group is all live, and
  // the constant all-ones mask folds away.
  if (k >= 8) return avx2_line_has_k16(line, x, k, mult, _mm256_set1_epi32(-1), avx2_live_lanes(k - 8));
  return avx2_line_has_k16(line, x, k, mult, avx2_live_lanes(k), avx2_live_lanes(0));
}

__attribute__((target("avx2"))) bool avx2_query_line(const uint64_t *line, uint32_t x, uint32_t k,
                                                     const uint32_t *mult) {
  return avx2_line_has(line, x, k, mult);
}

__attribute__((target("avx2"))) void avx2_query_lines(const uint64_t *words, const uint64_t *lines,
                                                      const uint32_t *seeds, size_t n, uint32_t k,
                                                      const uint32_t *mult, uint8_t *out) {
  if (k > 16) {
    for (size_t i = 0; i < n; ++i)
      out[i] = avx2_line_has_any_k(words + lines[i] * kLineWords, seeds[i], k, mult) ? 1 : 0;
    return;
  }
  const __m256i live0 = avx2_live_lanes(k);
  const __m256i live1 = avx2_live_lanes(k > 8 ? k - 8 : 0);
  for (size_t i = 0; i < n; ++i)
    out[i] = avx2_line_has_k16(words + lines[i] * kLineWords, seeds[i], k, mult, live0, live1) ? 1 : 0;
}

// The mask is built in two registers, never in memory: for probe bit b, lane
// t of the low half holds 1 << (b - 32t), which vpsllvd makes 0 whenever
// b - 32t is outside [0, 32) (a negative count is a huge unsigned one). A
// single add then issues two stores instead of a dozen stack writes -- the
// stack mask filled the store queue while the line's miss was pending and
// made one add cost ~100 ns instead of ~40 (1e6 keys, p = 1e-4).
__attribute__((target("avx2"))) inline bool avx2_line_add(uint64_t *line, uint32_t x, uint32_t k,
                                                          const uint32_t *mult) {
  const __m256i one = _mm256_set1_epi32(1);
  const __m256i off_lo = _mm256_setr_epi32(0, 32, 64, 96, 128, 160, 192, 224);
  const __m256i off_hi = _mm256_setr_epi32(256, 288, 320, 352, 384, 416, 448, 480);
  __m256i lo = _mm256_setzero_si256();
  __m256i hi = _mm256_setzero_si256();
  for (uint32_t j = 0; j < k; ++j) {
    const __m256i b = _mm256_set1_epi32(static_cast<int>(bit_of(x * mult[j])));
    lo = _mm256_or_si256(lo, _mm256_sllv_epi32(one, _mm256_sub_epi32(b, off_lo)));
    hi = _mm256_or_si256(hi, _mm256_sllv_epi32(one, _mm256_sub_epi32(b, off_hi)));
  }
  auto *p = reinterpret_cast<__m256i *>(line);
  const __m256i old_lo = _mm256_loadu_si256(p);
  const __m256i old_hi = _mm256_loadu_si256(p + 1);
  _mm256_storeu_si256(p, _mm256_or_si256(old_lo, lo));
  _mm256_storeu_si256(p + 1, _mm256_or_si256(old_hi, hi));
  // testc(a, b): (~a & b) == 0, every mask bit was already set.
  return _mm256_testc_si256(old_lo, lo) && _mm256_testc_si256(old_hi, hi);
}

__attribute__((target("avx2"))) bool avx2_add_line(uint64_t *line, uint32_t x, uint32_t k,
                                                   const uint32_t *mult) {
  return avx2_line_add(line, x, k, mult);
}

__attribute__((target("avx2"))) void avx2_add_lines(uint64_t *words, const uint64_t *lines,
                                                    const uint32_t *seeds, size_t n, uint32_t k,
                                                    const uint32_t *mult) {
  // Lines prefetched by the caller: scalar ORs into the line beat building
  // the mask in registers here (seed_table batch insert, 1e6 keys, p = 1e-4,
  // medians of 3 interleaved runs: 20.6 vs 23.5 ns per key).
  for (size_t i = 0; i < n; ++i) line_or_probes(words + lines[i] * kLineWords, seeds[i], k, mult);
}

__attribute__((target("avx2"), flatten)) bool avx2_query_key_xxh3_64(const void *view, const void *key,
                                                                     size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  uint32_t seed;
  const uint64_t *line = key_line_xxh3_64(v, key, len, &seed);
  return avx2_line_has(line, seed, v.k, v.mult);
}

__attribute__((target("avx2"), flatten)) void avx2_query_keys_xxh3_64(const void *view,
                                                                      const void *const *keys,
                                                                      const size_t *lens, size_t n,
                                                                      uint8_t *out) {
  const auto &v = *static_cast<const LineView *>(view);
  const __m256i live0 = avx2_live_lanes(v.k);
  const __m256i live1 = avx2_live_lanes(v.k > 8 ? v.k - 8 : 0);
  const uint64_t *lines[kKeyBlock];
  uint32_t seeds[kKeyBlock];
  for (size_t start = 0; start < n; start += kKeyBlock) {
    const size_t count = n - start < kKeyBlock ? n - start : kKeyBlock;
    // Every k is staged and prefetched alike; only the probe differs.
    stage_key_block(v, keys + start, lens + start, count, lines, seeds);
    if (v.k > 16) {
      for (size_t i = 0; i < count; ++i)
        out[start + i] = avx2_line_has_any_k(lines[i], seeds[i], v.k, v.mult) ? 1 : 0;
    } else {
      for (size_t i = 0; i < count; ++i)
        out[start + i] = avx2_line_has_k16(lines[i], seeds[i], v.k, v.mult, live0, live1) ? 1 : 0;
    }
  }
}

constexpr Kernels kAvx2{"avx2",         avx2_query_line,        avx2_query_lines,       avx2_add_line,
                        avx2_add_lines, avx2_query_key_xxh3_64, avx2_query_keys_xxh3_64};

}  // namespace

const Kernels *avx2_kernels_if_supported() {
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return supported ? &kAvx2 : nullptr;
}

}  // namespace bloom::core::blocked

#else

namespace bloom::core::blocked {
const Kernels *avx2_kernels_if_supported() { return nullptr; }
}  // namespace bloom::core::blocked

#endif
