// SPDX-License-Identifier: Apache-2.0
// The AVX2 query loop of the blocked kind. Compiled for the baseline CPU like
// the rest of the library: only these functions carry target("avx2"), and
// they run only after __builtin_cpu_supports("avx2") said yes.
//
// Eight probes at a time: eight 32-bit multiplies give eight positions; the
// line's sixteen 32-bit words sit in two registers, two permutes plus a blend
// fetch each probe's word, a variable shift moves its bit to the sign, and
// one vtestps checks every sign. For k <= 16 there is no branch at all: one
// group when k <= 8, else both, with no masks for the lanes past k
// (Probes::lane_mult); each probe class has its own key kernels.
//
// Single-key queries (avx2_query_key_xxh3_64) are kept short: no stack
// realignment, no branch on k, constants not rebuilt, a tail call from
// bloom_query. An AVX-512 probe (all sixteen probes in one permute) and an
// early exit after the first group were measured and not kept
// (docs/PERFORMANCE.md, "Decisions the code cites").
#include "kinds/blocked_kernels.hpp"
#include "kinds/blocked_line.hpp"
#include "kinds/split_block.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#include <array>
#include <type_traits>
#include <utility>

namespace bloom::core::blocked {

namespace {

// The dead lanes of a group with `left` live probes: an unaligned load at
// kDeadLanes + 8 - min(left, 8) has all ones in lanes t >= left.
alignas(64) constexpr int32_t kDeadLanes[16] = {0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1};

__attribute__((target("avx2"))) inline __m256i avx2_dead_lanes(uint32_t left) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(kDeadLanes + 8 - (left > 8 ? 8 : left)));
}

// All ones: compilers make it with one vpcmpeqd, no load.
__attribute__((target("avx2"))) inline __m256i all_ones() { return _mm256_set1_epi32(-1); }

// All ones that the compiler cannot fold: the probe's shift mask 31 is then
// one shift of it. Folded, 31 became a constant that GCC rebuilt on every
// single query with three instructions (movabs, vmovq, vpbroadcastq) beside
// the vpcmpeqd of all_ones(); a single query is bound by how many
// instructions it holds while its line is on the way.
__attribute__((target("avx2"))) inline __m256i opaque_ones() {
  __m256i v;
  __asm__("vpcmpeqd %0, %0, %0" : "=x"(v));
  return v;
}

// Eight probes x_t = x * mult[t]: lane t's sign bit is probe t's bit of the
// line (lo/hi are its sixteen 32-bit words). Probe bit b = x_t >> 23 lives
// in 32-bit word x_t >> 28 at position (x_t >> 23) & 31, so x_t's own top
// bits steer everything: vpermd reads the low 3 bits of x_t >> 28 (the word
// within a half), blendv reads x_t's sign (which half), and a left shift by
// 31 - position, i.e. ~(x_t >> 23) & 31, moves the bit to the sign.
__attribute__((target("avx2"))) inline __m256i avx2_group_signs(__m256i lo, __m256i hi, __m256i base,
                                                                const uint32_t *mult, __m256i ones) {
  const __m256i xs = _mm256_mullo_epi32(base, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(mult)));
  const __m256i word = _mm256_srli_epi32(xs, 28);
  const __m256 words =
      _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(lo, word)),
                       _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(hi, word)), _mm256_castsi256_ps(xs));
  const __m256i shift = _mm256_andnot_si256(_mm256_srli_epi32(xs, 23), _mm256_srli_epi32(ones, 27));
  return _mm256_sllv_epi32(_mm256_castps_si256(words), shift);
}

// The line's words 0-3 (p) or 4-7 (p + 4). With kAtomic (concurrent
// filters) each word is a relaxed atomic load and the four are combined in
// registers: a few more instructions, and no data race with a thread that
// is setting bits (blocked_line.hpp's load_word).
template <bool kAtomic>
__attribute__((target("avx2"))) inline __m256i avx2_load_half(const uint64_t *p) {
  if constexpr (kAtomic) {
    return _mm256_setr_epi64x(
        static_cast<long long>(load_word<true>(p)), static_cast<long long>(load_word<true>(p + 1)),
        static_cast<long long>(load_word<true>(p + 2)), static_cast<long long>(load_word<true>(p + 3)));
  } else {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
  }
}

// Every lane's sign bit is set: vtestps's testc reads only sign bits,
// (~a & b) == 0.
__attribute__((target("avx2"))) inline bool avx2_all_signs(__m256i v, __m256i ones) {
  return _mm256_testc_ps(_mm256_castsi256_ps(v), _mm256_castsi256_ps(ones)) != 0;
}

