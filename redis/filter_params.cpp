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
  if (RedisModule_StringToDouble(arg, &d) != REDISMODULE_OK) {
    *error = "ERR bad error rate";
    return false;
  }
  if (!(d > 0.0 && d < 1.0)) {
    *error = "ERR error rate must be in the range (0.000000, 1.000000)";
    return false;
  }
  *out = d;
  return true;
}

bool parse_capacity(const RedisModuleString *arg, uint64_t *out, std::string *error) {
  long long n = 0;
  if (RedisModule_StringToLongLong(arg, &n) != REDISMODULE_OK) {
    *error = "ERR bad capacity";
    return false;
  }
  if (n < 1 || n > kMaxCapacity) {
    *error = "ERR capacity must be in the range [1, 1073741824]";
    return false;
  }
  *out = static_cast<uint64_t>(n);
  return true;
}

bool parse_expansion(const RedisModuleString *arg, uint32_t *out, std::string *error) {
  long long n = 0;
  if (RedisModule_StringToLongLong(arg, &n) != REDISMODULE_OK) {
    *error = "ERR bad expansion";
    return false;
  }
  // 0 means a filter that does not grow (RedisBloom: like NONSCALING).
  if (n < 0 || n > kMaxExpansion) {
    *error = "ERR expansion must be in the range [0, 32768]";
    return false;
  }
  *out = static_cast<uint32_t>(n);
  return true;
}

bool parse_encoding(const RedisModuleString *arg, bool *redisbloom) {
  if (arg_is(arg, "bloom"))
    *redisbloom = false;
  else if (arg_is(arg, "redisbloom"))
    *redisbloom = true;
  else
    return false;
  return true;
}

bool parse_insert_error_rate(const RedisModuleString *arg, double *out) {
  double d = 0;
  if (RedisModule_StringToDouble(arg, &d) != REDISMODULE_OK || !(d > 0.0 && d < 1.0)) return false;
  *out = d;
  return true;
}

bool parse_insert_capacity(const RedisModuleString *arg, uint64_t *out) {
  long long n = 0;
  if (RedisModule_StringToLongLong(arg, &n) != REDISMODULE_OK || n < 1 || n > kMaxCapacity) return false;
  *out = static_cast<uint64_t>(n);
  return true;
}

bool parse_insert_expansion(const RedisModuleString *arg, uint32_t *out) {
  long long n = 0;
  if (RedisModule_StringToLongLong(arg, &n) != REDISMODULE_OK || n < 0 || n > kMaxExpansion) return false;
  *out = static_cast<uint32_t>(n);
  return true;
}

namespace {
std::string too_large(const FilterParams &p, uint64_t max_bytes) {
  char rate[32];
  std::snprintf(rate, sizeof rate, "%g", p.error_rate);
  if (max_bytes == 0)
    return "ERR filter too large: capacity " + std::to_string(p.capacity) + " at error rate " + rate +
           " needs more than 2^40 bits";
  return "ERR filter too large: capacity " + std::to_string(p.capacity) + " at error rate " + rate +
         " needs more than the " + std::to_string(max_bytes) +
         "-byte limit (config bf-max-filter-bytes, module argument MAX_FILTER_BYTES)";
}
}  // namespace

bloom_filter *create_filter(const FilterParams &p, uint64_t max_bytes, std::string *error) {
  // The classic formula's size is a lower bound for every kind: a request
  // clearly over the limit is refused before anything is allocated.
  uint64_t bits = 0;
  uint32_t hashes = 0;
  bloom_status st = bloom_optimal_params(p.capacity, p.error_rate, &bits, &hashes);
  if (st == BLOOM_OK && max_bytes != 0 && bits / 8 > max_bytes) st = BLOOM_E_OVERFLOW;
  if (st == BLOOM_E_OVERFLOW) {
    *error = too_large(p, max_bytes);
    return nullptr;
  }
  if (st != BLOOM_OK) {
    *error = "ERR " + bloom_error("bad filter parameters", st);
    return nullptr;
  }
  const bool nonscaling = p.nonscaling || p.expansion == 0;
  bloom_options o;
  bloom_options_init(&o);
  o.kind = nonscaling ? BLOOM_KIND_CLASSIC : BLOOM_KIND_SCALABLE;
  // In RedisBloom's encoding, RedisBloom's hash and sizing
  // (kinds/redisbloom_sizing.hpp): the filter answers, grows and sizes its
  // stages exactly as RedisBloom's of the same reservation.
  if (config().redisbloom_encoding) o.hash = BLOOM_HASH_REDISBLOOM;
  o.capacity = p.capacity;
  o.fp_rate = p.error_rate;
  if (!nonscaling) {
    o.growth = static_cast<double>(p.expansion);
    o.tightening = kTightening;
  }
  bloom_filter *f = nullptr;
  st = bloom_create(&o, &f);
  if (st != BLOOM_OK) {
    *error = "ERR " + bloom_error("cannot create the filter", st);
    return nullptr;
  }
  // The filter as built must fit, as add_item measures it: a scalable
  // filter's first stage is sized for half the rate (1.1-1.15x the classic
  // size), and one created over the limit would refuse every add.
  size_t size = 0;
  if (bloom_serialized_size(f, &size) != BLOOM_OK ||
      (max_bytes != 0 && (nonscaling ? size > max_bytes : size >= max_bytes))) {
    bloom_destroy(f);
    *error = too_large(p, max_bytes);
    return nullptr;
  }
  return f;
}

