// SPDX-License-Identifier: Apache-2.0
// measure_bloom.cpp -- one bloom kind on the seed workload, through the C API
// exactly as a user (or the acceptance harness) calls it.
#include <algorithm>
#include <string>
#include <vector>

#include "../common/timing.hpp"
#include "bloom/bloom.h"
#include "measure.hpp"

namespace bloom_bench {

bloom_status create_filter(int kind, uint32_t flags, const Workload &w, bloom_filter **out) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kind;
  o.flags = flags;
  o.capacity = w.keys;
  o.fp_rate = w.p;
  return bloom_create(&o, out);
}

namespace {

bloom_status add_batched(bloom_filter *f, const KeySet &ks) {
  for (size_t start = 0; start < ks.size(); start += kBatchChunk) {
    const size_t count = std::min(kBatchChunk, ks.size() - start);
    const bloom_status s = bloom_add_batch(f, &ks.ptrs[start], &ks.lens[start], count);
    if (s != BLOOM_OK) return s;
  }
  return BLOOM_OK;
}

// Queries every key one call at a time; returns how many answered "maybe".
size_t query_single(const bloom_filter *f, const KeySet &ks) {
  size_t hits = 0;
  for (size_t i = 0; i < ks.size(); ++i) hits += bloom_query(f, ks.ptrs[i], ks.lens[i]) == 1;
  return hits;
}

size_t query_batched(const bloom_filter *f, const KeySet &ks, std::vector<uint8_t> &results) {
  size_t hits = 0;
  for (size_t start = 0; start < ks.size(); start += kBatchChunk) {
    const size_t count = std::min(kBatchChunk, ks.size() - start);
    if (bloom_query_batch(f, &ks.ptrs[start], &ks.lens[start], count, results.data()) != BLOOM_OK) return 0;
    for (size_t i = 0; i < count; ++i) hits += results[i];
  }
  return hits;
}

std::string error_note(const char *what) { return std::string(what) + ": " + bloom_last_error(); }

}  // namespace

ResultRow measure_bloom_kind(int kind, uint32_t flags, const Workload &w, const KeySet &pos,
                             const KeySet &neg) {
  ResultRow row;
  row.impl = bloom_kind_name(kind) ? bloom_kind_name(kind) : "unknown";
  if (flags & BLOOM_FLAG_SPLIT_BLOCK) row.impl += "-split";
  row.keys = w.keys;
  row.p = w.p;

  bloom_filter *f = nullptr;
  const bloom_status created = create_filter(kind, flags, w, &f);
  if (created == BLOOM_E_UNSUPPORTED) {
    row.note = "n/a: not implemented in this build";
    return row;
  }
  if (created != BLOOM_OK) {
    row.note = error_note("error: create");
    return row;
  }
  bloom_destroy(f);
  f = nullptr;

  // Inserts: a fresh filter per repetition, so every one inserts into empty
  // memory; it is created (pages populated) before the clock starts and
  // freed after it stops.
  bool ok = true;
  bloom_filter *g = nullptr;
  auto fresh = [&](int) { ok &= create_filter(kind, flags, w, &g) == BLOOM_OK; };
  row.insert_ns = median_ns_per_item_between(
      w.reps, pos.size(), fresh,
      [&](int) {
        for (size_t i = 0; i < pos.size() && g; ++i) ok &= bloom_add(g, pos.ptrs[i], pos.lens[i]) == BLOOM_OK;
      },
      [&](int) { bloom_destroy(g); });
  row.insert_batch_ns = median_ns_per_item_between(
      w.reps, pos.size(), fresh, [&](int) { ok &= g && add_batched(g, pos) == BLOOM_OK; },
      [&](int r) {
        if (r == w.reps - 1) {
          f = g;  // the last one is kept for the queries
        } else {
          bloom_destroy(g);
        }
      });
  if (!ok || f == nullptr) {
    bloom_destroy(f);
    row.note = error_note("error: add");
    return row;
  }

  size_t size = 0;
  if (bloom_serialized_size(f, &size) == BLOOM_OK) {
    row.bytes = static_cast<double>(size);
    row.bits_per_key = static_cast<double>(size) * 8 / static_cast<double>(w.keys);
  }

  bloom_info info;
  info.struct_size = sizeof info;
  if (bloom_get_info(f, &info) == BLOOM_OK)
    row.expected_fpr = bloom_expected_fp_rate(w.keys, info.bits, info.hashes);

  std::vector<uint8_t> results(kBatchChunk);
  size_t pos_hits = 0, neg_hits = 0, pos_batch_hits = 0, neg_batch_hits = 0;
  row.pos_ns = median_ns_per_item(w.reps, pos.size(), [&](int) { pos_hits = query_single(f, pos); });
  row.neg_ns = median_ns_per_item(w.reps, neg.size(), [&](int) { neg_hits = query_single(f, neg); });
  row.pos_batch_ns =
      median_ns_per_item(w.reps, pos.size(), [&](int) { pos_batch_hits = query_batched(f, pos, results); });
  row.neg_batch_ns =
      median_ns_per_item(w.reps, neg.size(), [&](int) { neg_batch_hits = query_batched(f, neg, results); });
  bloom_destroy(f);

  row.fpr = static_cast<double>(neg_hits) / static_cast<double>(neg.size());
  // A Bloom filter never forgets: any miss on an inserted key is a bug, and
  // single and batch answers must agree.
  if (pos_hits != pos.size() || pos_batch_hits != pos.size())
    row.note =
        "error: false negatives (" + std::to_string(pos.size() - std::min(pos_hits, pos_batch_hits)) + ")";
  else if (neg_batch_hits != neg_hits)
    row.note = "error: batch and single queries disagree";
  return row;
}

}  // namespace bloom_bench
