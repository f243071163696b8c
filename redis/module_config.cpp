// SPDX-License-Identifier: Apache-2.0
#include "module_config.hpp"

#include <cstdio>
#include <cstring>

#include "filter_params.hpp"

namespace bloom_redis {

namespace {

// RedisBloom's name, and the name under the module's prefix on Redis 7.
struct ConfigName {
  const char *unprefixed;
  const char *prefixed;       // registered name; Redis shows it as "bf.<name>"
  const char *full_prefixed;  // what CONFIG GET shows on Redis 7
};

const ConfigName kErrorRate = {"bf-error-rate", "error-rate", "bf.error-rate"};
const ConfigName kInitialSize = {"bf-initial-size", "initial-size", "bf.initial-size"};
const ConfigName kExpansion = {"bf-expansion-factor", "expansion-factor", "bf.expansion-factor"};
const ConfigName kMaxBytes = {"bf-max-filter-bytes", "max-filter-bytes", "bf.max-filter-bytes"};
const ConfigName kEncoding = {"bf-encoding", "encoding", "bf.encoding"};
const ConfigName *const kNames[] = {&kErrorRate, &kInitialSize, &kExpansion, &kMaxBytes, &kEncoding};

// The module keeps the string its getter returns (Redis does not free it):
// one string, replaced when the rate changes.
RedisModuleString *g_error_rate_string = nullptr;

void refresh_error_rate_string() {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", config().defaults.error_rate);
  if (g_error_rate_string != nullptr) RedisModule_FreeString(nullptr, g_error_rate_string);
  g_error_rate_string = RedisModule_CreateString(nullptr, buf, std::strlen(buf));
}

RedisModuleString *get_error_rate(const char *, void *) {
  if (g_error_rate_string == nullptr) refresh_error_rate_string();
  return g_error_rate_string;
}

// New defaults, if filters can be made with them (check_defaults).
int set_defaults(const FilterParams &p, RedisModuleString **err) {
  std::string why;
  if (!check_defaults(p, &why)) {
    *err = RedisModule_CreateString(nullptr, why.data(), why.size());
    return REDISMODULE_ERR;
  }
  config().defaults = p;
  return REDISMODULE_OK;
}

int set_error_rate(const char *, RedisModuleString *val, void *, RedisModuleString **err) {
  double d = 0;
  if (RedisModule_StringToDouble(val, &d) != REDISMODULE_OK || !(d > 0.0 && d < 1.0)) {
    const char *msg = "error rate must be in the range (0, 1)";
    *err = RedisModule_CreateString(nullptr, msg, std::strlen(msg));
    return REDISMODULE_ERR;
  }
  FilterParams p = config().defaults;
  // RedisBloom: any value above 0.25 is taken as 0.25.
  p.error_rate = d > 0.25 ? 0.25 : d;
  if (set_defaults(p, err) != REDISMODULE_OK) return REDISMODULE_ERR;
  refresh_error_rate_string();
  return REDISMODULE_OK;
}

// The encoding's name, as two strings the module keeps (Redis does not free
// what a getter returns).
RedisModuleString *g_encoding_names[2] = {nullptr, nullptr};

RedisModuleString *get_encoding(const char *, void *) {
  const int i = config().redisbloom_encoding ? 1 : 0;
  if (g_encoding_names[i] == nullptr) {
    const char *name = i == 1 ? "redisbloom" : "bloom";
    g_encoding_names[i] = RedisModule_CreateString(nullptr, name, std::strlen(name));
  }
  return g_encoding_names[i];
}

int set_encoding(const char *, RedisModuleString *val, void *, RedisModuleString **err) {
  if (!parse_encoding(val, &config().redisbloom_encoding)) {
    const char *msg = "bf-encoding must be bloom or redisbloom";
    *err = RedisModule_CreateString(nullptr, msg, std::strlen(msg));
    return REDISMODULE_ERR;
  }
  return REDISMODULE_OK;
}

long long get_numeric(const char *name, void *) {
  const ModuleConfig &c = config();
  if (std::strstr(name, "initial-size") != nullptr) return static_cast<long long>(c.defaults.capacity);
  if (std::strstr(name, "expansion") != nullptr) return c.defaults.expansion;
  return static_cast<long long>(c.max_filter_bytes);
}

// Redis checks the range registered below before calling this.
int set_numeric(const char *name, long long val, void *, RedisModuleString **err) {
  ModuleConfig &c = config();
  FilterParams p = c.defaults;
  if (std::strstr(name, "initial-size") != nullptr)
    p.capacity = static_cast<uint64_t>(val);
  else if (std::strstr(name, "expansion") != nullptr)
    p.expansion = static_cast<uint32_t>(val);
  else {
    c.max_filter_bytes = static_cast<uint64_t>(val);
    return REDISMODULE_OK;
  }
  return set_defaults(p, err);
}

int register_all(RedisModuleCtx *ctx, bool prefixed) {
  const unsigned flags =
      prefixed ? REDISMODULE_CONFIG_DEFAULT : static_cast<unsigned>(REDISMODULE_CONFIG_UNPREFIXED);
  auto name = [&](const ConfigName &n) { return prefixed ? n.prefixed : n.unprefixed; };
  const ModuleConfig &c = config();
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.15g", c.defaults.error_rate);
  if (RedisModule_RegisterStringConfig(ctx, name(kErrorRate), rate, flags, get_error_rate, set_error_rate,
                                       nullptr, nullptr) != REDISMODULE_OK ||
      RedisModule_RegisterStringConfig(ctx, name(kEncoding), c.redisbloom_encoding ? "redisbloom" : "bloom",
                                       flags, get_encoding, set_encoding, nullptr, nullptr) != REDISMODULE_OK)
    return REDISMODULE_ERR;
  if (RedisModule_RegisterNumericConfig(ctx, name(kInitialSize), static_cast<long long>(c.defaults.capacity),
                                        flags, 1, kMaxCapacity, get_numeric, set_numeric, nullptr,
                                        nullptr) != REDISMODULE_OK ||
      RedisModule_RegisterNumericConfig(ctx, name(kExpansion), c.defaults.expansion, flags, 0, kMaxExpansion,
                                        get_numeric, set_numeric, nullptr, nullptr) != REDISMODULE_OK ||
      // 0: no limit but maxmemory (and bloom's 2^40 bits a filter).
      RedisModule_RegisterNumericConfig(ctx, name(kMaxBytes), static_cast<long long>(c.max_filter_bytes),
                                        flags, 0, 1LL << 62, get_numeric, set_numeric, nullptr,
                                        nullptr) != REDISMODULE_OK)
    return REDISMODULE_ERR;
  return REDISMODULE_OK;
}

bool equals_nocase(const RedisModuleString *arg, const char *word) { return arg_is(arg, word); }

// CONFIG GET|SET with RedisBloom's names, on Redis 7: the names are
// rewritten to the prefixed ones before Redis looks the command up.
void config_name_filter(RedisModuleCommandFilterCtx *f) {
  const int argc = RedisModule_CommandFilterArgsCount(f);
  if (argc < 3) return;
  size_t len = 0;
  const char *cmd = RedisModule_StringPtrLen(RedisModule_CommandFilterArgGet(f, 0), &len);
  if (len != 6 || (cmd[0] | 0x20) != 'c' || !equals_nocase(RedisModule_CommandFilterArgGet(f, 0), "config"))
    return;
  const RedisModuleString *sub = RedisModule_CommandFilterArgGet(f, 1);
  const bool set = equals_nocase(sub, "set");
  if (!set && !equals_nocase(sub, "get")) return;
  for (int i = 2; i < argc; i += set ? 2 : 1) {
    const RedisModuleString *a = RedisModule_CommandFilterArgGet(f, i);
    for (const ConfigName *n : kNames)
      if (equals_nocase(a, n->unprefixed)) {
        RedisModule_CommandFilterArgReplace(
            f, i, RedisModule_CreateString(nullptr, n->full_prefixed, std::strlen(n->full_prefixed)));
        break;
      }
  }
}

}  // namespace

int register_module_config(RedisModuleCtx *ctx, std::string *error) {
  if (RedisModule_RegisterStringConfig == nullptr || RedisModule_RegisterNumericConfig == nullptr ||
      RedisModule_LoadConfigs == nullptr)
    return REDISMODULE_OK;
  // Redis 7 refuses the unprefixed flag (before registering anything).
  if (register_all(ctx, false) != REDISMODULE_OK) {
    if (register_all(ctx, true) != REDISMODULE_OK) {
      *error = "cannot register the module's configs";
      return REDISMODULE_ERR;
    }
    if (RedisModule_RegisterCommandFilter != nullptr &&
        RedisModule_RegisterCommandFilter(ctx, config_name_filter, 0) == nullptr) {
      *error = "cannot register the CONFIG name filter";
      return REDISMODULE_ERR;
    }
  }
  if (RedisModule_LoadConfigs(ctx) != REDISMODULE_OK) {
    *error = "cannot load the module's configs";
    return REDISMODULE_ERR;
  }
  return REDISMODULE_OK;
}

}  // namespace bloom_redis
