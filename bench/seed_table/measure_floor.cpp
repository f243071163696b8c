// measure_floor.cpp -- what no filter with one memory access per key can beat.
//
// A blocked filter's query is one hash of the key plus one read of a 64-byte
// line chosen by that hash, so the floor does exactly that and nothing else:
// XXH3-64 (inlined, the cheapest XXH3 for 3-15 byte keys), multiply-high onto
// a line of an array as large as the classic formula's filter, one 8-byte load
// from that line. The prefetched variant hashes 32 keys, prefetches their 32
// lines, then reads them, as the library's batch paths do.
#include <cmath>
#include <cstring>
#include <memory>

#include "../common/timing.hpp"
#include "measure.hpp"

namespace bloom_bench {

namespace {

inline uint64_t line_of(const void *key, size_t len, uint64_t lines) {
  const uint64_t h = XXH3_64bits(key, len);
  return static_cast<uint64_t>((static_cast<unsigned __int128>(h) * lines) >> 64);
}

uint64_t read_single(const KeySet &ks, const uint64_t *words, uint64_t lines) {
  uint64_t acc = 0;
  for (size_t i = 0; i < ks.size(); ++i) acc += words[line_of(ks.ptrs[i], ks.lens[i], lines) * 8];
  return acc;
}

uint64_t read_prefetched(const KeySet &ks, const uint64_t *words, uint64_t lines) {
  constexpr size_t kBlock = 32;
  uint64_t acc = 0;
  uint64_t idx[kBlock];
  for (size_t start = 0; start < ks.size(); start += kBlock) {
    const size_t count = std::min(kBlock, ks.size() - start);
    for (size_t i = 0; i < count; ++i) {
      idx[i] = line_of(ks.ptrs[start + i], ks.lens[start + i], lines) * 8;
      __builtin_prefetch(&words[idx[i]]);
    }
    for (size_t i = 0; i < count; ++i) acc += words[idx[i]];
  }
  return acc;
}

}  // namespace

uint64_t formula_bytes(uint64_t n, double p) {
  const double bits =
      std::ceil(static_cast<double>(n) * std::fabs(std::log(p)) / (std::log(2.0) * std::log(2.0)));
  const uint64_t bytes = static_cast<uint64_t>(std::ceil(bits / 8));
  return (bytes + 63) / 64 * 64;
}

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
  row.pos_ns =
      median_ns_per_item(w.reps, pos.size(), [&](int) { keep(read_single(pos, words.get(), lines)); });
  row.neg_ns =
      median_ns_per_item(w.reps, neg.size(), [&](int) { keep(read_single(neg, words.get(), lines)); });
  row.pos_batch_ns =
      median_ns_per_item(w.reps, pos.size(), [&](int) { keep(read_prefetched(pos, words.get(), lines)); });
  row.neg_batch_ns =
      median_ns_per_item(w.reps, neg.size(), [&](int) { keep(read_prefetched(neg, words.get(), lines)); });
  return row;
}

}  // namespace bloom_bench
