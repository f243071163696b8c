// SPDX-License-Identifier: Apache-2.0
// shape_digests.hpp -- what the library does with >= 5,000 filter shapes,
// reduced to one line each, so that a refactoring can prove it changed
// nothing: tests/unit/shape_digests_test.cpp compares the current
// library with tests/golden/shape_digests.txt, which
// tests/golden/make_shape_digests.cpp wrote from the library before the
// kind table (issue 20).
//
// A shape is (kind, n, p, hasher, flags, seed) plus the kind's own
// parameters (explicit m and k, counter width, growth and tightening, a time
// window). Everything goes through the C API. The line holds the create
// status and, for a filter that exists, its info (integers only: doubles
// from libm may differ between hosts), a digest of the serialized bytes
// after the same deterministic adds, a digest of the answers to present and
// absent keys and of test-and-add, and the status and image digest of a
// merge, an intersect, a remove (counting) and a clear.
#pragma once

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "bloom/bloom.h"

namespace bloom::test::shapes {

struct Shape {
  int32_t kind = BLOOM_KIND_CLASSIC;
  uint64_t n = 1000;
  double p = 0.01;
  int32_t hash = BLOOM_HASH_XXH3;
  uint32_t flags = 0;
  uint64_t seed = 0;
  uint64_t bits = 0;
  uint32_t hashes = 0;
  uint32_t counter_bits = 0;  // 0: the default of bloom_options_init
  double growth = 0;          // 0: the default
  double tightening = 0;      // 0: the default
  uint64_t window_ms = 0;
};

// Every shape the check runs, in a fixed order: the full grid of kind x
// hasher x flags x seed x (n, p), then shapes with explicit m and k, the
// kinds' own parameters, and arguments create must refuse.
inline std::vector<Shape> all_shapes() {
  std::vector<Shape> out;
  const int32_t kinds[] = {1, 2, 3, 4, 5, 6};
  const int32_t hashes[] = {1, 2, 3};
  const uint32_t flag_sets[] = {0, BLOOM_FLAG_CONCURRENT, BLOOM_FLAG_PLAIN_DOUBLE_HASHING,
                                BLOOM_FLAG_CONCURRENT | BLOOM_FLAG_PLAIN_DOUBLE_HASHING};
  const uint64_t seeds[] = {0, 0x9E3779B97F4A7C15ULL};
  const uint64_t ns[] = {1, 3, 50, 400, 2500, 60000};
  const double ps[] = {0.5, 0.1, 0.01, 1e-3, 1e-6, 1e-12};
  for (int32_t kind : kinds)
    for (int32_t hash : hashes)
      for (uint32_t flags : flag_sets)
        for (uint64_t seed : seeds)
          for (uint64_t n : ns)
            for (double p : ps) {
              Shape s;
              s.kind = kind, s.hash = hash, s.flags = flags, s.seed = seed, s.n = n, s.p = p;
              out.push_back(s);
            }
  // Explicit m and k (k = 0: derived from m and n).
  const uint64_t bits[] = {1, 63, 64, 512, 1000, 4096, 100000, 1 << 20};
  const uint32_t ks[] = {0, 1, 3, 7, 64, 65};
  for (int32_t kind : kinds)
    for (uint64_t m : bits)
      for (uint32_t k : ks)
        for (uint32_t flags : {0u, unsigned{BLOOM_FLAG_PLAIN_DOUBLE_HASHING}}) {
          Shape s;
          s.kind = kind, s.bits = m, s.hashes = k, s.flags = flags, s.n = 300, s.seed = m ^ k;
          out.push_back(s);
        }
  // Counting: both counter widths and one that is refused.
  for (uint32_t width : {4u, 8u, 5u})
    for (uint64_t n : {10, 700, 9000})
      for (double p : {0.2, 0.01, 1e-5})
        for (int32_t hash : hashes) {
          Shape s;
          s.kind = BLOOM_KIND_COUNTING, s.counter_bits = width, s.n = n, s.p = p, s.hash = hash;
          out.push_back(s);
        }
  // Scalable: growth and tightening, in range and out.
  for (double growth : {1.0, 1.5, 2.0, 4.0, 0.5, 40000.0})
    for (double tightening : {0.5, 0.85, 0.9, 1.0})
      for (uint64_t n : {1, 20, 500}) {
        Shape s;
        s.kind = BLOOM_KIND_SCALABLE, s.growth = growth, s.tightening = tightening, s.n = n, s.p = 0.05;
        out.push_back(s);
      }
  // Window: time windows (the adds advance a clock) and count windows.
  for (uint64_t window_ms : {0, 1, 100, 5000})
    for (uint64_t n : {1, 64, 1000, 20000})
      for (double p : {0.1, 0.01, 1e-4})
        for (uint32_t flags : {0u, unsigned{BLOOM_FLAG_CONCURRENT}}) {
          Shape s;
          s.kind = BLOOM_KIND_WINDOW, s.window_ms = window_ms, s.n = n, s.p = p, s.flags = flags;
          out.push_back(s);
        }
  // Refused arguments: each must keep its status.
  const Shape bad[] = {
      {0, 100, 0.01},         {7, 100, 0.01},
      {1, 0, 0.01},           {1, 100, 0.0},
      {1, 100, 1.0},          {1, 100, -0.5},
      {1, 100, 0.01, 0},      {1, 100, 0.01, 4},
      {1, 100, 0.01, 1, 0x4}, {1, 100, 0.01, 1, 0x80000000u},
      {3, 100, 0.01, 1, 0x2}, {2, 0, 0.01},
      {4, 0, 0.01},           {5, 0, 0.01},
      {6, 0, 0.01},           {5, 100, 0.01, 1, 0x1},
  };
  for (const Shape &s : bad) out.push_back(s);
  // Since format 1.4 (appended so that the shapes above keep their index,
  // which names their keys): RedisBloom's hash for the two kinds that take
  // it, and split blocks for the blocked kind. Windows are blocked (1.4) by
  // default, so the window shapes above cover that layout.
  for (int32_t kind : {int32_t{BLOOM_KIND_CLASSIC}, int32_t{BLOOM_KIND_SCALABLE}})
    for (uint64_t seed : seeds)
      for (uint64_t n : ns)
        for (double p : ps) {
          Shape s;
          s.kind = kind, s.hash = BLOOM_HASH_REDISBLOOM, s.seed = seed, s.n = n, s.p = p;
          out.push_back(s);
        }
  for (uint64_t m : {0, 256, 4096, 100000, 1 << 20})
    for (uint32_t k : {0u, 8u, 7u})
      for (int32_t hash : hashes)
        for (uint32_t flags :
             {unsigned{BLOOM_FLAG_SPLIT_BLOCK}, unsigned{BLOOM_FLAG_SPLIT_BLOCK | BLOOM_FLAG_CONCURRENT}})
          for (uint64_t n : {1, 400, 60000})
            for (double p : {0.5, 0.01, 1e-6}) {
              if (m == 0 && k != 0) continue;
              Shape s;
              s.kind = BLOOM_KIND_BLOCKED, s.bits = m, s.hashes = k, s.hash = hash, s.flags = flags;
              s.n = n, s.p = p, s.seed = m ^ n;
              out.push_back(s);
            }
  const Shape bad_since_1_4[] = {
      {2, 100, 0.01, 4},      {3, 100, 0.01, 4},      {4, 100, 0.01, 4},
      {6, 100, 0.01, 4},      {1, 100, 0.01, 1, 0x4}, {5, 100, 0.01, 1, 0x4},
      {6, 100, 0.01, 1, 0x4}, {3, 100, 0.01, 1, 0x6}, {1, 100, 0.01, 5},
  };
  for (const Shape &s : bad_since_1_4) out.push_back(s);
  // Since format 1.5: other systems' hashes (hash 5, unknown before and
  // refused above, is Guava's since): Guava and bits-and-blooms on classic
  // filters, Parquet on split blocks, by (n, p) and by explicit m and k.
  for (int32_t hash : {int32_t{BLOOM_HASH_GUAVA}, int32_t{BLOOM_HASH_BITS_AND_BLOOMS}})
    for (uint64_t n : ns)
      for (double p : ps) {
        Shape s;
        s.kind = BLOOM_KIND_CLASSIC, s.hash = hash, s.n = n, s.p = p;
        out.push_back(s);
      }
  for (uint64_t n : ns)
    for (double p : ps) {
      Shape s;
      s.kind = BLOOM_KIND_BLOCKED, s.hash = BLOOM_HASH_PARQUET, s.n = n, s.p = p;
      out.push_back(s);
    }
  for (uint64_t m : {64, 6400, 1000, 8192})
    for (uint32_t k : {0u, 1u, 8u})
      for (int32_t hash : {5, 6, 7}) {
        Shape s;
        s.kind = hash == BLOOM_HASH_PARQUET ? BLOOM_KIND_BLOCKED : BLOOM_KIND_CLASSIC;
        s.hash = hash, s.bits = m, s.hashes = k, s.n = 300;
        out.push_back(s);
      }
  const Shape bad_since_1_5[] = {
      {1, 100, 0.01, 7},      {3, 100, 0.01, 5},       {5, 100, 0.01, 6},
      {4, 100, 0.01, 5},      {1, 100, 0.01, 8},       {1, 100, 0.01, 5, 0x1},
      {3, 100, 0.01, 7, 0x1}, {1, 100, 0.01, 6, 0, 3}, {3, 100, 0.01, 7, 0, 3},
  };
  for (const Shape &s : bad_since_1_5) out.push_back(s);
  return out;
}

inline std::string describe(const Shape &s) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "kind=%d n=%" PRIu64 " p=%.17g hash=%d flags=%u seed=%" PRIu64 " bits=%" PRIu64
                " hashes=%u counter_bits=%u growth=%.17g tightening=%.17g window_ms=%" PRIu64,
                s.kind, s.n, s.p, s.hash, s.flags, s.seed, s.bits, s.hashes, s.counter_bits, s.growth,
                s.tightening, s.window_ms);
  return buf;
}

