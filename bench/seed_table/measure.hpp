// SPDX-License-Identifier: Apache-2.0
// measure.hpp -- the measurements a seed-table child process runs: one
// configuration (n keys at rate p) for one implementation, reported as a
// ResultRow on stdout.
#pragma once

#include <cstdint>

#include "../common/floor.hpp"  // formula_bytes
#include "../common/keys.hpp"
#include "../common/result_row.hpp"
#include "bloom/bloom.h"

namespace bloom_bench {

struct Workload {
  uint64_t keys = 0;  // n: keys inserted, and as many never-inserted keys queried
  double p = 0.01;
  int reps = 5;
  uint64_t seed = 42;
};

// Keys are passed to the batch calls this many at a time: large enough that
// the per-call cost vanishes (< 0.1 ns per key), small enough that the
// results stay in L1.
inline constexpr size_t kBatchChunk = 4096;

// A filter of `kind` with `flags` sized for w's n and p (bloom_create).
bloom_status create_filter(int kind, uint32_t flags, const Workload &w, bloom_filter **out);

// One bloom kind through the C API (bloom_add, bloom_query, the batch calls,
// bloom_serialized_size). kind is a bloom_kind.
// flags: bloom_options.flags (BLOOM_FLAG_SPLIT_BLOCK for the "blocked-split" row).
ResultRow measure_bloom_kind(int kind, uint32_t flags, const Workload &w, const KeySet &pos,
                             const KeySet &neg);

// fastfilter_cpp's split-block filter at the blocked-split row's memory
// ("split-block-peer"; n/a unless built with the peer's headers,
// measure_peer.cpp).
ResultRow measure_split_block_peer(const Workload &w, const KeySet &pos, const KeySet &neg);

// The floor: one XXH3-64 of the key plus one random 64-byte line read from an
// array of formula_bytes(n, p), one key at a time (pos_ns, neg_ns) and in
// prefetched blocks of 32 (pos_batch_ns, neg_batch_ns).
ResultRow measure_floor(const Workload &w, const KeySet &pos, const KeySet &neg);

}  // namespace bloom_bench
