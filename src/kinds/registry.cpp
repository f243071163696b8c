// SPDX-License-Identifier: Apache-2.0
#include "kinds/registry.hpp"

#include <cmath>
#include <string>

#include "bloom/bloom.h"
#include "error.hpp"
#include "kinds/blocked.hpp"
#include "kinds/blocked_line.hpp"
#include "kinds/classic.hpp"
#include "kinds/counting.hpp"
#include "kinds/partitioned.hpp"
#include "kinds/scalable.hpp"
#include "kinds/scalable_sizing.hpp"
#include "kinds/split_block.hpp"
#include "kinds/window.hpp"
#include "kinds/window_sizing.hpp"

namespace bloom::core {

namespace {

const char *kind_name(Kind k) { return bloom_kind_name(static_cast<int>(k)); }

[[noreturn]] void unsupported_kind(Kind k) {
  fail(BLOOM_E_UNSUPPORTED, std::string("the ") + kind_name(k) + " kind is not implemented in this version");
}

void require(bool ok, const std::string &what) {
  if (!ok) fail(BLOOM_E_FORMAT, what);
}

// What every kind made of one array shares on load: a single stage, and a
// payload of exactly the bytes its m (and counter width) needs.
void require_single_array(const Header &h, uint64_t expected_payload) {
  require(h.stages == 1, std::string(kind_name(h.config.kind)) + " filter with a stage count other than 1");
  std::string shape = "m = " + std::to_string(h.config.bits);
  if (h.config.kind == Kind::kCounting)
    shape += " counters of " + std::to_string(h.config.counter_bits) + " bits";
  require(h.payload_size == expected_payload, "payload size " + std::to_string(h.payload_size) +
                                                  " does not fit " + shape + " (" +
                                                  std::to_string(expected_payload) + " bytes)");
}

void validate_scalable_config(const FilterConfig &c) {
  if (c.concurrent())
    fail(BLOOM_E_UNSUPPORTED,
         "scalable filters do not support BLOOM_FLAG_CONCURRENT: appending a stage changes the chain under "
         "other threads; serialise adds with your own lock");
  if (c.counter_bits != 0) fail(BLOOM_E_INVALID_ARG, "scalable filters take no counter_bits");
  if (c.capacity < 1) fail(BLOOM_E_INVALID_ARG, "scalable filters need a first-stage capacity of at least 1");
  if (!(c.fp_rate > 0.0 && c.fp_rate < 1.0))
    fail(BLOOM_E_INVALID_ARG, "scalable filters need an fp_rate strictly between 0 and 1");
  if (!(c.growth >= 1.0 && c.growth <= kScalableMaxGrowth))
    fail(BLOOM_E_INVALID_ARG, "growth = " + std::to_string(c.growth) + " must lie in [1, 32768]");
  if (!(c.tightening > 0.0 && c.tightening < 1.0))
    fail(BLOOM_E_INVALID_ARG,
         "tightening = " + std::to_string(c.tightening) + " must lie strictly between 0 and 1");
}

// The window's shape (configure() derives it; a file carries it in its
// descriptor): k + l slices of m bits, m whole words.
void validate_window_config(const FilterConfig &c) {
  if (c.counter_bits != 0 || c.growth != 0 || c.tightening != 0)
    fail(BLOOM_E_INVALID_ARG, "window filters take no counter, growth or tightening parameters");
  if (c.window_l < 1 || c.window_l > kMaxWindowSlices - c.hashes)
    fail(BLOOM_E_INVALID_ARG, "window l = " + std::to_string(c.window_l) + " is outside [1, " +
                                  std::to_string(kMaxWindowSlices) + " - k]");
  if (c.window_generation < 1) fail(BLOOM_E_INVALID_ARG, "window generation size g is 0");
  const uint64_t m = c.window_slice_bits;
  if (m < 64 || m % 64 != 0)
    fail(BLOOM_E_INVALID_ARG,
         "window slice size m = " + std::to_string(m) + " is not a positive multiple of 64");
  const uint64_t slices = c.hashes + c.window_l;
  if (m > BLOOM_MAX_BITS / slices || m * slices != c.bits)
    fail(BLOOM_E_INVALID_ARG, "window bits m = " + std::to_string(c.bits) + " is not " +
                                  std::to_string(slices) + " slices of " + std::to_string(m) + " bits");
}

}  // namespace

void validate_config(const FilterConfig &c) {
  if (c.split_block() && c.kind != Kind::kBlocked)
    fail(BLOOM_E_INVALID_ARG, "BLOOM_FLAG_SPLIT_BLOCK applies to blocked filters only");
  if (c.bits < 1 || c.bits > BLOOM_MAX_BITS)
    fail(BLOOM_E_OVERFLOW, "bit count m = " + std::to_string(c.bits) + " is outside [1, 2^40]");
  if (c.hashes < 1 || c.hashes > BLOOM_MAX_HASHES)
    fail(BLOOM_E_INVALID_ARG, "hash count k = " + std::to_string(c.hashes) + " is outside [1, 64]");
  switch (c.kind) {
    case Kind::kClassic:
      if (c.counter_bits != 0 || c.growth != 0 || c.tightening != 0)
        fail(BLOOM_E_INVALID_ARG, "classic filters take no counter, growth or tightening parameters");
      return;
    case Kind::kCounting:
      if (c.counter_bits != 4 && c.counter_bits != 8)
        fail(BLOOM_E_INVALID_ARG, "counter_bits = " + std::to_string(c.counter_bits) + " is not 4 or 8");
      if (c.growth != 0 || c.tightening != 0)
        fail(BLOOM_E_INVALID_ARG, "counting filters take no growth or tightening parameters");
      return;
    case Kind::kScalable:
      validate_scalable_config(c);
      return;
    case Kind::kPartitioned:
      if (c.counter_bits != 0 || c.growth != 0 || c.tightening != 0)
        fail(BLOOM_E_INVALID_ARG, "partitioned filters take no counter, growth or tightening parameters");
      if (c.bits < c.hashes)
        fail(BLOOM_E_INVALID_ARG, "partitioned filters need m >= k (one bit per slice); m = " +
                                      std::to_string(c.bits) + ", k = " + std::to_string(c.hashes));
      return;
    case Kind::kBlocked:
      if (c.counter_bits != 0 || c.growth != 0 || c.tightening != 0)
        fail(BLOOM_E_INVALID_ARG, "blocked filters take no counter, growth or tightening parameters");
      if (c.split_block()) {
        // Split blocks (split_block.hpp): 256-bit blocks, one bit per word.
        if (c.bits % split_block::kBlockBits != 0)
          fail(BLOOM_E_INVALID_ARG,
               "split-block filters need m to be a multiple of 256; m = " + std::to_string(c.bits));
        if (c.hashes != split_block::kProbes)
          fail(BLOOM_E_INVALID_ARG,
               "split-block filters have k = 8 (one bit per 32-bit word); k = " + std::to_string(c.hashes));
      } else if (c.bits % blocked::kLineBits != 0) {
        fail(BLOOM_E_INVALID_ARG,
             "blocked filters need m to be a multiple of 512; m = " + std::to_string(c.bits));
      }
      if (!c.enhanced_probes())
        fail(BLOOM_E_INVALID_ARG, "BLOOM_FLAG_PLAIN_DOUBLE_HASHING does not apply to blocked filters");
      return;
    case Kind::kWindow:
      validate_window_config(c);
      return;
    default:
      unsupported_kind(c.kind);
  }
}

std::unique_ptr<Filter> create_filter(const FilterConfig &c) {
  switch (c.kind) {
    case Kind::kClassic:
      return std::make_unique<ClassicFilter>(c);
    case Kind::kCounting:
      return std::make_unique<CountingFilter>(c);
    case Kind::kScalable:
      return std::make_unique<ScalableFilter>(c);
    case Kind::kPartitioned:
      return std::make_unique<PartitionedFilter>(c);
    case Kind::kBlocked:
      return std::make_unique<BlockedFilter>(c);
    case Kind::kWindow:
      return std::make_unique<WindowFilter>(c);
    default:
      unsupported_kind(c.kind);
  }
}

std::unique_ptr<Filter> load_filter(const Header &h, ByteSource &src, bool zero_copy) {
  // The window's shape is in its payload's descriptor, which it validates.
  if (h.config.kind == Kind::kWindow) return WindowFilter::load(h, src, zero_copy);
  try {
    validate_config(h.config);
  } catch (const Error &e) {
    if (e.status() == BLOOM_E_UNSUPPORTED) throw;
    fail(BLOOM_E_FORMAT, std::string("header describes an invalid filter: ") + e.what());
  }
  switch (h.config.kind) {
    case Kind::kClassic:
      require_single_array(h, ClassicFilter::payload_size_for(h.config.bits));
      return ClassicFilter::load(h.config, src, zero_copy);
    case Kind::kPartitioned:
      require_single_array(h, PartitionedFilter::payload_size_for(h.config.bits));
      return PartitionedFilter::load(h.config, src, zero_copy);
    case Kind::kBlocked:
      require_single_array(h, BlockedFilter::payload_size_for(h.config.bits));
      return BlockedFilter::load(h.config, src, zero_copy);
    case Kind::kCounting:
      require_single_array(h, CountingFilter::payload_size_for(h.config.bits, h.config.counter_bits));
      return CountingFilter::load(h.config, src, zero_copy);
    case Kind::kScalable:
      return ScalableFilter::load(h, src, zero_copy);
    default:
      unsupported_kind(h.config.kind);
  }
}

}  // namespace bloom::core
