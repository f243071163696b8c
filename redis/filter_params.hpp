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
  uint32_t expansion;  // scalable: capacity factor of each new stage
  bool nonscaling;     // true: bloom's classic kind, fixed capacity
};

// Module-wide settings; module arguments may change them at load time.
struct ModuleConfig {
  // What BF.ADD / BF.MADD / BF.INSERT use when they create a filter, as
  // RedisBloom's defaults: 1% errors, 100 keys, doubling stages.
  FilterParams defaults{0.01, 100, 2, false};
  // The largest filter: a new filter must fit in it, and a scalable filter
  // whose arrays reach it takes no new items. Filters live outside Redis's
  // allocator, so maxmemory cannot stop a BF.RESERVE of 10^12 keys or a
  // filter growing without end; this does. 1 GiB holds ~900 million keys at 1%.
  uint64_t max_filter_bytes = uint64_t{1} << 30;
  // BF.SCANDUMP chunk size: 1 MiB keeps each reply small against
  // proto-max-bulk-len (512 MiB) and client buffers.
  uint64_t dump_chunk_bytes = uint64_t{1} << 20;
};

ModuleConfig &config();

// Parsers: return true, or false with *error set to a Redis error reply.
bool parse_error_rate(const RedisModuleString *arg, double *out, std::string *error);
bool parse_capacity(const RedisModuleString *arg, uint64_t *out, std::string *error);
bool parse_expansion(const RedisModuleString *arg, uint32_t *out, std::string *error);

// Case-insensitive comparison of an argument with a keyword.
bool arg_is(const RedisModuleString *arg, const char *keyword);

// Creates an empty filter: bloom's scalable kind, or classic for NONSCALING.
// Checks the initial size against max_filter_bytes first. Returns NULL with
// *error set to a Redis error reply.
bloom_filter *create_filter(const FilterParams &p, std::string *error);

// Applies module arguments (ERROR_RATE r, INITIAL_SIZE n, EXPANSION n,
// MAX_FILTER_BYTES n, DUMP_CHUNK_BYTES n). Returns false with *error set.
bool apply_module_args(RedisModuleString **argv, int argc, std::string *error);

}  // namespace bloom_redis
