// SPDX-License-Identifier: Apache-2.0
#include "configure.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "error.hpp"
#include "hash/murmur64a.hpp"
#include "kinds/blocked_sizing.hpp"
#include "kinds/redisbloom_sizing.hpp"
#include "kinds/scalable_sizing.hpp"
#include "kinds/window_sizing.hpp"
#include "sizing.hpp"
#include "small_filter_sizing.hpp"

namespace bloom::core {

bloom_options default_options() {
  bloom_options o{};
  o.struct_size = sizeof(bloom_options);
  o.kind = BLOOM_KIND_CLASSIC;
  o.capacity = 1000000;
  o.fp_rate = 0.01;
  o.hash = BLOOM_HASH_XXH3;
  o.seed = 0;
  o.flags = 0;
  o.bits = 0;
  o.hashes = 0;
  o.growth = 2.0;
  o.tightening = 0.85;
  o.counter_bits = 4;
  o.window_ms = 0;
  return o;
}

namespace {

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

// m and k of a single bit array from the options: (n, p) by the formulas
// (exactly, for filters of at most kExactSizingMaxBits: small_filter_sizing.hpp),
// or the explicit m with an explicit or optimal k.
void size_bit_array(const bloom_options &o, FilterConfig &c) {
  if (o.hashes > BLOOM_MAX_HASHES)
    fail(BLOOM_E_INVALID_ARG, "hashes = " + std::to_string(o.hashes) + " exceeds the maximum of 64");
  if (o.bits == 0 && c.modulo_probes()) {
    const RedisBloomShape s = redisbloom_shape(o.capacity, o.fp_rate);
    c.bits = s.bits;
    c.hashes = o.hashes != 0 ? o.hashes : s.hashes;
    c.fp_rate = o.fp_rate;
  } else if (o.bits == 0) {
    const Shape s = fit_small_filter(optimal_shape(o.capacity, o.fp_rate), o.capacity, o.fp_rate, o.hashes,
                                     c.kind == Kind::kPartitioned);
    c.bits = s.bits;
    c.hashes = o.hashes != 0 ? o.hashes : s.hashes;
    c.fp_rate = o.fp_rate;
  } else {
    if (o.bits > BLOOM_MAX_BITS)
      fail(BLOOM_E_OVERFLOW, "bits = " + std::to_string(o.bits) + " exceeds the 2^40 limit");
    if (o.hashes == 0 && o.capacity == 0)
      fail(BLOOM_E_INVALID_ARG, "with explicit bits, give hashes or a capacity to derive them from");
    c.bits = o.bits;
    c.hashes = o.hashes != 0 ? o.hashes : optimal_hashes(o.capacity, o.bits);
    c.fp_rate = 0;
  }
}

// Scalable: every stage is sized from (capacity, fp_rate, growth,
// tightening); m and k in the config are those of stage 0.
void configure_scalable(const bloom_options &o, FilterConfig &c) {
  if (o.bits != 0 || o.hashes != 0)
    fail(BLOOM_E_INVALID_ARG,
         "scalable filters size each stage from capacity and fp_rate; bits and hashes "
         "must be 0");
  if (!(o.growth >= 1.0 && o.growth <= kScalableMaxGrowth))
    fail(BLOOM_E_INVALID_ARG, "growth = " + std::to_string(o.growth) + " must lie in [1, 32768]");
  if (!(o.tightening > 0.0 && o.tightening < 1.0))
    fail(BLOOM_E_INVALID_ARG,
         "tightening = " + std::to_string(o.tightening) + " must lie strictly between 0 and 1");
  c.fp_rate = o.fp_rate;
  c.growth = o.growth;
  c.tightening = o.tightening;
  if (c.modulo_probes()) {
    // RedisBloom's chain: an integral EXPANSION, each stage at half the
    // rate of the one before (redisbloom_sizing.hpp), whatever tightening
    // was asked for.
    if (o.growth != std::floor(o.growth))
      fail(BLOOM_E_INVALID_ARG, "growth = " + std::to_string(o.growth) +
                                    " must be an integer with the redisbloom hash (RedisBloom's EXPANSION)");
    c.tightening = kRedisBloomTightening;
    const StageShape s = redisbloom_stage_shape(o.capacity, o.fp_rate, o.growth, 0);
    c.bits = s.bits;
    c.hashes = s.hashes;
    return;
  }
  const StageShape s = scalable_stage_shape(o.capacity, o.fp_rate, o.growth, o.tightening, 0);
  c.bits = s.bits;
  c.hashes = s.hashes;
}

// Window: the shape follows from (capacity, fp_rate) alone (window_sizing.hpp).
void configure_window(const bloom_options &o, FilterConfig &c) {
  if (o.bits != 0 || o.hashes != 0)
    fail(BLOOM_E_INVALID_ARG,
         "window filters size their slices from capacity (the window W) and fp_rate; bits and hashes must be "
         "0");
  // New windows use the blocked layout (format 1.4, kinds/window_blocked.hpp).
  const WindowShape s = window_blocked_shape(o.capacity, o.fp_rate);
  c.flags |= kFlagWindowBlocked;
  c.fp_rate = o.fp_rate;
  c.hashes = s.k;
  c.window_l = s.l;
  c.window_generation = s.g;
  c.window_slice_bits = s.m;
  c.window_ms = o.window_ms;
  c.bits = s.m * (s.k + s.l);
}

}  // namespace

// Mixed probes (kFlagMixedProbes, probe.hpp) where they matter. Unmixed
// double hashing adds about 4 / (m k) to the false-positive rate
// (simulated: 2.5-3.5 / (m k) from m k = 1.4e3 to 7.7e6), and mixing costs
// about 4 instructions per probe (callgrind, classic at p = 1e-4: 285 -> 347
// per hit, 155 -> 175 per miss). So a filter mixes where that excess could
// reach 1e-3 of the rate it is built for -- below that share the rounding
// of k alone moves the rate more. The rate is taken as 2^-k, the rate of m
// bits and k probes at their best fill, so the choice depends on m and k
// only and two filters of equal m and k always agree (and merge), however
// they were sized: mixed iff m k 2^-k < 4000 (classic 10^5 keys at p = 1e-4:
// 3,042, mixed; 10^6 keys: 30,420, not; 10^6 keys at 1e-6: mixed). Scalable
// stages (tightening rates, a different kind) and window slices (probe j
// of up to 1024, where double hashing's near-cycles add up) always mix.
bool needs_mixed_probes(const FilterConfig &c) {
  if (c.modulo_probes()) return false;         // RedisBloom's positions: classic_modulo.cpp
  if (c.kind == Kind::kBlocked) return false;  // no probe sequence: blocked_line.hpp
  if (c.kind == Kind::kScalable || c.kind == Kind::kWindow) return true;
  return std::ldexp(static_cast<double>(c.bits) * c.hashes, -static_cast<int>(c.hashes)) < 4000;
}

FilterConfig configure(const bloom_options &o) {
  if (!is_valid_kind(o.kind)) fail(BLOOM_E_INVALID_ARG, "unknown kind " + std::to_string(o.kind));
  if (!is_valid_hash_kind(o.hash)) fail(BLOOM_E_INVALID_ARG, "unknown hash " + std::to_string(o.hash));
  if ((o.flags & ~kKnownFlags) != 0)
    fail(BLOOM_E_INVALID_ARG, "unknown flags " + hex32(o.flags & ~kKnownFlags));
  if (o.bits == 0 && o.capacity == 0) fail(BLOOM_E_INVALID_ARG, "capacity must be at least 1");
  if (o.bits == 0 && !(o.fp_rate > 0.0 && o.fp_rate < 1.0))
    fail(BLOOM_E_INVALID_ARG, "fp_rate must lie strictly between 0 and 1");

  FilterConfig c;
  c.kind = static_cast<Kind>(o.kind);
  c.hash = static_cast<HashKind>(o.hash);
  c.seed = o.seed;
  c.flags = o.flags;
  if (c.kind == Kind::kBlocked) c.flags |= kFlagBlockedLayout2;
  if (c.modulo_probes()) {
    // RedisBloom's probes are plain double hashing (recorded as such), and
    // only bit-array kinds of one or more classic arrays have them.
    if (c.kind != Kind::kClassic && c.kind != Kind::kScalable)
      fail(BLOOM_E_INVALID_ARG,
           std::string("the redisbloom hash is defined for classic and scalable filters, not ") +
               bloom_kind_name(o.kind));
    c.flags |= BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
    // Seed 0 (the default) means RedisBloom's fixed seed, so default
    // options give RedisBloom's filter; the file records the seed used.
    if (c.seed == 0) c.seed = kRedisBloomSeed;
  }
  c.capacity = o.capacity;
  switch (c.kind) {
    case Kind::kClassic:
      size_bit_array(o, c);
      break;
    case Kind::kCounting:
      if (o.counter_bits != 4 && o.counter_bits != 8)
        fail(BLOOM_E_INVALID_ARG, "counter_bits = " + std::to_string(o.counter_bits) + " must be 4 or 8");
      size_bit_array(o, c);
      c.counter_bits = o.counter_bits;
      break;
    case Kind::kScalable:
      configure_scalable(o, c);
      break;
    case Kind::kPartitioned:  // classic sizing; slices differ from it by < 0.1% in rate (large m)
      size_bit_array(o, c);
      break;
    case Kind::kBlocked:
      blocked::size_blocked(o, c);
      break;
    case Kind::kWindow:
      configure_window(o, c);
      break;
    default:
      fail(BLOOM_E_UNSUPPORTED,
           std::string("the ") + bloom_kind_name(o.kind) + " kind is not implemented in this version");
  }
  if (needs_mixed_probes(c)) c.flags |= kFlagMixedProbes;
  return c;
}

}  // namespace bloom::core
