// measure_floor.cpp -- the floor's row of the seed table (common/floor.hpp
// says what the floor is).
#include <memory>

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
  std::unique_ptr<uint64_t[]> words(new uint64_t[bytes / 8]);
  // Touch every page so no page fault is timed.
  for (uint64_t i = 0; i < bytes / 8; ++i) words[i] = i;
  row.bytes = static_cast<double>(bytes);
  row.bits_per_key = static_cast<double>(bytes) * 8 / static_cast<double>(w.keys);
  row.pos_ns = median_ns_per_item(
      w.reps, pos.size(), [&](int) { keep(floor_read_single(pos, 0, pos.size(), words.get(), lines)); });
  row.neg_ns = median_ns_per_item(
      w.reps, neg.size(), [&](int) { keep(floor_read_single(neg, 0, neg.size(), words.get(), lines)); });
  row.pos_batch_ns = median_ns_per_item(
      w.reps, pos.size(), [&](int) { keep(floor_read_prefetched(pos, 0, pos.size(), words.get(), lines)); });
  row.neg_batch_ns = median_ns_per_item(
      w.reps, neg.size(), [&](int) { keep(floor_read_prefetched(neg, 0, neg.size(), words.get(), lines)); });
  return row;
}

}  // namespace bloom_bench
