// SPDX-License-Identifier: Apache-2.0
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
// answered batch queries no faster than the portable loop and single keys
// about twice as slowly (~45 dependent instructions against an early exit;
// docs/PERFORMANCE.md, "Decisions the code cites"). x86-64 CPUs without
// AVX2 get the portable set.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bloom::core::blocked {

// A filter's in-line probes: k and the layout's multipliers (blocked_line.hpp),
// plus the multipliers the SIMD kernels read, eight lanes per group.
struct Probes {
  uint32_t k;
  const uint32_t *mult;  // the layout's table (kMaxProbes entries)
  // For k <= 16: lane_mult[t] = mult[t] for t < k, and the lanes past k
  // repeat probe t mod k. A group's unused lanes then test bits a live probe
  // tests anyway, so the kernels need no mask for them: two fewer
  // instructions per key waiting on its line, and a key's whole probe is one
  // group when k <= 8. Unused when k > 16.
  // Aligned so a 32-byte read never splits a cache line; read with
  // unaligned loads all the same, so nothing depends on how the filter
  // object was allocated.
  alignas(32) uint32_t lane_mult[16];
};

inline Probes make_probes(uint32_t k, const uint32_t *mult) {
  Probes p{k, mult, {}};
  for (uint32_t t = 0; t < 16; ++t) p.lane_mult[t] = mult[k == 0 ? t : t % k];
  return p;
}

// How many groups of eight lanes a k needs: the key kernels come in one
// version per class, chosen when the filter is created.
enum ProbeClass : uint32_t {
  kOneGroup = 0,   // 1 <= k <= 8
  kTwoGroups = 1,  // 9 <= k <= 16
  kAnyK = 2,       // k > 16 (and k = 0, which no valid filter has)
  kProbeClasses = 3
};

inline ProbeClass probe_class(uint32_t k) {
  if (k == 0 || k > 16) return kAnyK;
  return k <= 8 ? kOneGroup : kTwoGroups;
}

// What the key-level query paths need of a blocked filter (filter.hpp's
// KeyQueryPaths ctx): its lines, seed and probes. Owned by the filter.
struct LineView {
  const uint64_t *words;
  uint64_t lines;
  uint64_t seed;
  Probes probes;
};

// Whole queries: hash, line and probe in one function; view is a const
// LineView *.
struct KeyKernels {
  // Returns 1 or 0 as an int, which bloom_query passes on as it is (a tail
  // call).
  int (*query)(const void *view, const void *key, size_t len);
  // n keys in blocks: hash a block, prefetch its lines, then probe them.
  void (*query_batch)(const void *view, const void *const *keys, const size_t *lens, size_t n, uint8_t *out);
  // One add of a filter that is neither concurrent nor read-only (the
  // filter installs it only then; Filter::KeyAddPath): hash, then OR the
  // key's bits into its line. view's words are the filter's own, writable.
  // Returns 0 (BLOOM_OK), which bloom_add passes on as a tail call.
  int (*add)(const void *view, const void *key, size_t len);
};

struct Kernels {
  const char *name;  // "portable", "avx2"
  // One key: the k probes of seed x all hit set bits of the 8-word line.
  bool (*query_line)(const uint64_t *line, uint32_t x, const Probes &p);
  // n keys: out[i] = query_line(words + 8 * lines[i], seeds[i], p).
  void (*query_lines)(const uint64_t *words, const uint64_t *lines, const uint32_t *seeds, size_t n,
                      const Probes &p, uint8_t *out);
  // Sets the k bits of seed x in the line (not atomically); returns whether
  // all of them were set before.
  bool (*add_line)(uint64_t *line, uint32_t x, const Probes &p);
  // Sets the k bits of seed x in the line (not atomically), no answer.
  void (*or_line)(uint64_t *line, uint32_t x, const Probes &p);
  // n keys: add_line(words + 8 * lines[i], seeds[i], p) for each.
  void (*add_lines)(uint64_t *words, const uint64_t *lines, const uint32_t *seeds, size_t n, const Probes &p);
  // Whole queries of filters whose keys hash with XXH3-64 (key_hash64()),
  // indexed [seed is 0][probe_class(k)]. Seed 0 (the default) has its
  // single-key queries' XXH3 seed folded into the constants at compile time
  // (3 fewer instructions per query); batches
  // gained nothing from it and share one function per class.
  KeyKernels xxh3_64[2][kProbeClasses];
  // The same for concurrent filters (BLOOM_FLAG_CONCURRENT): the line's
  // words are read with relaxed atomic loads (blocked_line.hpp's load_word),
  // since other threads may be adding. Any seed, indexed [probe_class(k)].
  KeyKernels xxh3_64_concurrent[kProbeClasses];
  // Split blocks (BLOOM_FLAG_SPLIT_BLOCK, split_block.hpp): one query and one
  // add (returning whether all 8 bits were set before) of a 4-word block,
  // and the whole queries and adds of XXH3-64 split-block filters, indexed
  // [seed is 0] (LineView::lines counts blocks), and of concurrent ones
  // (relaxed atomic loads; no add).
  bool (*split_query)(const uint64_t *block, uint32_t x);
  bool (*split_add)(uint64_t *block, uint32_t x);
  KeyKernels split_xxh3_64[2];
  KeyKernels split_xxh3_64_concurrent;
  // Single adds of XXH3-64 filters with exactly k probes, indexed
  // [seed is 0][k] for 1 <= k <= kMaxExactAddK (null where a set has none:
  // then KeyKernels::add of the probe class). A class's add ORs a window
  // for each of its 8 or 16 lanes; these OR only k (12 at p = 1e-4, not
  // 16), the same bits.
  static constexpr uint32_t kMaxExactAddK = 16;
  int (*add_exact_k[2][kMaxExactAddK + 1])(const void *view, const void *key, size_t len);
  // The same for filters of at most kScalarOrAddBytes (blocked_line.hpp),
  // whose lines are likely in a cache: one scalar OR per probe into the
  // line instead of a mask built from windows (null where a set has none:
  // then add_exact_k).
  int (*add_exact_k_in_cache[2][kMaxExactAddK + 1])(const void *view, const void *key, size_t len);
  // Batch adds (bloom_add_batch) of the filters that have a single-key add:
  // each key hashed with XXH3-64 straight to its line, prefetched a block
  // ahead, its bits ORed in (blocked_line.hpp's add_keys_pipelined). Any k;
  // exactly k for 1 <= k <= kMaxExactAddK (null where a set has none); split
  // blocks.
  using AddBatch = void (*)(const void *view, const void *const *keys, const size_t *lens, size_t n);
  AddBatch add_batch_any_k;
  // Indexed [seed is 0][k], as add_exact_k.
  AddBatch add_batch_exact_k[2][kMaxExactAddK + 1];
  AddBatch split_add_batch;
  // Batches into filters of at most kScalarOrAddBytes: add_exact_k_in_cache
  // key by key, indexed as add_exact_k (null where a set has none). Last,
  // so that the kernel sets' positional initializers leave it empty.
  AddBatch add_batch_exact_k_in_cache[2][kMaxExactAddK + 1];
};

const Kernels &portable_kernels();
// nullptr when this build or this CPU has no AVX2.
const Kernels *avx2_kernels();
// The fastest set this CPU supports, or the one the environment variable
// BLOOM_KERNELS names (decided once per process).
const Kernels &best_kernels();

}  // namespace bloom::core::blocked