// k <= 16 (every p down to about 1e-6 at the sizing's k): kGroups groups
// of eight lanes of Probes::lane_mult, whose lanes past k repeat live
// probes, so no lane needs a mask. No branch: with two groups, a query that
// misses in the first does the second's ~6 instructions for nothing, but a
// stream mixing hits and misses never mispredicts here.
template <int kGroups, bool kAtomic>
__attribute__((target("avx2"))) inline bool avx2_line_has_lanes(const uint64_t *line, uint32_t x,
                                                                const uint32_t *lane_mult) {
  const __m256i lo = avx2_load_half<kAtomic>(line);
  const __m256i hi = avx2_load_half<kAtomic>(line + 4);
  const __m256i base = _mm256_set1_epi32(static_cast<int>(x));
  const __m256i ones = opaque_ones();
  __m256i signs = avx2_group_signs(lo, hi, base, lane_mult, ones);
  if constexpr (kGroups == 2)
    signs = _mm256_and_si256(signs, avx2_group_signs(lo, hi, base, lane_mult + 8, ones));
  return avx2_all_signs(signs, ones);
}

// Any k: groups of eight (the table has kMaxProbes = 64 entries, so every
// group of a legal k reads inside it).
template <bool kAtomic>
__attribute__((target("avx2"), noinline)) bool avx2_line_has_any_k(const uint64_t *line, uint32_t x,
                                                                   uint32_t k, const uint32_t *mult) {
  const __m256i lo = avx2_load_half<kAtomic>(line);
  const __m256i hi = avx2_load_half<kAtomic>(line + 4);
  const __m256i base = _mm256_set1_epi32(static_cast<int>(x));
  const __m256i ones = all_ones();
  for (uint32_t g = 0; 8 * g < k; ++g) {
    const __m256i signs = avx2_group_signs(lo, hi, base, mult + 8 * g, ones);
    if (!avx2_all_signs(_mm256_or_si256(signs, avx2_dead_lanes(k - 8 * g)), ones)) return false;
  }
  return true;
}

// The probe of a k of class kClass (probe_class(p.k) == kClass).
template <ProbeClass kClass, bool kAtomic = false>
__attribute__((target("avx2"))) inline bool avx2_line_has(const uint64_t *line, uint32_t x, const Probes &p) {
  if constexpr (kClass == kAnyK) {
    return avx2_line_has_any_k<kAtomic>(line, x, p.k, p.mult);
  } else {
    constexpr int kGroups = kClass == kOneGroup ? 1 : 2;
    return avx2_line_has_lanes<kGroups, kAtomic>(line, x, p.lane_mult);
  }
}

// Calls fn(std::integral_constant<ProbeClass, probe_class(k)>{}): the
// branch on k is taken once per call, outside fn's loops.
template <typename Fn>
__attribute__((target("avx2"))) inline decltype(auto) with_probe_class(uint32_t k, Fn &&fn) {
  switch (probe_class(k)) {
    case kOneGroup:
      return fn(std::integral_constant<ProbeClass, kOneGroup>{});
    case kTwoGroups:
      return fn(std::integral_constant<ProbeClass, kTwoGroups>{});
    default:
      return fn(std::integral_constant<ProbeClass, kAnyK>{});
  }
}

__attribute__((target("avx2"))) bool avx2_query_line(const uint64_t *line, uint32_t x, const Probes &p) {
  const auto probe = [&](auto cls) __attribute__((target("avx2"))) {
    return avx2_line_has<decltype(cls)::value>(line, x, p);
  };
  return with_probe_class(p.k, probe);
}

__attribute__((target("avx2"))) void avx2_query_lines(const uint64_t *words, const uint64_t *lines,
                                                      const uint32_t *seeds, size_t n, const Probes &p,
                                                      uint8_t *out) {
  const auto probe_all = [&](auto cls) __attribute__((target("avx2"))) {
    for (size_t i = 0; i < n; ++i)
      out[i] = avx2_line_has<decltype(cls)::value>(words + lines[i] * kLineWords, seeds[i], p) ? 1 : 0;
  };
  with_probe_class(p.k, probe_all);
}

// The mask is built in two registers, never in memory: for probe bit b, lane
// t of the low half holds 1 << (b - 32t), which vpsllvd makes 0 whenever
// b - 32t is outside [0, 32) (a negative count is a huge unsigned one). A
// single add then issues two stores instead of a dozen stack writes -- the
// stack mask filled the store queue while the line's miss was pending and
// more than doubled the time of an add.
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

__attribute__((target("avx2"))) bool avx2_add_line(uint64_t *line, uint32_t x, const Probes &p) {
  return avx2_line_add(line, x, p.k, p.mult);
}