bool check_defaults(const FilterParams &p, std::string *error) {
  if (!(p.error_rate > 0.0 && p.error_rate < 1.0)) {
    *error = "error rate must be in the range (0, 1)";
    return false;
  }
  uint64_t bits = 0;
  uint32_t hashes = 0;
  bloom_status st = bloom_optimal_params(p.capacity, p.error_rate, &bits, &hashes);
  if (st == BLOOM_OK) {
    FilterParams tiny = p;
    tiny.capacity = 1;
    bloom_filter *f = create_filter(tiny, 0, error);
    bloom_destroy(f);
    if (f != nullptr) return true;
  } else {
    *error = bloom_error("", st);
  }
  char rate[32];
  std::snprintf(rate, sizeof rate, "%g", p.error_rate);
  *error = "no filter of " + std::to_string(p.capacity) + " items at error rate " + rate + " can be made (" +
           (error->rfind("ERR ", 0) == 0 ? error->substr(4) : *error) + ")";
  return false;
}

namespace {

// Argument names: RedisBloom's (before 8.0), their Redis 8 config names,
// and bloom's own. Compared without case.
bool name_is(const RedisModuleString *arg, const char *a, const char *b) {
  return arg_is(arg, a) || arg_is(arg, b);
}

// RedisBloom's cuckoo-filter settings: this module has no cuckoo filters,
// but a loadmodule line written for RedisBloom must still load.
bool is_ignored_argument(const RedisModuleString *arg) {
  size_t len = 0;
  const char *s = RedisModule_StringPtrLen(arg, &len);
  return arg_is(arg, "CF_MAX_EXPANSIONS") ||
         (len > 3 && (s[0] | 0x20) == 'c' && (s[1] | 0x20) == 'f' && s[2] == '-');
}

}  // namespace

bool apply_module_args(RedisModuleString **argv, int argc, std::string *error) {
  ModuleConfig &c = config();
  for (int i = 0; i < argc; i += 2) {
    if (i + 1 >= argc) {
      *error = "module argument without a value";
      return false;
    }
    bool ok = true;
    uint32_t e = 0;
    if (name_is(argv[i], "ERROR_RATE", "bf-error-rate")) {
      ok = parse_error_rate(argv[i + 1], &c.defaults.error_rate, error);
    } else if (name_is(argv[i], "INITIAL_SIZE", "bf-initial-size")) {
      ok = parse_capacity(argv[i + 1], &c.defaults.capacity, error);
    } else if (name_is(argv[i], "EXPANSION", "bf-expansion-factor")) {
      ok = parse_expansion(argv[i + 1], &e, error);
      if (ok) c.defaults.expansion = e;
    } else if (name_is(argv[i], "MAX_FILTER_BYTES", "bf-max-filter-bytes")) {
      long long v = 0;
      ok = RedisModule_StringToLongLong(argv[i + 1], &v) == REDISMODULE_OK && v >= 0;
      if (ok) c.max_filter_bytes = static_cast<uint64_t>(v);
      if (!ok) *error = "MAX_FILTER_BYTES must be an integer >= 0 (0: no limit)";
    } else if (arg_is(argv[i], "DUMP_CHUNK_BYTES")) {
      // The first chunk must hold the header's size fields (80 bytes).
      long long v = 0;
      ok = RedisModule_StringToLongLong(argv[i + 1], &v) == REDISMODULE_OK && v >= 128;
      if (ok) c.dump_chunk_bytes = static_cast<uint64_t>(v);
      if (!ok) *error = "DUMP_CHUNK_BYTES must be an integer >= 128";
    } else if (name_is(argv[i], "ENCODING", "bf-encoding")) {
      ok = parse_encoding(argv[i + 1], &c.redisbloom_encoding);
      if (!ok) *error = "bf-encoding must be bloom or redisbloom";
    } else if (is_ignored_argument(argv[i])) {
      // accepted, no effect
    } else {
      size_t len = 0;
      const char *s = RedisModule_StringPtrLen(argv[i], &len);
      *error = "unknown module argument '" + std::string(s, len) + "'";
      return false;
    }
    if (!ok) return false;
  }
  return check_defaults(c.defaults, error);
}

}  // namespace bloom_redis
