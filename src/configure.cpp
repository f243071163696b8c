// SPDX-License-Identifier: Apache-2.0
#include "configure.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "error.hpp"
#include "hash/murmur64a.hpp"
#include "kind_table.hpp"

namespace bloom::core {

namespace {

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
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
  if (c.modulo_probes()) return false;  // RedisBloom\'s positions: ProbeScheme::kModulo
  switch (describe(c.kind).mixed_probes) {
    case MixedProbes::kNever:
      return false;
    case MixedProbes::kAlways:
      return true;
    case MixedProbes::kWhenSmall:
      break;
  }
  return std::ldexp(static_cast<double>(c.bits) * c.hashes, -static_cast<int>(c.hashes)) < 4000;
}

FilterConfig configure(const Options &o) {
  const KindDescriptor *kind = find_kind(o.kind);
  if (kind == nullptr) fail(Status::kInvalidArg, "unknown kind " + std::to_string(o.kind));
  if (!is_valid_hash_kind(o.hash)) fail(Status::kInvalidArg, "unknown hash " + std::to_string(o.hash));
  if ((o.flags & ~kKnownFlags) != 0)
    fail(Status::kInvalidArg, "unknown flags " + hex32(o.flags & ~kKnownFlags));
  if (o.bits == 0 && o.capacity == 0) fail(Status::kInvalidArg, "capacity must be at least 1");
  if (o.bits == 0 && !(o.fp_rate > 0.0 && o.fp_rate < 1.0))
    fail(Status::kInvalidArg, "fp_rate must lie strictly between 0 and 1");

  FilterConfig c;
  c.kind = kind->kind;
  c.hash = static_cast<HashKind>(o.hash);
  c.seed = o.seed;
  c.flags = o.flags;
  if (c.modulo_probes()) {
    // RedisBloom's probes are plain double hashing (recorded as such,
    // ProbeScheme::kModulo), and only the kinds made of classic arrays take
    // them (the row's BLOOM_CAP_REDISBLOOM_HASH).
    if (!kind->can(BLOOM_CAP_REDISBLOOM_HASH))
      fail(Status::kInvalidArg, "the redisbloom hash is defined for " +
                                    kinds_with(BLOOM_CAP_REDISBLOOM_HASH) + " filters, not " + kind->name);
    c.flags |= BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
    // Seed 0 (the default) means RedisBloom's fixed seed, so default
    // options give RedisBloom's filter; the file records the seed used.
    if (c.seed == 0) c.seed = kRedisBloomSeed;
  }
  c.capacity = o.capacity;
  kind->size(o, c);
  if (needs_mixed_probes(c)) c.flags |= kFlagMixedProbes;
  return c;
}

}  // namespace bloom::core