// A plain add (no "all set before" answer) of a k of class kClass, from
// one-bit windows: kBitWindows[t] is 128 zero bytes but byte 64 = 1 << t,
// so the 64 bytes from kBitWindows[b & 7] + 64 - (b >> 3) are line bit b
// alone (bit b of the line is bit b & 7 of byte b >> 3 on a little-endian
// CPU). Each probe is then two loads ORed into two registers, its window's
// offset computed eight lanes at a time: ~3 instructions per probe, where
// building the mask by shifts (avx2_line_add) takes ~11. A single add is
// bound by how many line misses overlap, i.e. by how few instructions
// each add holds in the core while its line is on the way (single_key_ab
// measures it). The line's fetch starts before the mask: with the mask's
// instructions ahead of the line's load, most of the add's time was spent
// waiting on that load.
alignas(64) constexpr auto kBitWindows = [] {
  std::array<std::array<uint8_t, 128>, 8> t{};
  for (uint32_t i = 0; i < 8; ++i) t[i][64] = static_cast<uint8_t>(1u << i);
  return t;
}();

// 0x380, then 64, in every lane, read from memory as operands: as folded
// constants GCC rebuilt them on every add (movabs, vmovq, vpbroadcastq;
// mov, vmovd, vpbroadcastd).
alignas(32) constexpr uint32_t kWindowConstants[16] = {0x380, 0x380, 0x380, 0x380, 0x380, 0x380, 0x380, 0x380,
                                                       64,    64,    64,    64,    64,    64,    64,    64};

// The window offsets (into kBitWindows, as bytes) of the first kLanes
// probes of seed x, eight lanes per vector; lanes past k repeat live probes
// (Probes::lane_mult), whose bits an OR may set twice.
template <int kLanes>
__attribute__((target("avx2"))) inline void avx2_window_offsets(uint32_t x, const uint32_t *lane_mult,
                                                                __m256i *off) {
  const __m256i base = _mm256_set1_epi32(static_cast<int>(x));
  const uint32_t *c = kWindowConstants;
  __asm__("" : "+r"(c));  // not constants to the compiler: memory operands
  const __m256i row_mask = _mm256_load_si256(reinterpret_cast<const __m256i *>(c));
  const __m256i sixty_four = _mm256_load_si256(reinterpret_cast<const __m256i *>(c + 8));
  for (int g = 0; g < (kLanes + 7) / 8; ++g) {
    const __m256i xs =
        _mm256_mullo_epi32(base, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(lane_mult + 8 * g)));
    // b = xs >> 23: (b & 7) * 128 = (xs >> 16) & 0x380, b >> 3 = xs >> 26;
    // the window is at row + 64 - col (row | 64: row's low 7 bits are 0).
    const __m256i row = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(xs, 16), row_mask), sixty_four);
    off[g] = _mm256_sub_epi32(row, _mm256_srli_epi32(xs, 26));
  }
}

// ORs the window whose offset is lane kLane of q into lo and hi.
template <int kLane>
__attribute__((target("avx2"))) inline void avx2_or_window(const uint8_t *t, __m128i q, __m256i &lo,
                                                           __m256i &hi) {
  const uint32_t o = static_cast<uint32_t>(_mm_extract_epi32(q, kLane));
  lo = _mm256_or_si256(lo, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(t + o)));
  hi = _mm256_or_si256(hi, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(t + o + 32)));
  // One chain per register: left to itself, GCC ORed the windows as a tree,
  // one more instruction per two windows.
  __asm__("" : "+x"(lo), "+x"(hi));
}

// ORs the windows of lanes [4 kQuarter, kLanes) into lo and hi, four at a
// time. The empty asm makes each quarter's offsets leave their vector only
// after the previous quarter's windows were ORed in: left to itself, GCC
// moved all twelve offsets of k = 12 into general registers first (vpextrd)
// and saved and restored six callee-saved registers around them on every
// add.
template <int kLanes, int kQuarter = 0>
__attribute__((target("avx2"))) inline void avx2_or_quarters(const uint8_t *t, const __m256i *off,
                                                             __m256i &lo, __m256i &hi) {
  if constexpr (4 * kQuarter < kLanes) {
    __m128i q;
    if constexpr (kQuarter % 2 == 0)
      q = _mm256_castsi256_si128(off[kQuarter / 2]);
    else
      q = _mm256_extracti128_si256(off[kQuarter / 2], 1);
    __asm__("" : "+x"(q) : "x"(lo), "x"(hi));
    avx2_or_window<0>(t, q, lo, hi);
    if constexpr (4 * kQuarter + 1 < kLanes) avx2_or_window<1>(t, q, lo, hi);
    if constexpr (4 * kQuarter + 2 < kLanes) avx2_or_window<2>(t, q, lo, hi);
    if constexpr (4 * kQuarter + 3 < kLanes) avx2_or_window<3>(t, q, lo, hi);
    avx2_or_quarters<kLanes, kQuarter + 1>(t, off, lo, hi);
  }
}

