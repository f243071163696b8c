// SPDX-License-Identifier: Apache-2.0
// measure_peer.cpp -- the "split-block-peer" row of the seed table:
// fastfilter_cpp's split-block filter (SimdBlockFilterFixed: 32-byte blocks,
// k = 8, header-only and inlined here) at the memory of our blocked-split
// filter for the same n and p, on the same keys.
//
// Optional: built with the peer's headers only when
// BLOOM_PEER_FASTFILTER_DIR names them (bench/CMakeLists.txt), never copied
// into the repository. The peer takes 64-bit keys, so each string key is
// hashed with XXH3-64 first, as a user of it would; that hash is inside
// every timed loop. Its batch add is its AddAll over a block of hashed keys;
// it has no batch query (n/a).
#include "measure.hpp"

#ifdef BLOOM_BENCH_FASTFILTER
#include <immintrin.h>

#include <new>
#include <stdexcept>
#include <vector>
using std::vector;  // the peer's header names it unqualified
#include "simd-block-fixed-fpp.h"
#endif

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "../common/timing.hpp"
#include "bloom/bloom.h"

namespace bloom_bench {

#ifdef BLOOM_BENCH_FASTFILTER
namespace {

// Our blocked-split filter's block count for (n, p): the peer gets as many.
uint64_t split_blocks(const Workload &w) {
  bloom_filter *f = nullptr;
  if (create_filter(BLOOM_KIND_BLOCKED, BLOOM_FLAG_SPLIT_BLOCK, w, &f) != BLOOM_OK) return 0;
  bloom_info info;
  info.struct_size = sizeof info;
  const bool ok = bloom_get_info(f, &info) == BLOOM_OK;
  bloom_destroy(f);
  return ok ? info.bits / 256 : 0;
}

}  // namespace
#endif

ResultRow measure_split_block_peer(const Workload &w, const KeySet &pos, const KeySet &neg) {
  ResultRow row;
  row.impl = "split-block-peer";
  row.keys = w.keys;
  row.p = w.p;
#ifndef BLOOM_BENCH_FASTFILTER
  (void)pos;
  (void)neg;
  row.note = "n/a: configure with -DBLOOM_PEER_FASTFILTER_DIR=<fastfilter_cpp headers>";
#else
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2")) {
    row.note = "n/a: the peer needs AVX2";
    return row;
  }
  const uint64_t blocks = split_blocks(w);
  // The peer makes bits / 24 blocks (its constructor's sizing).
  if (blocks == 0 || blocks * 24 > 0x7fffffffu) {
    row.note = "n/a: no split-block size for this configuration";
    return row;
  }
  using Peer = SimdBlockFilterFixed<>;
  const int peer_bits = static_cast<int>(blocks * 24);
  Peer *g = nullptr;
  auto fresh = [&](int) { g = new Peer(peer_bits); };
  auto drop = [&](int) {
    delete g;
    g = nullptr;
  };
  row.insert_ns = median_ns_per_item_between(
      w.reps, pos.size(), fresh,
      [&](int) {
        for (size_t i = 0; i < pos.size(); ++i) g->Add(XXH3_64bits(pos.ptrs[i], pos.lens[i]));
      },
      drop);
  std::vector<uint64_t> hashes(kBatchChunk);
  row.insert_batch_ns = median_ns_per_item_between(
      w.reps, pos.size(), fresh,
      [&](int) {
        for (size_t start = 0; start < pos.size(); start += kBatchChunk) {
          const size_t count = std::min(kBatchChunk, pos.size() - start);
          for (size_t i = 0; i < count; ++i)
            hashes[i] = XXH3_64bits(pos.ptrs[start + i], pos.lens[start + i]);
          g->AddAll(hashes.data(), 0, count);
        }
      },
      drop);
  Peer f(peer_bits);
  for (size_t i = 0; i < pos.size(); ++i) f.Add(XXH3_64bits(pos.ptrs[i], pos.lens[i]));
  row.bytes = static_cast<double>(f.SizeInBytes());
  row.bits_per_key = row.bytes * 8 / static_cast<double>(w.keys);
  size_t pos_hits = 0, neg_hits = 0;
  auto count_hits = [&f](const KeySet &ks) {
    size_t hits = 0;
    for (size_t i = 0; i < ks.size(); ++i) hits += f.Find(XXH3_64bits(ks.ptrs[i], ks.lens[i])) ? 1 : 0;
    return hits;
  };
  row.pos_ns = median_ns_per_item(w.reps, pos.size(), [&](int) { pos_hits = count_hits(pos); });
  row.neg_ns = median_ns_per_item(w.reps, neg.size(), [&](int) { neg_hits = count_hits(neg); });
  row.fpr = static_cast<double>(neg_hits) / static_cast<double>(neg.size());
  if (pos_hits != pos.size()) row.note = "error: false negatives in the peer";
#endif
  return row;
}

}  // namespace bloom_bench
