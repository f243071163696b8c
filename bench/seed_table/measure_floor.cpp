// SPDX-License-Identifier: Apache-2.0
// measure_floor.cpp -- the floor's row of the seed table (common/floor.hpp
// says what the floor is).
#include "../common/floor.hpp"
#include "../common/timing.hpp"
#include "measure.hpp"

namespace bloom_bench {

ResultRow measure_floor(const Workload &w, const KeySet &pos, const KeySet &neg) {
  ResultRow row;
  row.impl = "floor";
  row.keys = w.keys;
  row.p = w.p;
  const uint64_t bytes = formula_bytes(w.keys, w.p);
  const uint64_t lines = bytes / 64;
  std::vector<uint64_t> words = floor_words(bytes);
  row.bytes = static_cast<double>(bytes);
  row.bits_per_key = static_cast<double>(bytes) * 8 / static_cast<double>(w.keys);
  // The insert columns hold the add floor: hash + one read-modify-write.
  row.insert_ns = median_ns_per_item(
      w.reps, pos.size(), [&](int) { keep(floor_rmw_single(pos, 0, pos.size(), words.data(), lines)); });
  row.insert_batch_ns = median_ns_per_item(
      w.reps, pos.size(), [&](int) { keep(floor_rmw_prefetched(pos, 0, pos.size(), words.data(), lines)); });
  row.pos_ns = median_ns_per_item(
      w.reps, pos.size(), [&](int) { keep(floor_read_single(pos, 0, pos.size(), words.data(), lines)); });
  row.neg_ns = median_ns_per_item(
      w.reps, neg.size(), [&](int) { keep(floor_read_single(neg, 0, neg.size(), words.data(), lines)); });
  row.pos_batch_ns = median_ns_per_item(
      w.reps, pos.size(), [&](int) { keep(floor_read_prefetched(pos, 0, pos.size(), words.data(), lines)); });
  row.neg_batch_ns = median_ns_per_item(
      w.reps, neg.size(), [&](int) { keep(floor_read_prefetched(neg, 0, neg.size(), words.data(), lines)); });
  return row;
}

}  // namespace bloom_bench