// ORs the windows of the first kLanes lanes (1 <= kLanes <= 16) into the
// line, its fetch started first.
template <int kLanes>
__attribute__((target("avx2"))) inline void avx2_line_or_lanes(uint64_t *line, uint32_t x, const Probes &p) {
  __builtin_prefetch(line, 1);
  __m256i off[(kLanes + 7) / 8];
  avx2_window_offsets<kLanes>(x, p.lane_mult, off);
  __m256i lo = _mm256_setzero_si256();
  __m256i hi = _mm256_setzero_si256();
  avx2_or_quarters<kLanes>(kBitWindows[0].data(), off, lo, hi);
  auto *q = reinterpret_cast<__m256i *>(line);
  _mm256_storeu_si256(q, _mm256_or_si256(_mm256_loadu_si256(q), lo));
  _mm256_storeu_si256(q + 1, _mm256_or_si256(_mm256_loadu_si256(q + 1), hi));
}

template <ProbeClass kClass>
__attribute__((target("avx2"))) inline void avx2_line_or(uint64_t *line, uint32_t x, const Probes &p) {
  if constexpr (kClass == kAnyK) {
    __builtin_prefetch(line, 1);
    (void)avx2_line_add(line, x, p.k, p.mult);
  } else {
    avx2_line_or_lanes<kClass == kOneGroup ? 8 : 16>(line, x, p);
  }
}

__attribute__((target("avx2"))) void avx2_or_line(uint64_t *line, uint32_t x, const Probes &p) {
  const auto add = [&](auto cls) __attribute__((target("avx2"))) {
    avx2_line_or<decltype(cls)::value>(line, x, p);
  };
  with_probe_class(p.k, add);
}

// A 32-bit word of a line, written through a type that may alias its
// 64-bit words: line bit b is bit b % 32 of 32-bit word b / 32 on x86.
using AliasedWord32 = uint32_t __attribute__((may_alias));

// One key's kK probes ORed into its line: each probe's 32-bit word (b >> 5)
// and bit (1 << (b & 31)) computed eight lanes at a time, then one scalar
// OR per probe, so only the words that take a bit are written. 32-bit
// words need one variable shift per eight probes where 64-bit ones need two
// widenings and two shifts. The batch add calls it with the line prefetched
// a block ahead; the single add of a filter whose lines are likely cached
// with the line's fetch started just before (avx2_add_key_exact_k with
// kScalarOrs).
template <int kK>
__attribute__((target("avx2"))) inline void avx2_or_probes_exact_k(uint64_t *line, uint32_t x,
                                                                   const Probes &p) {
  constexpr int kGroups = (kK + 7) / 8;
  auto *words = reinterpret_cast<AliasedWord32 *>(line);
  const __m256i one = _mm256_abs_epi32(opaque_ones());  // two instructions, no constant to rebuild
  const __m256i base = _mm256_set1_epi32(static_cast<int>(x));
  alignas(32) uint32_t word[8 * kGroups];
  alignas(32) uint32_t bit[8 * kGroups];
  for (int g = 0; g < kGroups; ++g) {
    const __m256i xs =
        _mm256_mullo_epi32(base, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p.lane_mult + 8 * g)));
    // b = xs >> 23: b >> 5 = xs >> 28, b & 31 = (xs << 4) >> 27.
    _mm256_store_si256(reinterpret_cast<__m256i *>(word + 8 * g), _mm256_srli_epi32(xs, 28));
    _mm256_store_si256(reinterpret_cast<__m256i *>(bit + 8 * g),
                       _mm256_sllv_epi32(one, _mm256_srli_epi32(_mm256_slli_epi32(xs, 4), 27)));
  }
#pragma GCC unroll 16
  for (int j = 0; j < kK; ++j) words[word[j]] |= bit[j];
}

// add_lines for exactly kK probes.
template <int kK>
__attribute__((target("avx2"))) void avx2_add_lines_exact_k(uint64_t *words, const uint64_t *lines,
                                                            const uint32_t *seeds, size_t n,
                                                            const Probes &p) {
  for (size_t i = 0; i < n; ++i) avx2_or_probes_exact_k<kK>(words + lines[i] * kLineWords, seeds[i], p);
}

