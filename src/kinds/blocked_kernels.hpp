// blocked_kernels.hpp -- the query loops of the blocked kind, one set per
// instruction set, chosen once at run time.
//
// The library is built for the baseline CPU (never -march=native); the AVX2
// loop is compiled with a function-level target attribute and used only when
// __builtin_cpu_supports("avx2") says the CPU has it. A filter picks its
// kernel set when it is created, so the per-key loop holds no dispatch.
// Every set answers exactly like blocked_line.hpp's portable line_has and
// sets exactly the bits of its build_mask.
//
// Two sets: AVX2 and portable. There is no SSE set, measured: SSE2 has no
// per-lane variable shift or permute, so it could only redo the scalar
// work; an SSSE3 + SSE4.1 probe (pmulld for the positions, pshufb gathering
// 16 probed bytes from the line's four 16-byte quarters, one movemask)
// answered batch queries no faster than the portable loop (20.5 vs 21.5 ns
// at 1e6 keys / p = 1e-4, 21.1 vs 25.3 at 1e7 / 0.01) and single keys twice
// as slowly (59.8 vs 28.4 ns: ~45 dependent instructions against an early
// exit) on this Zen 3 VM (docs/PERFORMANCE.md, round 4). x86-64 CPUs
// without AVX2 get the portable set.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bloom::core::blocked {

// What the key-level query paths need of a blocked filter (filter.hpp's
// KeyQueryPaths ctx): its lines, k and seed. Owned by the filter.
struct LineView {
  const uint64_t *words;
  uint64_t lines;
  uint64_t seed;
  uint32_t k;
  const uint32_t *mult;  // the layout's multipliers (blocked_line.hpp)
  // Lane j of the two groups of eight probes: all ones when j >= k (no such
  // probe), else 0 (fill_dead_lanes). The SIMD kernels OR these into their
  // answers so unused lanes count as set.
  // Aligned so a 32-byte read never splits a cache line; read with
  // unaligned loads all the same, so nothing depends on how the filter
  // object was allocated.
  alignas(32) int32_t dead_lanes[16];
};

inline void fill_dead_lanes(LineView &v) {
  for (uint32_t j = 0; j < 16; ++j) v.dead_lanes[j] = j >= v.k ? -1 : 0;
}

// Whole queries: hash, line and probe in one function; view is a const
// LineView *.
struct KeyKernels {
  // Returns 1 or 0 as an int, which bloom_query passes on as it is (a tail
  // call).
  int (*query)(const void *view, const void *key, size_t len);
  // n keys in blocks: hash a block, prefetch its lines, then probe them.
  void (*query_batch)(const void *view, const void *const *keys, const size_t *lens, size_t n, uint8_t *out);
};

struct Kernels {
  const char *name;  // "portable", "avx2"
  // mult is the layout's multiplier table (kMaxProbes entries).
  // One key: the k probes of seed x all hit set bits of the 8-word line.
  bool (*query_line)(const uint64_t *line, uint32_t x, uint32_t k, const uint32_t *mult);
  // n keys: out[i] = query_line(words + 8 * lines[i], seeds[i], k, mult).
  void (*query_lines)(const uint64_t *words, const uint64_t *lines, const uint32_t *seeds, size_t n,
                      uint32_t k, const uint32_t *mult, uint8_t *out);
  // Sets the k bits of seed x in the line (not atomically); returns whether
  // all of them were set before.
  bool (*add_line)(uint64_t *line, uint32_t x, uint32_t k, const uint32_t *mult);
  // n keys: add_line(words + 8 * lines[i], seeds[i], k, mult) for each.
  void (*add_lines)(uint64_t *words, const uint64_t *lines, const uint32_t *seeds, size_t n, uint32_t k,
                    const uint32_t *mult);
  // Whole queries of filters whose keys hash with XXH3-64 (key_hash64()):
  // [0] for any seed, [1] only for seed 0 (the default), whose single-key
  // query has XXH3's seed folded into its constants at compile time (3
  // fewer instructions per query; docs/PERFORMANCE.md, round 3). Batches
  // gained nothing from it and share one function.
  KeyKernels xxh3_64[2];
};

const Kernels &portable_kernels();
// nullptr when this build or this CPU has no AVX2.
const Kernels *avx2_kernels();
// The fastest set this CPU supports, or the one the environment variable
// BLOOM_KERNELS names (decided once per process).
const Kernels &best_kernels();

}  // namespace bloom::core::blocked
