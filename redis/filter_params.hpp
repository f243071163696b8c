// SPDX-License-Identifier: Apache-2.0
// filter_params.hpp -- the parameters of a new filter, their parsing from
// command arguments, and the module-wide defaults.
#pragma once

#include <bloom/bloom.h>

#include <cstdint>
#include <string>

#include "redis_module_api.h"

namespace bloom_redis {

struct FilterParams {
  double error_rate;
  uint64_t capacity;
  uint32_t expansion;  // scalable: capacity factor of each new stage; 0 = NONSCALING
  bool nonscaling;     // true: bloom's classic kind, fixed capacity
};

// RedisBloom's ranges (its bf-initial-size and bf-expansion-factor limits,
// and the BF.RESERVE / BF.INSERT checks that quote them).
inline constexpr long long kMaxCapacity = 1LL << 30;
inline constexpr long long kMaxExpansion = 32768;
// RedisBloom's error tightening: stage i of a scalable filter is sized for
// error_rate * 0.5^(i+1), so the stages' rates sum to error_rate. bloom's
// library default is 0.85 (smaller later stages, a larger first one); the
// module follows RedisBloom so that sizes, BF.INFO and stage rates compare.
inline constexpr double kTightening = 0.5;

// Module-wide settings; module arguments may change them at load time.
struct ModuleConfig {
  // What BF.ADD / BF.MADD / BF.INSERT use when they create a filter, as
  // RedisBloom's defaults: 1% errors, 100 keys, doubling stages.
  FilterParams defaults{0.01, 100, 2, false};  // bf-error-rate, bf-initial-size, bf-expansion-factor
  // The largest filter, in bytes of its serialized image; 0 (the default,
  // as RedisBloom has no such limit): none but bloom's 2^40 bits. Filters
  // are in Redis's memory accounting, so maxmemory limits them either way;
  // set, this refuses a larger filter before anything is allocated, and a
  // scalable filter whose next stage would cross it takes no new items.
  uint64_t max_filter_bytes = 0;
  // bf-encoding redisbloom: new filters are RedisBloom's (its hash, sizing
  // and data type "MBbloom--"), so DUMP, RDB and BF.SCANDUMP move them to
  // RedisBloom and back. false (bf-encoding bloom, the default): bloom's
  // own type "bloomfltr" and hash.
  bool redisbloom_encoding = false;
  // BF.SCANDUMP chunk size: 1 MiB keeps each reply small against
  // proto-max-bulk-len (512 MiB) and client buffers.
  uint64_t dump_chunk_bytes = uint64_t{1} << 20;
};

ModuleConfig &config();

// Parsers with BF.RESERVE's error replies (RedisBloom's texts: one for a
// value that is not a number, one for a number out of range). Return true,
// or false with *error set to the Redis error reply.
bool parse_error_rate(const RedisModuleString *arg, double *out, std::string *error);
bool parse_capacity(const RedisModuleString *arg, uint64_t *out, std::string *error);
bool parse_expansion(const RedisModuleString *arg, uint32_t *out, std::string *error);

// bf-encoding: "bloom" (false) or "redisbloom" (true), without case.
bool parse_encoding(const RedisModuleString *arg, bool *redisbloom);

// BF.INSERT's: RedisBloom answers "Bad error rate", "Bad capacity" and "Bad
// expansion" (no ERR prefix) for both kinds of mistake.
bool parse_insert_error_rate(const RedisModuleString *arg, double *out);
bool parse_insert_capacity(const RedisModuleString *arg, uint64_t *out);
bool parse_insert_expansion(const RedisModuleString *arg, uint32_t *out);

// Case-insensitive comparison of an argument with a keyword.
bool arg_is(const RedisModuleString *arg, const char *keyword);

// Creates an empty filter: bloom's scalable kind, or classic for NONSCALING.
// Checks the initial size against max_bytes first (0: no limit but bloom's
// 2^40 bits). Returns NULL with *error set to a Redis error reply.
bloom_filter *create_filter(const FilterParams &p, uint64_t max_bytes, std::string *error);

// Whether BF.ADD / BF.MADD / BF.INSERT can create filters with these
// defaults: a filter of their rate and expansion is built (at capacity 1,
// so nothing large is allocated) and their capacity at that rate must fit
// bloom's 2^40 bits. Module arguments and CONFIG SET refuse defaults that
// fail it, rather than let every auto-creating add fail afterwards (an
// error rate of 1e-300 leaves a scalable filter's first stage no rate).
// Returns false with *error set to the reason.
bool check_defaults(const FilterParams &p, std::string *error);

// Applies module arguments (`name value` pairs): RedisBloom's ERROR_RATE,
// INITIAL_SIZE, EXPANSION and their Redis 8 names bf-error-rate,
// bf-initial-size, bf-expansion-factor; bloom's MAX_FILTER_BYTES (or
// bf-max-filter-bytes), ENCODING (or bf-encoding) and DUMP_CHUNK_BYTES; RedisBloom's cuckoo-filter
// arguments (CF_MAX_EXPANSIONS, cf-*) are accepted and ignored, so a
// RedisBloom loadmodule line works. Returns false with *error set.
bool apply_module_args(RedisModuleString **argv, int argc, std::string *error);

}  // namespace bloom_redis
