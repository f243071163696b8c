// SPDX-License-Identifier: Apache-2.0
#include "kinds/blocked_kernels.hpp"

#include <cstdlib>
#include <cstring>

#include "kinds/blocked_line.hpp"
#include "kinds/split_block.hpp"

namespace bloom::core::blocked {

// Defined in blocked_kernels_avx2.cpp on x86-64 builds.
const Kernels *avx2_kernels_if_supported();

namespace {

bool portable_query_line(const uint64_t *line, uint32_t x, const Probes &p) {
  return line_has(line, x, p.k, p.mult);
}

void portable_query_lines(const uint64_t *words, const uint64_t *lines, const uint32_t *seeds, size_t n,
                          const Probes &p, uint8_t *out) {
  for (size_t i = 0; i < n; ++i)
    out[i] = line_has(words + lines[i] * kLineWords, seeds[i], p.k, p.mult) ? 1 : 0;
}

bool portable_add_line(uint64_t *line, uint32_t x, const Probes &p) { return line_add(line, x, p.k, p.mult); }

void portable_or_line(uint64_t *line, uint32_t x, const Probes &p) { line_or_probes(line, x, p.k, p.mult); }

void portable_add_lines(uint64_t *words, const uint64_t *lines, const uint32_t *seeds, size_t n,
                        const Probes &p) {
  for (size_t i = 0; i < n; ++i) line_or_probes(words + lines[i] * kLineWords, seeds[i], p.k, p.mult);
}

template <bool kAtomic>
__attribute__((flatten)) int portable_query_key_xxh3_64(const void *view, const void *key, size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  uint32_t seed;
  const uint64_t *line = key_line_xxh3_64(v, key, len, &seed);
  return line_has<kAtomic>(line, seed, v.probes.k, v.probes.mult) ? 1 : 0;
}

template <bool kAtomic>
__attribute__((flatten)) void portable_query_keys_xxh3_64(const void *view, const void *const *keys,
                                                          const size_t *lens, size_t n, uint8_t *out) {
  const auto &v = *static_cast<const LineView *>(view);
  query_keys_pipelined(v, keys, lens, n, out, [&v](const uint64_t *line, uint32_t seed) {
    return line_has<kAtomic>(line, seed, v.probes.k, v.probes.mult);
  });
}

__attribute__((flatten)) int portable_add_key_xxh3_64(const void *view, const void *key, size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  uint32_t seed;
  const uint64_t *line = key_line_xxh3_64(v, key, len, &seed);
  // The filter's own memory (LineView holds it as const for the queries).
  line_or_probes(const_cast<uint64_t *>(line), seed, v.probes.k, v.probes.mult);
  return 0;
}

template <bool kAtomic>
__attribute__((flatten)) int portable_split_query_key(const void *view, const void *key, size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  const uint64_t h = xxh3_64_short_inline(key, len, v.seed);
  return split_block::block_has<kAtomic>(split_block::block_of_hash64(v, h), line_seed(h)) ? 1 : 0;
}

template <bool kAtomic>
__attribute__((flatten)) void portable_split_query_keys(const void *view, const void *const *keys,
                                                        const size_t *lens, size_t n, uint8_t *out) {
  const auto &v = *static_cast<const LineView *>(view);
  split_block::query_keys_pipelined(v, keys, lens, n, out, [](const uint64_t *block, uint32_t seed) {
    return split_block::block_has<kAtomic>(block, seed);
  });
}

__attribute__((flatten)) int portable_split_add_key(const void *view, const void *key, size_t len) {
  const auto &v = *static_cast<const LineView *>(view);
  const uint64_t h = xxh3_64_short_inline(key, len, v.seed);
  (void)split_block::block_add(const_cast<uint64_t *>(split_block::block_of_hash64(v, h)), line_seed(h));
  return 0;
}

__attribute__((flatten)) void portable_add_keys_xxh3_64(const void *view, const void *const *keys,
                                                        const size_t *lens, size_t n) {
  const auto &v = *static_cast<const LineView *>(view);
  add_keys_pipelined<kLineWords>(v, v.seed, keys, lens, n, [&v](uint64_t *line, uint32_t seed) {
    line_or_probes(line, seed, v.probes.k, v.probes.mult);
  });
}

__attribute__((flatten)) void portable_split_add_keys(const void *view, const void *const *keys,
                                                      const size_t *lens, size_t n) {
  const auto &v = *static_cast<const LineView *>(view);
  add_keys_pipelined<split_block::kBlockWords>(v, v.seed, keys, lens, n, [](uint64_t *block, uint32_t seed) {
    (void)split_block::block_add(block, seed);
  });
}

bool portable_split_query(const uint64_t *block, uint32_t x) { return split_block::block_has(block, x); }
bool portable_split_add(uint64_t *block, uint32_t x) { return split_block::block_add(block, x); }

constexpr KeyKernels kPortableSplitKey{portable_split_query_key<false>, portable_split_query_keys<false>,
                                       portable_split_add_key};
constexpr KeyKernels kPortableSplitConcurrentKey{portable_split_query_key<true>,
                                                 portable_split_query_keys<true>, nullptr};

// The portable loops stop at the first clear bit, whatever k is: one
// function serves every probe class. Concurrent filters install no add.
constexpr KeyKernels kPortableKey{portable_query_key_xxh3_64<false>, portable_query_keys_xxh3_64<false>,
                                  portable_add_key_xxh3_64};
constexpr KeyKernels kPortableConcurrentKey{portable_query_key_xxh3_64<true>,
                                            portable_query_keys_xxh3_64<true>, nullptr};

constexpr Kernels kPortable{
    "portable",
    portable_query_line,
    portable_query_lines,
    portable_add_line,
    portable_or_line,
    portable_add_lines,
    // The fallback set has no seed-0 specialisation either.
    {{kPortableKey, kPortableKey, kPortableKey}, {kPortableKey, kPortableKey, kPortableKey}},
    {kPortableConcurrentKey, kPortableConcurrentKey, kPortableConcurrentKey},
    portable_split_query,
    portable_split_add,
    {kPortableSplitKey, kPortableSplitKey},
    kPortableSplitConcurrentKey,
    {},
    {},
    portable_add_keys_xxh3_64,
    {},
    portable_split_add_keys,
    {}};

}  // namespace

const Kernels &portable_kernels() { return kPortable; }

const Kernels *avx2_kernels() { return avx2_kernels_if_supported(); }

const Kernels &best_kernels() {
  static const Kernels *const best = [] {
    const Kernels *available[] = {avx2_kernels(), &kPortable};  // fastest first
    // BLOOM_KERNELS=portable|avx2 picks a slower set, for A/B
    // benchmarks in one run and for bug reports; unknown or unavailable
    // names are ignored.
    if (const char *want = std::getenv("BLOOM_KERNELS"))
      for (const Kernels *k : available)
        if (k != nullptr && std::strcmp(k->name, want) == 0) return k;
    for (const Kernels *k : available)
      if (k != nullptr) return k;
    return &kPortable;
  }();
  return *best;
}

}  // namespace bloom::core::blocked