template <size_t... kKs>
constexpr std::array<void (*)(uint64_t *, const uint64_t *, const uint32_t *, size_t, const Probes &),
                     sizeof...(kKs) + 1>
exact_k_add_lines(std::index_sequence<kKs...>) {
  return {nullptr, avx2_add_lines_exact_k<static_cast<int>(kKs) + 1>...};
}

__attribute__((target("avx2"))) void avx2_add_lines(uint64_t *words, const uint64_t *lines,
                                                    const uint32_t *seeds, size_t n, const Probes &p) {
  // k <= 16: the words and bits from eight lanes at a time, then one OR
  // per probe: half the instructions per key of the loop below, and faster
  // than a fully unrolled scalar loop (single_key_ab's add(b)).
  static constexpr auto kExact = exact_k_add_lines(std::make_index_sequence<Kernels::kMaxExactAddK>{});
  if (p.k >= 1 && p.k <= Kernels::kMaxExactAddK) return kExact[p.k](words, lines, seeds, n, p);
  // Other k. Lines prefetched by the caller: scalar ORs into the line beat
  // building the mask in registers here (seed_table's batch insert), and
  // beat the one-bit windows of the single add too (single_key_ab): with the
  // line in cache the windows' extra loads cost more than the scalar stores.
  for (size_t i = 0; i < n; ++i) line_or_probes(words + lines[i] * kLineWords, seeds[i], p.k, p.mult);
}

// Keys over 16 bytes: XXH3's long-input code is a call, and a call in the
// hot function below would make GCC realign its stack on every query.
template <ProbeClass kClass, bool kAtomic>
__attribute__((target("avx2"), noinline, cold)) int avx2_query_long_key(const LineView &v, const void *key,
                                                                        size_t len) {
  const uint64_t h = xxh3_64_out_of_line(key, len, v.seed);
  return avx2_line_has<kClass, kAtomic>(line_of_hash64(v, h), line_seed(h), v.probes) ? 1 : 0;
}

template <ProbeClass kClass>
__attribute__((target("avx2"), noinline, cold)) int avx2_add_long_key(const LineView &v, const void *key,
                                                                      size_t len) {
  const uint64_t h = xxh3_64_out_of_line(key, len, v.seed);
  avx2_line_or<kClass>(const_cast<uint64_t *>(line_of_hash64(v, h)), line_seed(h), v.probes);
  return 0;
}

// bloom_add of a writable, non-concurrent filter (KeyKernels::add); the
// line is the filter's own memory (LineView holds it as const for queries).
template <bool kSeed0, ProbeClass kClass>
__attribute__((target("avx2"), flatten)) int avx2_add_key_xxh3_64(const void *view, const void *key,
                                                                  size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  if (len > 16) [[unlikely]]
    return avx2_add_long_key<kClass>(v, key, len);
  const uint64_t h = XXH3_64bits_withSeed(key, len, xxh3_seed_of<kSeed0>(v));
  avx2_line_or<kClass>(const_cast<uint64_t *>(line_of_hash64(v, h)), line_seed(h), v.probes);
  return 0;
}

// The same for a filter of exactly kK probes (Kernels::add_exact_k): kK
// windows instead of the class's 8 or 16 lanes. At k = 12, four windows
// (a load of their offset, two loads and two ORs each) fewer per add.
// kScalarOrs (Kernels::add_exact_k_in_cache, filters of at most
// kScalarOrAddBytes): the line's fetch started, then one scalar OR per
// probe (avx2_or_probes_exact_k). With the line in a cache that holds fewer
// instructions in the core than the windows' mask; with the line in DRAM
// its kK stores, which commit in order behind the line's miss, made adds
// slower than the windows' two (docs/PERFORMANCE.md, "Decisions the code
// cites").
template <bool kSeed0, int kK, bool kScalarOrs>
__attribute__((target("avx2"), flatten)) int avx2_add_key_exact_k(const void *view, const void *key,
                                                                  size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  constexpr ProbeClass kClass = kK <= 8 ? kOneGroup : kTwoGroups;
  if (len > 16) [[unlikely]]
    return avx2_add_long_key<kClass>(v, key, len);
  const uint64_t h = XXH3_64bits_withSeed(key, len, xxh3_seed_of<kSeed0>(v));
  uint64_t *line = const_cast<uint64_t *>(line_of_hash64(v, h));
  if constexpr (kScalarOrs) {
    __builtin_prefetch(line, 1);
    avx2_or_probes_exact_k<kK>(line, line_seed(h), v.probes);
  } else {
    avx2_line_or_lanes<kK>(line, line_seed(h), v.probes);
  }
  return 0;
}

