// SPDX-License-Identifier: Apache-2.0
#include "command_docs.hpp"

#include <cstring>

namespace bloom_redis {

namespace {

// Tells Redis the sizes of the structs below, so it reads our arrays
// whatever version of them it knows (version 1: Redis 7.0).
const RedisModuleCommandInfoVersion kInfoVersion = {1, sizeof(RedisModuleCommandHistoryEntry),
                                                    sizeof(RedisModuleCommandKeySpec),
                                                    sizeof(RedisModuleCommandArg)};

RedisModuleCommandArg arg(const char *name, RedisModuleCommandArgType type,
                          int flags = REDISMODULE_CMD_ARG_NONE, const char *token = nullptr,
                          int key_spec = -1, RedisModuleCommandArg *subargs = nullptr) {
  RedisModuleCommandArg a{};
  a.name = name;
  a.type = type;
  a.key_spec_index = key_spec;
  a.token = token;
  a.flags = flags;
  a.subargs = subargs;
  return a;
}

RedisModuleCommandArg key_arg(const char *name = "key", int spec = 0, int flags = REDISMODULE_CMD_ARG_NONE) {
  return arg(name, REDISMODULE_ARG_TYPE_KEY, flags, nullptr, spec);
}

RedisModuleCommandArg item_arg(int flags = REDISMODULE_CMD_ARG_NONE) {
  return arg("item", REDISMODULE_ARG_TYPE_STRING, flags);
}

RedisModuleCommandArg token(const char *name, const char *word, int flags = REDISMODULE_CMD_ARG_OPTIONAL) {
  return arg(name, REDISMODULE_ARG_TYPE_PURE_TOKEN, flags, word);
}

// The key at argv[pos] (and, with last = -1, every argument after it).
RedisModuleCommandKeySpec key_spec(uint64_t flags, int pos = 1, int last = 0) {
  RedisModuleCommandKeySpec k{};
  k.flags = flags;
  k.begin_search_type = REDISMODULE_KSPEC_BS_INDEX;
  k.bs.index.pos = pos;
  k.find_keys_type = REDISMODULE_KSPEC_FK_RANGE;
  k.fk.range.lastkey = last;
  k.fk.range.keystep = 1;
  k.fk.range.limit = 0;
  return k;
}

constexpr uint64_t kRead = REDISMODULE_CMD_KEY_RO | REDISMODULE_CMD_KEY_ACCESS;
constexpr uint64_t kAdd = REDISMODULE_CMD_KEY_RW | REDISMODULE_CMD_KEY_INSERT;
constexpr uint64_t kCreate = REDISMODULE_CMD_KEY_RW | REDISMODULE_CMD_KEY_INSERT;

// RedisBloom's versions in `since`: its commands date from its 1.0.0, BF.CARD
// from 2.4.4; BF.MERGE is bloom's own (the module's 0.1.0).
constexpr const char *kRedisBloom1 = "1.0.0";

int describe(RedisModuleCtx *ctx, const char *name, const char *summary, const char *complexity, int arity,
             RedisModuleCommandKeySpec *specs, RedisModuleCommandArg *args,
             const char *since = kRedisBloom1) {
  RedisModuleCommand *cmd = RedisModule_GetCommand(ctx, name);
  if (cmd == nullptr) return REDISMODULE_ERR;
  RedisModuleCommandInfo info{};
  info.version = &kInfoVersion;
  info.summary = summary;
  info.complexity = complexity;
  info.since = since;
  info.arity = arity;
  info.key_specs = specs;
  info.args = args;
  return RedisModule_SetCommandInfo(cmd, &info);
}

}  // namespace

int set_command_docs(RedisModuleCtx *ctx, const char *name) {
  if (RedisModule_GetCommand == nullptr || RedisModule_SetCommandInfo == nullptr) return REDISMODULE_OK;
  const int opt = REDISMODULE_CMD_ARG_OPTIONAL;
  const int many = REDISMODULE_CMD_ARG_MULTIPLE;
  RedisModuleCommandKeySpec read[] = {key_spec(kRead), {}};
  RedisModuleCommandKeySpec add[] = {key_spec(kAdd), {}};
  RedisModuleCommandKeySpec create[] = {key_spec(kCreate), {}};

  if (std::strcmp(name, "bf.reserve") == 0) {
    RedisModuleCommandArg args[] = {key_arg(),
                                    arg("error_rate", REDISMODULE_ARG_TYPE_DOUBLE),
                                    arg("capacity", REDISMODULE_ARG_TYPE_INTEGER),
                                    arg("expansion", REDISMODULE_ARG_TYPE_INTEGER, opt, "EXPANSION"),
                                    token("nonscaling", "NONSCALING"),
                                    {}};
    return describe(ctx, name, "Creates a new Bloom Filter", "O(1)", -4, create, args);
  }
  if (std::strcmp(name, "bf.add") == 0) {
    RedisModuleCommandArg args[] = {key_arg(), item_arg(), {}};
    return describe(ctx, name, "Adds an item to a Bloom Filter",
                    "O(k), where k is the number of hash functions used by the last sub-filter", 3, add,
                    args);
  }
  if (std::strcmp(name, "bf.madd") == 0) {
    RedisModuleCommandArg args[] = {key_arg(), item_arg(many), {}};
    return describe(
        ctx, name, "Adds one or more items to a Bloom Filter. A filter will be created if it does not exist",
        "O(k * n), where k is the number of hash functions and n is the number of items", -3, add, args);
  }
  if (std::strcmp(name, "bf.insert") == 0) {
    RedisModuleCommandArg args[] = {key_arg(),
                                    arg("capacity", REDISMODULE_ARG_TYPE_INTEGER, opt, "CAPACITY"),
                                    arg("error", REDISMODULE_ARG_TYPE_DOUBLE, opt, "ERROR"),
                                    arg("expansion", REDISMODULE_ARG_TYPE_INTEGER, opt, "EXPANSION"),
                                    token("nocreate", "NOCREATE"),
                                    token("nonscaling", "NONSCALING"),
                                    token("items", "ITEMS", REDISMODULE_CMD_ARG_NONE),
                                    item_arg(many),
                                    {}};
    return describe(
        ctx, name, "Adds one or more items to a Bloom Filter. A filter will be created if it does not exist",
        "O(k * n), where k is the number of hash functions and n is the number of items", -4, add, args);
  }
  if (std::strcmp(name, "bf.exists") == 0) {
    RedisModuleCommandArg args[] = {key_arg(), item_arg(), {}};
    return describe(ctx, name, "Checks whether an item exists in a Bloom Filter",
                    "O(k), where k is the number of hash functions used by the last sub-filter", 3, read,
                    args);
  }
  if (std::strcmp(name, "bf.mexists") == 0) {
    RedisModuleCommandArg args[] = {key_arg(), item_arg(many), {}};
    return describe(ctx, name, "Checks whether one or more items exist in a Bloom Filter",
                    "O(k * n), where k is the number of hash functions and n is the number of items", -3,
                    read, args);
  }
  if (std::strcmp(name, "bf.card") == 0) {
    RedisModuleCommandArg args[] = {key_arg(), {}};
    return describe(ctx, name, "Returns the cardinality of a Bloom filter", "O(1)", 2, read, args, "2.4.4");
  }
  if (std::strcmp(name, "bf.info") == 0) {
    RedisModuleCommandArg fields[] = {token("capacity", "CAPACITY", REDISMODULE_CMD_ARG_NONE),
                                      token("size", "SIZE", REDISMODULE_CMD_ARG_NONE),
                                      token("filters", "FILTERS", REDISMODULE_CMD_ARG_NONE),
                                      token("items", "ITEMS", REDISMODULE_CMD_ARG_NONE),
                                      token("expansion", "EXPANSION", REDISMODULE_CMD_ARG_NONE),
                                      {}};
    RedisModuleCommandArg args[] = {
        key_arg(), arg("single_value", REDISMODULE_ARG_TYPE_ONEOF, opt, nullptr, -1, fields), {}};
    return describe(ctx, name, "Returns information about a Bloom Filter", "O(1)", -2, read, args);
  }
  if (std::strcmp(name, "bf.debug") == 0) {
    RedisModuleCommandArg args[] = {key_arg(), {}};
    return describe(ctx, name, "Describes a Bloom filter's sub-filters", "O(n), where n is the filter's size",
                    2, read, args);
  }
  if (std::strcmp(name, "bf.scandump") == 0) {
    RedisModuleCommandArg args[] = {key_arg(), arg("iterator", REDISMODULE_ARG_TYPE_INTEGER), {}};
    return describe(ctx, name, "Begins an incremental save of the bloom filter",
                    "O(n), where n is the capacity", 3, read, args);
  }
  if (std::strcmp(name, "bf.loadchunk") == 0) {
    RedisModuleCommandArg args[] = {key_arg(),
                                    arg("iterator", REDISMODULE_ARG_TYPE_INTEGER),
                                    arg("data", REDISMODULE_ARG_TYPE_STRING),
                                    {}};
    return describe(ctx, name, "Restores a filter previously saved using SCANDUMP",
                    "O(n), where n is the capacity", 4, add, args);
  }
  if (std::strcmp(name, "bf.merge") == 0) {
    RedisModuleCommandKeySpec specs[] = {key_spec(kAdd), key_spec(kRead, 2, -1), {}};
    RedisModuleCommandArg args[] = {key_arg("destkey"), key_arg("source", 1, many), {}};
    return describe(ctx, name, "Merges Bloom filters into the destination (bloom's own command)",
                    "O(n), where n is the total size of the filters", -3, specs, args, "0.1.0");
  }
  return REDISMODULE_ERR;
}

}  // namespace bloom_redis
