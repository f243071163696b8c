// SPDX-License-Identifier: Apache-2.0
#include "kinds/blocked.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>

#include "blocked_bits.hpp"
#include "error.hpp"
#include "format/payload_io.hpp"
#include "kinds/blocked_sizing.hpp"
#include "kinds/split_block.hpp"
#include "popcount.hpp"
#include "probe.hpp"
#include "relaxed_atomic.hpp"

namespace bloom::core {

using blocked::kLineBits;
using blocked::kLineWords;

namespace {
const uint32_t *multipliers_of(const FilterConfig &c) {
  return c.blocked_layout2() ? blocked::kSaltMultipliers.data() : blocked::kPowerMultipliers.data();
}
}  // namespace

namespace {
uint32_t line_words_of(const FilterConfig &c) {
  return c.split_block() ? split_block::kBlockWords : kLineWords;
}
}  // namespace

BlockedFilter::BlockedFilter(const FilterConfig &config)
    : ArrayFilter(config),
      split_(config.split_block()),
      parquet_(config.hash == HashKind::kParquet),
      line_words_(line_words_of(config)),
      lines_(config.bits / (64 * line_words_)),
      kernels_(&blocked::best_kernels()) {
  make_stripes();
  install_key_query_paths();
}

BlockedFilter::BlockedFilter(const FilterConfig &config, BitArray bits)
    : ArrayFilter(config, std::move(bits)),
      split_(config.split_block()),
      parquet_(config.hash == HashKind::kParquet),
      line_words_(line_words_of(config)),
      lines_(config.bits / (64 * line_words_)),
      kernels_(&blocked::best_kernels()) {
  make_stripes();
  install_key_query_paths();
}

BlockedFilter::BlockedFilter(const BlockedFilter &other)
    : ArrayFilter(other),
      split_(other.split_),
      parquet_(other.parquet_),
      line_words_(other.line_words_),
      lines_(other.lines_),
      kernels_(other.kernels_) {
  make_stripes();
  install_key_query_paths();
}

// Regions of consecutive lines, at most StripeLocks::kStripes of them.
void BlockedFilter::make_stripes() {
  if (!config_.concurrent()) return;
  stripes_ = std::make_unique<StripeLocks>();
  groups_batch_adds_ = true;
  const auto width = static_cast<uint32_t>(std::bit_width(lines_ - 1));
  constexpr auto kStripeBits = static_cast<uint32_t>(std::bit_width(StripeLocks::kStripes - 1));
  stripe_shift_ = width > kStripeBits ? width - kStripeBits : 0;
}

void BlockedFilter::install_key_query_paths() {
  // The view points into bits_, whose storage never moves after
  // construction (clear, merge and intersect work in place).
  view_ = {bits_.words(), lines_, hasher_.seed,
           blocked::make_probes(config_.hashes, multipliers_of(config_))};
  if (config_.key_hash64() && split_) {
    const blocked::KeyKernels &key = config_.concurrent() ? kernels_->split_xxh3_64_concurrent
                                                          : kernels_->split_xxh3_64[view_.seed == 0 ? 1 : 0];
    set_key_query_paths({key.query, key.query_batch, &view_});
    if (key.add != nullptr) set_key_add_path({key.add, &view_, kernels_->split_add_batch});
  } else if (config_.key_hash64()) {
    const blocked::ProbeClass probe_class = blocked::probe_class(config_.hashes);
    const blocked::KeyKernels &key = config_.concurrent()
                                         ? kernels_->xxh3_64_concurrent[probe_class]
                                         : kernels_->xxh3_64[view_.seed == 0 ? 1 : 0][probe_class];
    set_key_query_paths({key.query, key.query_batch, &view_});
    // Concurrent filters have none (key.add is null) and keep add_key.
    const uint32_t k = config_.hashes;
    const bool exact = k >= 1 && k <= blocked::Kernels::kMaxExactAddK;
    const int seed0 = view_.seed == 0 ? 1 : 0;
    const auto add_batch = exact && kernels_->add_batch_exact_k[seed0][k]
                               ? kernels_->add_batch_exact_k[seed0][k]
                               : kernels_->add_batch_any_k;
    if (key.add != nullptr) set_key_add_path({key.add, &view_, add_batch});
    if (!config_.concurrent() && exact) {
      const bool in_cache = lines_ * line_words_ * sizeof(uint64_t) <= blocked::kScalarOrAddBytes;
      const auto cached_add = in_cache ? kernels_->add_exact_k_in_cache[seed0][k] : nullptr;
      // Batches take the single add's code only up to half that size (2 MiB):
      // at 4 MiB the staged batch's prefetches still paid (8.6-8.8 against
      // 9.0-11.3 ns a key), at 1 MiB they cost (9.1-9.3 against 8.1-8.4).
      const bool batch_in_cache = lines_ * line_words_ * sizeof(uint64_t) <= blocked::kScalarOrAddBytes / 2;
      const auto cached_batch = batch_in_cache ? kernels_->add_batch_exact_k_in_cache[seed0][k] : nullptr;
      if (const auto add = cached_add != nullptr ? cached_add : kernels_->add_exact_k[seed0][k])
        set_key_add_path({add, &view_, cached_batch != nullptr ? cached_batch : add_batch});
    }
  } else {
    reset_key_query_paths();
  }
}

uint64_t BlockedFilter::line_of(Hash128 h) const { return reduce_range(h.h1, lines_); }

// Under the lock of the line's region (the caller holds it): no other
// thread writes these words, so a relaxed load and store per word loses
// nothing, and readers see each word before or after.
bool BlockedFilter::set_bits_locked(uint64_t *line, uint32_t x) {
  bool all_set = true;
  if (split_) {
    uint64_t mask[split_block::kBlockWords];
    split_block::block_mask(x, mask);
    for (uint32_t w = 0; w < split_block::kBlockWords; ++w) {
      const uint64_t old = relaxed_load(line[w]);
      all_set &= (old & mask[w]) == mask[w];
      relaxed_store(line[w], old | mask[w]);
    }
    return all_set;
  }
  // Probe by probe, as the plain batch add does (blocked_line.hpp's
  // line_or_probes): building the line's mask first cost more.
  for (uint32_t j = 0; j < config_.hashes; ++j) {
    const uint32_t b = blocked::bit_of(x * view_.probes.mult[j]);
    const uint64_t bit = uint64_t{1} << (b & 63);
    const uint64_t old = relaxed_load(line[b >> 6]);
    all_set &= (old & bit) != 0;
    relaxed_store(line[b >> 6], old | bit);
  }
  return all_set;
}

// A key already present (duplicates in the stream) writes nothing and
// takes no lock, so the line and the lock stay shared between cores.
bool BlockedFilter::set_bits_concurrent(Hash128 h) {
  if (query_concurrent(h)) return true;
  const uint64_t line = line_of(h);
  StripeGuard guard(*stripes_, stripe_of(line));
  return set_bits_locked(bits_.words() + line * line_words_, blocked::line_seed(h.h2));
}

void BlockedFilter::set_bits(Hash128 h) {
  if (config_.concurrent()) {
    (void)set_bits_concurrent(h);
    return;
  }
  uint64_t *line = line_words(h);
  const uint32_t x = blocked::line_seed(h.h2);
  if (split_) [[unlikely]] {
    if (parquet_)
      (void)split_block::block_add(line, x, split_block::kParquetSalts);
    else
      (void)kernels_->split_add(line, x);
    return;
  }
  kernels_->or_line(line, x, view_.probes);
}

// Requests every key's line (for writing) while sorting the keys by region
// (a counting sort), then visits each region once, holding its lock for all
// of its keys: one locked instruction per region, where ORing each probe
// atomically took one per bit. Requesting the lines only a region ahead
// left most of them still on the way when the region was set. The walk
// starts at the first key's region, and a region another thread holds is
// left for the end, so threads adding batches at once do not queue behind
// each other region after region.
void BlockedFilter::add_block_concurrent(const Hash128 *hs, size_t n) {
  if (n == 0) return;
  constexpr uint32_t kStripes = StripeLocks::kStripes;
  uint64_t lines[kGroupedAddBlock];
  uint16_t order[kGroupedAddBlock];
  uint32_t begin[kStripes + 1] = {};
  uint64_t *words = bits_.words();
  for (size_t i = 0; i < n; ++i) {
    lines[i] = line_of(hs[i]);
    __builtin_prefetch(words + lines[i] * line_words_, 1);
    ++begin[stripe_of(lines[i]) + 1];
  }
  for (uint32_t s = 0; s < kStripes; ++s) begin[s + 1] += begin[s];
  uint32_t next[kStripes];
  for (uint32_t s = 0; s < kStripes; ++s) next[s] = begin[s];
  for (size_t i = 0; i < n; ++i) order[next[stripe_of(lines[i])]++] = static_cast<uint16_t>(i);
  auto set_stripe = [&](uint32_t s) {
    for (uint32_t j = begin[s]; j < begin[s + 1]; ++j) {
      const size_t i = order[j];
      (void)set_bits_locked(words + lines[i] * line_words_, blocked::line_seed(hs[i].h2));
    }
    stripes_->unlock(s);
  };
  uint32_t busy[kStripes];
  uint32_t busy_count = 0;
  const uint32_t first = stripe_of(lines[0]);
  for (uint32_t step = 0; step < kStripes; ++step) {
    const uint32_t s = (first + step) % kStripes;
    if (begin[s] == begin[s + 1]) continue;
    if (stripes_->try_lock(s))
      set_stripe(s);
    else
      busy[busy_count++] = s;
  }
  for (uint32_t j = 0; j < busy_count; ++j) {
    stripes_->lock(busy[j]);
    set_stripe(busy[j]);
  }
}

void BlockedFilter::add(Hash128 h) { set_bits(h); }

// A key already present is answered by a read alone and its line is not
// written, as on the other bit kinds: pages shared with a forked process
// (a Redis BGSAVE child) stay shared for adds that change nothing.
bool BlockedFilter::test_and_add(Hash128 h) {
  if (config_.concurrent()) return set_bits_concurrent(h);
  if (query(h)) return true;
  set_bits(h);
  return false;
}

bool BlockedFilter::query_concurrent(Hash128 h) const {
  if (split_) [[unlikely]]
    return split_block::block_has<true>(line_words(h), blocked::line_seed(h.h2));
  return blocked::line_has<true>(bits_.words() + line_of(h) * kLineWords, blocked::line_seed(h.h2),
                                 config_.hashes, view_.probes.mult);
}

bool BlockedFilter::query(Hash128 h) const {
  if (config_.concurrent()) return query_concurrent(h);
  if (split_) [[unlikely]] {
    if (parquet_)
      return split_block::block_has(line_words(h), blocked::line_seed(h.h2), split_block::kParquetSalts);
    return kernels_->split_query(line_words(h), blocked::line_seed(h.h2));
  }
  return kernels_->query_line(bits_.words() + line_of(h) * kLineWords, blocked::line_seed(h.h2),
                              view_.probes);
}

// Each key's line and in-line seed, for the batch kernels; with kPrefetch
// the lines are prefetched so every miss is under way before any probe.
// Adds pass false: add_keys already prefetched them a block ahead
// (prefetch_block).
template <bool kPrefetch>
void BlockedFilter::stage_lines(const Hash128 *hs, size_t count, uint64_t *lines, uint32_t *seeds) const {
  for (size_t i = 0; i < count; ++i) {
    lines[i] = line_of(hs[i]);
    seeds[i] = blocked::line_seed(hs[i].h2);
    if constexpr (kPrefetch) __builtin_prefetch(bits_.words() + lines[i] * line_words_);
  }
}

// add_keys calls prefetch_block(hs, n) one block before add_block(hs, n)
// (the only caller), so the lines are already on their way here.
void BlockedFilter::add_block(const Hash128 *hs, size_t n) {
  if (config_.concurrent()) return add_block_concurrent(hs, n);
  if (split_) {
    for (size_t i = 0; i < n; ++i) set_bits(hs[i]);
    return;
  }
  uint64_t lines[kBatchBlock];
  uint32_t seeds[kBatchBlock];
  for (size_t start = 0; start < n; start += kBatchBlock) {
    const size_t count = std::min(kBatchBlock, n - start);
    stage_lines<false>(hs + start, count, lines, seeds);
    kernels_->add_lines(bits_.words(), lines, seeds, count, view_.probes);
  }
}

void BlockedFilter::prefetch_block(const Hash128 *hs, size_t n) const {
  if (config_.concurrent()) return;  // add_block_concurrent prefetches by region
  for (size_t i = 0; i < n; ++i) __builtin_prefetch(line_words(hs[i]), 1);
}

void BlockedFilter::query_block(const Hash128 *hs, size_t n, uint8_t *out) const {
  if (config_.concurrent() || split_) {
    for (size_t i = 0; i < n; ++i) __builtin_prefetch(line_words(hs[i]));
    for (size_t i = 0; i < n; ++i) out[i] = query(hs[i]) ? 1 : 0;
    return;
  }
  uint64_t lines[kBatchBlock];
  uint32_t seeds[kBatchBlock];
  for (size_t start = 0; start < n; start += kBatchBlock) {
    const size_t count = std::min(kBatchBlock, n - start);
    stage_lines<true>(hs + start, count, lines, seeds);
    kernels_->query_lines(bits_.words(), lines, seeds, count, view_.probes, out + start);
  }
}

// Split blocks: the rate given the contents is exact (a query tests one
// uniform bit per word: the product of the words' fills, averaged over
// blocks); keys from the fill, a word with s of 32 bits set having taken
// about ln(1 - s/32) / ln(31/32) keys (each key sets one bit per word).
void BlockedFilter::fill_split_info(Info &info) const {
  const uint64_t *w = bits_.words();
  uint64_t set = 0;
  double rate = 0.0;
  double keys = 0.0;
  const double per_key = std::log1p(-1.0 / 32.0);
  for (uint64_t b = 0; b < lines_; ++b) {
    const uint64_t *block = w + b * split_block::kBlockWords;
    const auto c = static_cast<uint32_t>(popcount_words(block, split_block::kBlockWords));
    set += c;
    rate += split_block::block_fp_rate(block);
    keys += c == split_block::kBlockBits ? INFINITY : std::log1p(-static_cast<double>(c) / 256.0) / per_key;
  }
  info.bits = bits_.bits();
  info.bytes = bits_.byte_size();
  info.fill_ratio = static_cast<double>(set) / static_cast<double>(bits_.bits());
  info.expected_fp_rate = rate / static_cast<double>(lines_);
  info.estimated_keys = keys;
}

void BlockedFilter::fill_info(Info &info) const {
  if (split_) return fill_split_info(info);
  // How many lines have c bits set, c = 0..512.
  std::array<uint64_t, kLineBits + 1> histogram{};
  const uint64_t *w = bits_.words();
  uint64_t set = 0;
  for (uint64_t l = 0; l < lines_; ++l) {
    const auto c = static_cast<uint32_t>(popcount_words(w + l * kLineWords, kLineWords));
    ++histogram[c];
    set += c;
  }
  const uint32_t k = config_.hashes;
  info.bits = bits_.bits();
  info.bytes = bits_.byte_size();
  info.fill_ratio = static_cast<double>(set) / static_cast<double>(bits_.bits());
  // Expected rate from the actual contents: a query picks a line uniformly,
  // and in a line with c bits set its d distinct probes all hit set bits with
  // probability C(c, d) / C(512, d) (blocked_sizing.hpp's line_fp_rate).
  // Keys per line: c set bits after j keys means about
  // ln(1 - c/512) / (k ln(1 - 1/512)) keys (each key draws k positions).
  double rate = 0.0;
  double keys = 0.0;
  const double per_key = k * std::log1p(-1.0 / kLineBits);
  for (uint32_t c = 0; c <= kLineBits; ++c) {
    if (histogram[c] == 0) continue;
    const double lines = static_cast<double>(histogram[c]);
    rate += lines * blocked::line_fp_rate(c, k);
    keys += c == kLineBits ? INFINITY : lines * std::log1p(-static_cast<double>(c) / kLineBits) / per_key;
  }
  info.expected_fp_rate = rate / static_cast<double>(lines_);
  info.estimated_keys = keys;
}

std::optional<BlockedBits> blocked_bits(const Filter &f) {
  const auto *b = dynamic_cast<const BlockedFilter *>(&f);
  if (b == nullptr || !b->config().key_hash64()) return std::nullopt;
  const blocked::LineView &v = b->line_view();
  return BlockedBits{v.words, v.lines, v.seed, v.probes.k, b->config().split_block(), v.probes.mult};
}

}  // namespace bloom::core