template <bool kSeed0, bool kScalarOrs, size_t... kKs>
constexpr std::array<int (*)(const void *, const void *, size_t), sizeof...(kKs) + 1> exact_k_adds(
    std::index_sequence<kKs...>) {
  return {nullptr, avx2_add_key_exact_k<kSeed0, static_cast<int>(kKs) + 1, kScalarOrs>...};
}

template <bool kSeed0, ProbeClass kClass, bool kAtomic = false>
__attribute__((target("avx2"), flatten)) int avx2_query_key_xxh3_64(const void *view, const void *key,
                                                                    size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  if (len > 16) [[unlikely]]
    return avx2_query_long_key<kClass, kAtomic>(v, key, len);
  const uint64_t h = XXH3_64bits_withSeed(key, len, xxh3_seed_of<kSeed0>(v));
  return avx2_line_has<kClass, kAtomic>(line_of_hash64(v, h), line_seed(h), v.probes) ? 1 : 0;
}

template <ProbeClass kClass, bool kAtomic = false>
__attribute__((target("avx2"), flatten)) void avx2_query_keys_xxh3_64(const void *view,
                                                                      const void *const *keys,
                                                                      const size_t *lens, size_t n,
                                                                      uint8_t *out) {
  const auto &v = *static_cast<const LineView *>(view);
  query_keys_pipelined(
      v, keys, lens, n, out, [&v](const uint64_t *line, uint32_t seed) __attribute__((target("avx2"))) {
        return avx2_line_has<kClass, kAtomic>(line, seed, v.probes);
      });
}

// Split blocks (split_block.hpp): the 8 bits of seed x, one per 32-bit
// lane, from one multiply, one shift and one variable shift.
__attribute__((target("avx2"))) inline __m256i avx2_split_mask(uint32_t x) {
  const __m256i xs =
      _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(x)),
                         _mm256_loadu_si256(reinterpret_cast<const __m256i *>(split_block::multipliers())));
  return _mm256_sllv_epi32(_mm256_set1_epi32(1), _mm256_srli_epi32(xs, 27));
}

template <bool kAtomic = false>
__attribute__((target("avx2"))) inline bool avx2_split_has(const uint64_t *block, uint32_t x) {
  // testc(a, b): (~a & b) == 0, every bit of the mask is set in the block.
  return _mm256_testc_si256(avx2_load_half<kAtomic>(block), avx2_split_mask(x)) != 0;
}

__attribute__((target("avx2"))) inline bool avx2_split_or(uint64_t *block, uint32_t x) {
  auto *q = reinterpret_cast<__m256i *>(block);
  const __m256i mask = avx2_split_mask(x);
  const __m256i old = _mm256_loadu_si256(q);
  _mm256_storeu_si256(q, _mm256_or_si256(old, mask));
  return _mm256_testc_si256(old, mask) != 0;
}

__attribute__((target("avx2"))) bool avx2_split_query(const uint64_t *block, uint32_t x) {
  return avx2_split_has(block, x);
}

__attribute__((target("avx2"))) bool avx2_split_add(uint64_t *block, uint32_t x) {
  return avx2_split_or(block, x);
}

template <bool kAtomic>
__attribute__((target("avx2"), noinline, cold)) int avx2_split_query_long_key(const LineView &v,
                                                                              const void *key, size_t len) {
  const uint64_t h = xxh3_64_out_of_line(key, len, v.seed);
  return avx2_split_has<kAtomic>(split_block::block_of_hash64(v, h), line_seed(h)) ? 1 : 0;
}

template <bool kSeed0, bool kAtomic = false>
__attribute__((target("avx2"), flatten)) int avx2_split_query_key(const void *view, const void *key,
                                                                  size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  if (len > 16) [[unlikely]]
    return avx2_split_query_long_key<kAtomic>(v, key, len);
  const uint64_t h = XXH3_64bits_withSeed(key, len, xxh3_seed_of<kSeed0>(v));
  return avx2_split_has<kAtomic>(split_block::block_of_hash64(v, h), line_seed(h)) ? 1 : 0;
}

template <bool kAtomic = false>
__attribute__((target("avx2"), flatten)) void avx2_split_query_keys(const void *view, const void *const *keys,
                                                                    const size_t *lens, size_t n,
                                                                    uint8_t *out) {
  const auto &v = *static_cast<const LineView *>(view);
  split_block::query_keys_pipelined(
      v, keys, lens, n, out, [](const uint64_t *block, uint32_t seed) __attribute__((target("avx2"))) {
        return avx2_split_has<kAtomic>(block, seed);
      });
}

