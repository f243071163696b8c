// SPDX-License-Identifier: Apache-2.0
#include "kinds/redisbloom_sizing.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "bloom/bloom.h"
#include "error.hpp"

namespace bloom::core {

namespace {
// RedisBloom's constants (deps/bloom): ln(2) and ln(2)^2 to 15 digits.
constexpr double kLn2 = 0.693147180559945;
constexpr double kLn2Squared = 0.480453013918201;

// A rate as people write it: std::to_string prints 3.5e-20 as 0.000000.
std::string shortest(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", d);
  return buf;
}
}  // namespace

RedisBloomShape redisbloom_shape(uint64_t entries, double error) {
  if (entries < 1 || !(error > 0.0 && error < 1.0))
    fail(Status::kInvalidArg, "a RedisBloom filter needs capacity >= 1 and 0 < error < 1");
  RedisBloomShape s;
  s.bits_per_key = std::fabs(std::log(error) / kLn2Squared);
  const double raw = static_cast<double>(entries) * s.bits_per_key;
  if (!(raw < static_cast<double>(BLOOM_MAX_BITS)))
    fail(Status::kOverflow, "a RedisBloom filter of " + std::to_string(entries) + " keys at " +
                                std::to_string(error) + " would exceed 2^40 bits");
  uint64_t bits = static_cast<uint64_t>(raw);
  if (bits == 0) bits = 1;
  s.bits = (bits + 63) / 64 * 64;
  const double k = std::ceil(kLn2 * s.bits_per_key);
  if (!(k >= 1.0 && k <= BLOOM_MAX_HASHES))
    fail(Status::kOverflow, "a RedisBloom filter at error " + shortest(error) + " needs " +
                                std::to_string(static_cast<long long>(k)) + " hashes, more than 64");
  s.hashes = static_cast<uint32_t>(k);
  return s;
}

StageShape redisbloom_stage_shape(uint64_t capacity, double fp_rate, double growth, uint32_t index) {
  // RedisBloom multiplies the previous stage's capacity by the integer
  // growth; the product is exact in integers, so compute it so.
  const auto g = static_cast<uint64_t>(growth);
  uint64_t cap = capacity;
  for (uint32_t i = 0; i < index; ++i) {
    if (g != 0 && cap > UINT64_C(9000000000000000000) / g)
      fail(Status::kOverflow, "scalable stage " + std::to_string(index) + " capacity overflows");
    cap *= g;
  }
  StageShape s;
  s.capacity = cap;
  s.fp_rate = std::ldexp(fp_rate, -static_cast<int>(index) - 1);
  if (!(s.fp_rate >= 1e-300))
    fail(Status::kOverflow, "scalable stage " + std::to_string(index) + " error rate underflows");
  const RedisBloomShape r = redisbloom_shape(s.capacity, s.fp_rate);
  s.bits = r.bits;
  s.hashes = r.hashes;
  return s;
}

}  // namespace bloom::core