inline std::string hex128(const void *data, size_t len) {
  const XXH128_hash_t h = XXH3_128bits(data, len);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016" PRIx64 "%016" PRIx64, h.high64, h.low64);
  return buf;
}

// Digest of the filter's image; "-" when it cannot be serialized.
inline std::string image_digest(const bloom_filter *f) {
  size_t size = 0;
  if (bloom_serialized_size(f, &size) != BLOOM_OK) return "-";
  std::vector<unsigned char> image(size);
  size_t written = 0;
  if (bloom_serialize(f, image.data(), image.size(), &written) != BLOOM_OK || written != size) return "-";
  return hex128(image.data(), image.size());
}

inline std::string key(const char *prefix, uint64_t shape_index, uint64_t i) {
  return std::string(prefix) + std::to_string(shape_index) + ":" + std::to_string(i);
}

// The line of one shape (without the shape's description).
inline std::string run_shape(const Shape &s, uint64_t index) {
  bloom_options o;
  bloom_options_init(&o);
  o.kind = s.kind, o.capacity = s.n, o.fp_rate = s.p, o.hash = s.hash, o.flags = s.flags, o.seed = s.seed;
  o.bits = s.bits, o.hashes = s.hashes, o.window_ms = s.window_ms;
  if (s.counter_bits) o.counter_bits = s.counter_bits;
  if (s.growth != 0) o.growth = s.growth;
  if (s.tightening != 0) o.tightening = s.tightening;
  bloom_filter *raw = nullptr;
  const bloom_status created = bloom_create(&o, &raw);
  std::string line = "create=" + std::to_string(created);
  if (created != BLOOM_OK) return line;
  struct Owner {
    bloom_filter *f;
    ~Owner() { bloom_destroy(f); }
  } owner{raw};
  bloom_filter *f = raw;

  // Adds: at most 4,000 keys (2n for small n, so scalable filters grow and
  // windows retire generations), through every add path in turn.
  const uint64_t adds = s.n * 2 < 4000 ? s.n * 2 : 4000;
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < adds; ++i) keys.push_back(key("k", index, i));
  std::string statuses;
  std::vector<uint8_t> answers;
  uint64_t clock = 0;
  for (uint64_t i = 0; i < adds;) {
    if (s.window_ms != 0 && i % 16 == 0) {
      clock += 7 + (index % 5);
      statuses += std::to_string(bloom_advance(f, clock)) + ",";
    }
    switch (i % 3) {
      case 0:
        statuses += std::to_string(bloom_add(f, keys[i].data(), keys[i].size())) + ",";
        ++i;
        break;
      case 1:
        answers.push_back(static_cast<uint8_t>(bloom_test_and_add(f, keys[i].data(), keys[i].size())));
        ++i;
        break;
      default: {
        const size_t batch = adds - i < 5 ? adds - i : 5;
        std::vector<const void *> ptrs;
        std::vector<size_t> lens;
        for (size_t j = 0; j < batch; ++j)
          ptrs.push_back(keys[i + j].data()), lens.push_back(keys[i + j].size());
        statuses += std::to_string(bloom_add_batch(f, ptrs.data(), lens.data(), batch)) + ",";
        i += batch;
      }
    }
  }
  // Queries: every added key and as many never added (single and batch).
  std::vector<std::string> absent;
  for (uint64_t i = 0; i < adds + 200; ++i) absent.push_back(key("a", index, i));
  for (const auto &k : keys) answers.push_back(static_cast<uint8_t>(bloom_query(f, k.data(), k.size())));
  {
    std::vector<const void *> ptrs;
    std::vector<size_t> lens;
    for (const auto &k : absent) ptrs.push_back(k.data()), lens.push_back(k.size());
    std::vector<uint8_t> res(absent.size());
    statuses += std::to_string(bloom_query_batch(f, ptrs.data(), lens.data(), ptrs.size(), res.data())) + ",";
    answers.insert(answers.end(), res.begin(), res.end());
  }

  bloom_info info{};
  info.struct_size = sizeof info;
  statuses += std::to_string(bloom_get_info(f, &info));
  char buf[512];
  std::snprintf(buf, sizeof buf,
                " bits=%" PRIu64 " k=%u bytes=%" PRIu64 " cap=%" PRIu64 " added=%" PRIu64
                " stages=%u cb=%u fmt=%u.%u wk=%u wl=%u sm=%" PRIu64 " g=%" PRIu64 " gen=%" PRIu64,
                info.bits, info.hashes, info.bytes, info.capacity, info.keys_added, info.stages,
                info.counter_bits, info.format_major, info.format_minor, info.window_k, info.window_l,
                info.slice_bits, info.generation_capacity, info.generation);
  line += buf;
  uint64_t growth_bytes = 0;
  const bloom_status gs = bloom_growth_bytes(f, &growth_bytes);
  line += " grow=" + std::to_string(gs) + ":" + std::to_string(growth_bytes);
  line += " image=" + image_digest(f);
  line += " answers=" + hex128(answers.data(), answers.size());
  line += " st=" + hex128(statuses.data(), statuses.size());

  // Merge and intersect with a clone that holds more keys.
  bloom_filter *other = nullptr;
  const bloom_status cs = bloom_clone(f, &other);
  line += " clone=" + std::to_string(cs);
  if (cs == BLOOM_OK) {
    for (uint64_t i = 0; i < 100; ++i) {
      const std::string k = key("m", index, i);
      bloom_add(other, k.data(), k.size());
    }
    bloom_filter *merged = nullptr;
    bloom_clone(f, &merged);
    // Each status before its image: the operands of + are unsequenced.
    const bloom_status ms = bloom_merge(merged, other);
    line += " merge=" + std::to_string(ms) + ":" + image_digest(merged);
    const bloom_status is = bloom_intersect(other, f);
    line += " inter=" + std::to_string(is) + ":" + image_digest(other);
    bloom_destroy(merged);
    bloom_destroy(other);
  }
  // Counting: remove the first tenth of the keys, and one never added.
  if (s.kind == BLOOM_KIND_COUNTING || index % 7 == 0) {
    std::string removed;
    for (uint64_t i = 0; i < adds / 10 + 1 && i < adds; ++i)
      removed += std::to_string(bloom_remove(f, keys[i].data(), keys[i].size())) + ",";
    removed += std::to_string(bloom_remove(f, "never", 5));
    line += " remove=" + hex128(removed.data(), removed.size()) + ":" + image_digest(f);
  }
  // The image loads back to the same bytes.
  {
    size_t size = 0;
    bloom_serialized_size(f, &size);
    std::vector<unsigned char> image(size);
    size_t written = 0;
    bloom_serialize(f, image.data(), image.size(), &written);
    bloom_filter *back = nullptr;
    const bloom_status ds = bloom_deserialize(image.data(), image.size(), &back);
    line += " load=" + std::to_string(ds);
    if (ds == BLOOM_OK)
      line += image_digest(back) == hex128(image.data(), image.size()) ? ":same" : ":differs";
    bloom_destroy(back);
  }
  const bloom_status cleared = bloom_clear(f);
  line += " clear=" + std::to_string(cleared) + ":" + image_digest(f);
  return line;
}

}  // namespace bloom::test::shapes