__attribute__((target("avx2"), noinline, cold)) int avx2_split_add_long_key(const LineView &v,
                                                                            const void *key, size_t len) {
  const uint64_t h = xxh3_64_out_of_line(key, len, v.seed);
  (void)avx2_split_or(const_cast<uint64_t *>(split_block::block_of_hash64(v, h)), line_seed(h));
  return 0;
}

template <bool kSeed0>
__attribute__((target("avx2"), flatten)) int avx2_split_add_key(const void *view, const void *key,
                                                                size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  if (len > 16) [[unlikely]]
    return avx2_split_add_long_key(v, key, len);
  const uint64_t h = XXH3_64bits_withSeed(key, len, xxh3_seed_of<kSeed0>(v));
  (void)avx2_split_or(const_cast<uint64_t *>(split_block::block_of_hash64(v, h)), line_seed(h));
  return 0;
}

// bloom_add_batch of a filter of exactly kK probes (Kernels::add_batch_exact_k):
// the batch add's scalar ORs (avx2_or_probes_exact_k), which beat the single
// add's one-bit windows once the line is in cache (8 fewer instructions per
// key at k = 12; docs/PERFORMANCE.md, "Decisions the code cites").
// kSeed0 (filters with seed 0): XXH3's seed folded into its constants, as
// in the single add, which would otherwise run 3 instructions per key less.
template <bool kSeed0, int kK>
__attribute__((target("avx2"), flatten)) void avx2_add_keys_exact_k(const void *view, const void *const *keys,
                                                                    const size_t *lens, size_t n) {
  const auto &v = *static_cast<const LineView *>(view);
  add_keys_pipelined<kLineWords>(
      v, xxh3_seed_of<kSeed0>(v), keys, lens,
      n, [&v](uint64_t * line, uint32_t seed) __attribute__((target("avx2"))) {
        avx2_or_probes_exact_k<kK>(line, seed, v.probes);
      });
}

template <bool kSeed0, size_t... kKs>
constexpr std::array<Kernels::AddBatch, sizeof...(kKs) + 1> exact_k_add_batches(std::index_sequence<kKs...>) {
  return {nullptr, avx2_add_keys_exact_k<kSeed0, static_cast<int>(kKs) + 1>...};
}

// Batches into filters of at most kScalarOrAddBytes: the single add's own
// code key by key (Kernels::add_batch_exact_k_in_cache). Where the lines
// are cached, staging them for prefetches costs more than it saves, and
// the pipelined batch loop measured 2-12 % above single adds (256 KiB and
// 1 MiB filters, docs/PERFORMANCE.md).
template <bool kSeed0, int kK>
__attribute__((target("avx2"), flatten)) void avx2_add_keys_exact_k_in_cache(const void *view,
                                                                             const void *const *keys,
                                                                             const size_t *lens, size_t n) {
  for (size_t i = 0; i < n; ++i) (void)avx2_add_key_exact_k<kSeed0, kK, true>(view, keys[i], lens[i]);
}

template <bool kSeed0, size_t... kKs>
constexpr std::array<Kernels::AddBatch, sizeof...(kKs) + 1> exact_k_add_batches_in_cache(
    std::index_sequence<kKs...>) {
  return {nullptr, avx2_add_keys_exact_k_in_cache<kSeed0, static_cast<int>(kKs) + 1>...};
}

// Other k (past kMaxExactAddK): scalar ORs, as avx2_add_lines.
__attribute__((target("avx2"), flatten)) void avx2_add_keys_any_k(const void *view, const void *const *keys,
                                                                  const size_t *lens, size_t n) {
  const auto &v = *static_cast<const LineView *>(view);
  add_keys_pipelined<kLineWords>(v, v.seed, keys, lens, n, [&v](uint64_t *line, uint32_t seed) {
    line_or_probes(line, seed, v.probes.k, v.probes.mult);
  });
}

__attribute__((target("avx2"), flatten)) void avx2_split_add_keys(const void *view, const void *const *keys,
                                                                  const size_t *lens, size_t n) {
  const auto &v = *static_cast<const LineView *>(view);
  add_keys_pipelined<split_block::kBlockWords>(
      v, v.seed, keys, lens, n, [](uint64_t * block, uint32_t seed) __attribute__((target("avx2"))) {
        (void)avx2_split_or(block, seed);
      });
}

