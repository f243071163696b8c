// SPDX-License-Identifier: Apache-2.0
#include "filter_params.hpp"

#include <cstdio>

#include "filter_value.hpp"

namespace bloom_redis {

ModuleConfig &config() {
  static ModuleConfig c;
  return c;
}

bool arg_is(const RedisModuleString *arg, const char *keyword) {
  size_t len = 0;
  const char *s = RedisModule_StringPtrLen(arg, &len);
  size_t i = 0;
  for (; i < len && keyword[i] != '\0'; ++i)
    if ((s[i] | 0x20) != (keyword[i] | 0x20)) return false;
  return i == len && keyword[i] == '\0';
}

bool parse_error_rate(const RedisModuleString *arg, double *out, std::string *error) {
  double d = 0;
  if (RedisModule_StringToDouble(arg, &d) != REDISMODULE_OK || !(d > 0.0 && d < 1.0)) {
    *error = "ERR bad error rate: must be a number between 0 and 1, both exclusive";
    return false;
  }
  *out = d;
  return true;
}

bool parse_capacity(const RedisModuleString *arg, uint64_t *out, std::string *error) {
  long long n = 0;
  if (RedisModule_StringToLongLong(arg, &n) != REDISMODULE_OK || n < 1) {
    *error = "ERR bad capacity: must be an integer >= 1";
    return false;
  }
  *out = static_cast<uint64_t>(n);
  return true;
}

bool parse_expansion(const RedisModuleString *arg, uint32_t *out, std::string *error) {
  long long n = 0;
  // RedisBloom caps expansion at 32768; a larger stage factor only makes
  // the second stage exceed the size limit at once.
  if (RedisModule_StringToLongLong(arg, &n) != REDISMODULE_OK || n < 1 || n > 32768) {
    *error = "ERR bad expansion: must be an integer between 1 and 32768";
    return false;
  }
  *out = static_cast<uint32_t>(n);
  return true;
}

namespace {
std::string too_large(const FilterParams &p) {
  char rate[32];
  std::snprintf(rate, sizeof rate, "%g", p.error_rate);
  return "ERR filter too large: capacity " + std::to_string(p.capacity) + " at error rate " + rate +
         " needs more than the " + std::to_string(config().max_filter_bytes) +
         "-byte limit (module argument MAX_FILTER_BYTES)";
}
}  // namespace

bloom_filter *create_filter(const FilterParams &p, std::string *error) {
  // The classic formula's size is a lower bound for every kind: a request
  // clearly over the limit is refused before anything is allocated.
  uint64_t bits = 0;
  uint32_t hashes = 0;
  bloom_status st = bloom_optimal_params(p.capacity, p.error_rate, &bits, &hashes);
  if (st == BLOOM_OK && bits / 8 > config().max_filter_bytes) st = BLOOM_E_OVERFLOW;
  if (st == BLOOM_E_OVERFLOW) {
    *error = too_large(p);
    return nullptr;
  }
  if (st != BLOOM_OK) {
    *error = "ERR " + bloom_error("bad filter parameters", st);
    return nullptr;
  }
  bloom_options o;
  bloom_options_init(&o);
  o.kind = p.nonscaling ? BLOOM_KIND_CLASSIC : BLOOM_KIND_SCALABLE;
  o.capacity = p.capacity;
  o.fp_rate = p.error_rate;
  if (!p.nonscaling) o.growth = static_cast<double>(p.expansion);
  bloom_filter *f = nullptr;
  st = bloom_create(&o, &f);
  if (st != BLOOM_OK) {
    *error = "ERR " + bloom_error("cannot create the filter", st);
    return nullptr;
  }
  // The filter as built must fit, as add_item measures it: a scalable
  // filter's first stage is sized for a tighter rate (1.3-1.45x the classic
  // size at the default tightening), and one created over the limit
  // would refuse every add.
  size_t size = 0;
  if (bloom_serialized_size(f, &size) != BLOOM_OK ||
      (p.nonscaling ? size > config().max_filter_bytes : size >= config().max_filter_bytes)) {
    bloom_destroy(f);
    *error = too_large(p);
    return nullptr;
  }
  return f;
}

bool apply_module_args(RedisModuleString **argv, int argc, std::string *error) {
  ModuleConfig &c = config();
  for (int i = 0; i < argc; i += 2) {
    if (i + 1 >= argc) {
      *error = "module argument without a value";
      return false;
    }
    bool ok = true;
    uint64_t n = 0;
    uint32_t e = 0;
    if (arg_is(argv[i], "ERROR_RATE")) {
      ok = parse_error_rate(argv[i + 1], &c.defaults.error_rate, error);
    } else if (arg_is(argv[i], "INITIAL_SIZE")) {
      ok = parse_capacity(argv[i + 1], &c.defaults.capacity, error);
    } else if (arg_is(argv[i], "EXPANSION")) {
      ok = parse_expansion(argv[i + 1], &e, error);
      if (ok) c.defaults.expansion = e;
    } else if (arg_is(argv[i], "MAX_FILTER_BYTES")) {
      ok = parse_capacity(argv[i + 1], &n, error);
      if (ok) c.max_filter_bytes = n;
    } else if (arg_is(argv[i], "DUMP_CHUNK_BYTES")) {
      // The first chunk must hold the header's size fields (80 bytes).
      ok = parse_capacity(argv[i + 1], &n, error) && n >= 128;
      if (ok) c.dump_chunk_bytes = n;
      if (!ok) *error = "DUMP_CHUNK_BYTES must be an integer >= 128";
    } else {
      size_t len = 0;
      const char *s = RedisModule_StringPtrLen(argv[i], &len);
      *error = "unknown module argument '" + std::string(s, len) + "'";
      return false;
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace bloom_redis
