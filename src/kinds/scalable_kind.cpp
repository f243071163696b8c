// SPDX-License-Identifier: Apache-2.0
// The scalable kind's row of the kind table (kind_table.hpp): every stage
// is sized from (capacity, fp_rate, growth, tightening); m and k in the
// configuration are those of stage 0.
#include <cmath>
#include <string>

#include "error.hpp"
#include "kind_table.hpp"
#include "kinds/kind_support.hpp"
#include "kinds/redisbloom_sizing.hpp"
#include "kinds/scalable.hpp"
#include "kinds/scalable_sizing.hpp"

namespace bloom::core {

namespace {

void validate_growth(double growth, double tightening) {
  if (!(growth >= 1.0 && growth <= kScalableMaxGrowth))
    fail(Status::kInvalidArg, "growth = " + std::to_string(growth) + " must lie in [1, 32768]");
  if (!(tightening > 0.0 && tightening < 1.0))
    fail(Status::kInvalidArg,
         "tightening = " + std::to_string(tightening) + " must lie strictly between 0 and 1");
}

void validate_scalable(const FilterConfig &c) {
  if (c.concurrent())
    fail(Status::kUnsupported,
         "scalable filters do not support BLOOM_FLAG_CONCURRENT: appending a stage changes the chain under "
         "other threads; serialise adds with your own lock");
  if (c.counter_bits != 0) fail(Status::kInvalidArg, "scalable filters take no counter_bits");
  if (c.capacity < 1) fail(Status::kInvalidArg, "scalable filters need a first-stage capacity of at least 1");
  if (!(c.fp_rate > 0.0 && c.fp_rate < 1.0))
    fail(Status::kInvalidArg, "scalable filters need an fp_rate strictly between 0 and 1");
  validate_growth(c.growth, c.tightening);
  if (c.modulo_probes() && (c.tightening != kRedisBloomTightening || c.growth != std::floor(c.growth)))
    fail(Status::kInvalidArg,
         "a scalable filter of the redisbloom hash needs tightening 0.5 and an integral growth");
}

void size_scalable(const Options &o, FilterConfig &c) {
  if (o.bits != 0 || o.hashes != 0)
    fail(Status::kInvalidArg,
         "scalable filters size each stage from capacity and fp_rate; bits and hashes must be 0");
  validate_growth(o.growth, o.tightening);
  c.fp_rate = o.fp_rate;
  c.growth = o.growth;
  c.tightening = o.tightening;
  if (c.modulo_probes()) {
    // RedisBloom's chain: an integral EXPANSION, each stage at half the
    // rate of the one before (redisbloom_sizing.hpp), whatever tightening
    // was asked for.
    if (o.growth != std::floor(o.growth))
      fail(Status::kInvalidArg, "growth = " + std::to_string(o.growth) +
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

std::unique_ptr<Filter> load_scalable(const Header &h, ByteSource &src, bool zero_copy) {
  validate_loaded(h);
  return ScalableFilter::load(h, src, zero_copy);
}

}  // namespace

extern const KindDescriptor kScalableKind{
    .kind = Kind::kScalable,
    .name = "scalable",
    .file_flags = kFlagMixedProbes,
    .format_minor = 0,
    .adds_only_set_bits = false,
    .caps = BLOOM_CAP_MERGE | BLOOM_CAP_INTERSECT | BLOOM_CAP_GROWS | BLOOM_CAP_REDISBLOOM_HASH,
    .mixed_probes = MixedProbes::kAlways,
    .size = &size_scalable,
    .validate = &validate_scalable,
    .create = &create_filter_of<ScalableFilter>,
    .load = &load_scalable};

}  // namespace bloom::core