template <bool kSeed0>
constexpr KeyKernels kAvx2Key[kProbeClasses] = {
    {avx2_query_key_xxh3_64<kSeed0, kOneGroup>, avx2_query_keys_xxh3_64<kOneGroup>,
     avx2_add_key_xxh3_64<kSeed0, kOneGroup>},
    {avx2_query_key_xxh3_64<kSeed0, kTwoGroups>, avx2_query_keys_xxh3_64<kTwoGroups>,
     avx2_add_key_xxh3_64<kSeed0, kTwoGroups>},
    {avx2_query_key_xxh3_64<kSeed0, kAnyK>, avx2_query_keys_xxh3_64<kAnyK>,
     avx2_add_key_xxh3_64<kSeed0, kAnyK>}};

// Concurrent filters: any seed (no seed-0 set; its gain was 3 instructions).
constexpr KeyKernels kAvx2ConcurrentKey[kProbeClasses] = {
    {avx2_query_key_xxh3_64<false, kOneGroup, true>, avx2_query_keys_xxh3_64<kOneGroup, true>, nullptr},
    {avx2_query_key_xxh3_64<false, kTwoGroups, true>, avx2_query_keys_xxh3_64<kTwoGroups, true>, nullptr},
    {avx2_query_key_xxh3_64<false, kAnyK, true>, avx2_query_keys_xxh3_64<kAnyK, true>, nullptr}};

constexpr Kernels kAvx2{
    "avx2",
    avx2_query_line,
    avx2_query_lines,
    avx2_add_line,
    avx2_or_line,
    avx2_add_lines,
    {{kAvx2Key<false>[0], kAvx2Key<false>[1], kAvx2Key<false>[2]},
     {kAvx2Key<true>[0], kAvx2Key<true>[1], kAvx2Key<true>[2]}},
    {kAvx2ConcurrentKey[0], kAvx2ConcurrentKey[1], kAvx2ConcurrentKey[2]},
    avx2_split_query,
    avx2_split_add,
    {{avx2_split_query_key<false>, avx2_split_query_keys<false>, avx2_split_add_key<false>},
     {avx2_split_query_key<true>, avx2_split_query_keys<false>, avx2_split_add_key<true>}},
    {avx2_split_query_key<false, true>, avx2_split_query_keys<true>, nullptr},
    {},
    {},
    avx2_add_keys_any_k,
    {},
    avx2_split_add_keys,
    {}};

// Kernels::add_exact_k and add_exact_k_in_cache, filled in at compile time (an aggregate cannot
// take a pack expansion in place).
constexpr Kernels kAvx2WithExactK = [] {
  Kernels k = kAvx2;
  constexpr auto any_seed = exact_k_adds<false, false>(std::make_index_sequence<Kernels::kMaxExactAddK>{});
  constexpr auto seed0 = exact_k_adds<true, false>(std::make_index_sequence<Kernels::kMaxExactAddK>{});
  constexpr auto batches = exact_k_add_batches<false>(std::make_index_sequence<Kernels::kMaxExactAddK>{});
  constexpr auto batches_seed0 =
      exact_k_add_batches<true>(std::make_index_sequence<Kernels::kMaxExactAddK>{});
  constexpr auto any_seed_in_cache =
      exact_k_adds<false, true>(std::make_index_sequence<Kernels::kMaxExactAddK>{});
  constexpr auto seed0_in_cache =
      exact_k_adds<true, true>(std::make_index_sequence<Kernels::kMaxExactAddK>{});
  constexpr auto batches_in_cache =
      exact_k_add_batches_in_cache<false>(std::make_index_sequence<Kernels::kMaxExactAddK>{});
  constexpr auto batches_seed0_in_cache =
      exact_k_add_batches_in_cache<true>(std::make_index_sequence<Kernels::kMaxExactAddK>{});
  for (size_t i = 0; i <= Kernels::kMaxExactAddK; ++i) {
    k.add_batch_exact_k_in_cache[0][i] = batches_in_cache[i];
    k.add_batch_exact_k_in_cache[1][i] = batches_seed0_in_cache[i];
    k.add_exact_k[0][i] = any_seed[i];
    k.add_exact_k[1][i] = seed0[i];
    k.add_exact_k_in_cache[0][i] = any_seed_in_cache[i];
    k.add_exact_k_in_cache[1][i] = seed0_in_cache[i];
    k.add_batch_exact_k[0][i] = batches[i];
    k.add_batch_exact_k[1][i] = batches_seed0[i];
  }
  return k;
}();

}  // namespace

const Kernels *avx2_kernels_if_supported() {
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return supported ? &kAvx2WithExactK : nullptr;
}

}  // namespace bloom::core::blocked

#else

namespace bloom::core::blocked {
const Kernels *avx2_kernels_if_supported() { return nullptr; }
}  // namespace bloom::core::blocked

#endif
