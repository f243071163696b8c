// SPDX-License-Identifier: Apache-2.0
// BF.RESERVE, BF.ADD, BF.MADD, BF.INSERT: the commands that create filters
// and add keys.
#include "add_items.hpp"
#include "commands.hpp"
#include "filter_key.hpp"
#include "filter_params.hpp"

namespace bloom_redis {

namespace {

// Creates a filter with p and stores it at an empty key. Replies with the
// error and returns NULL on failure.
FilterValue *create_at(RedisModuleCtx *ctx, FilterKey &key, const FilterParams &p) {
  std::string error;
  const int64_t since = library_bytes_net();
  bloom_filter *f = create_filter(p, &error);
  FilterValue *v = f != nullptr ? adopt_filter(f, since, &error) : nullptr;
  if (v == nullptr) {
    reply_error(ctx, error.rfind("ERR ", 0) == 0 ? error : "ERR " + error);
    return nullptr;
  }
  if (!key.set(v)) {
    delete v;
    reply_error(ctx, "ERR cannot store the filter");
    return nullptr;
  }
  return v;
}

// The filter at key for an add, created with the module defaults when the
// key is empty. Replies and returns NULL when the command must stop.
FilterValue *filter_for_add(RedisModuleCtx *ctx, FilterKey &key) {
  if (reject_unusable(ctx, key)) return nullptr;
  if (FilterValue *v = key.value()) return v;
  return create_at(ctx, key, config().defaults);
}

}  // namespace

// BF.RESERVE key error_rate capacity [EXPANSION n] [NONSCALING]
int cmd_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc < 4 || argc > 7) return RedisModule_WrongArity(ctx);
  FilterParams p = config().defaults;
  p.nonscaling = false;
  std::string error;
  if (!parse_error_rate(argv[2], &p.error_rate, &error) || !parse_capacity(argv[3], &p.capacity, &error))
    return reply_error(ctx, error);
  bool expansion_given = false;
  for (int i = 4; i < argc; ++i) {
    if (arg_is(argv[i], "NONSCALING")) {
      p.nonscaling = true;
    } else if (arg_is(argv[i], "EXPANSION") && i + 1 < argc) {
      if (!parse_expansion(argv[++i], &p.expansion, &error)) return reply_error(ctx, error);
      expansion_given = true;
    } else {
      return reply_error(ctx, "ERR syntax error: expected EXPANSION n or NONSCALING");
    }
  }
  if (p.nonscaling && expansion_given) return reply_error(ctx, "ERR nonscaling filters cannot expand");

  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  if (key.wrong_type()) return RedisModule_ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
  if (!key.empty()) return RedisModule_ReplyWithError(ctx, "ERR item exists");
  if (create_at(ctx, key, p) == nullptr) return REDISMODULE_OK;
  RedisModule_ReplicateVerbatim(ctx);
  return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

// BF.ADD key item
int cmd_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 3) return RedisModule_WrongArity(ctx);
  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  FilterValue *v = filter_for_add(ctx, key);
  if (v == nullptr) return REDISMODULE_OK;
  std::string error;
  const uint64_t refusals = maxmemory_refusals();
  const int r = add_item(v, argv[2], &error);
  replicate_adds(ctx, "BF.MADD", argv, 2, 3, std::vector<char>{maxmemory_refusals() != refusals});
  return r < 0 ? reply_error(ctx, error) : RedisModule_ReplyWithLongLong(ctx, r);
}

// BF.MADD key item [item ...]
int cmd_madd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc < 3) return RedisModule_WrongArity(ctx);
  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  FilterValue *v = filter_for_add(ctx, key);
  if (v == nullptr) return REDISMODULE_OK;
  std::vector<char> refused;
  add_items_reply(ctx, v, argv, 2, argc, &refused);
  replicate_adds(ctx, "BF.MADD", argv, 2, argc, refused);
  return REDISMODULE_OK;
}

// BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION n] [NOCREATE] [NONSCALING]
//           ITEMS item [item ...]
int cmd_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc < 4) return RedisModule_WrongArity(ctx);
  FilterParams p = config().defaults;
  bool nocreate = false, sized = false, expansion_given = false;
  int items = -1;
  std::string error;
  for (int i = 2; i < argc && items < 0; ++i) {
    const bool has_value = i + 1 < argc;
    if (arg_is(argv[i], "ITEMS")) {
      items = i + 1;
    } else if (arg_is(argv[i], "NOCREATE")) {
      nocreate = true;
    } else if (arg_is(argv[i], "NONSCALING")) {
      p.nonscaling = true;
    } else if (arg_is(argv[i], "CAPACITY") && has_value) {
      if (!parse_capacity(argv[++i], &p.capacity, &error)) return reply_error(ctx, error);
      sized = true;
    } else if (arg_is(argv[i], "ERROR") && has_value) {
      if (!parse_error_rate(argv[++i], &p.error_rate, &error)) return reply_error(ctx, error);
      sized = true;
    } else if (arg_is(argv[i], "EXPANSION") && has_value) {
      if (!parse_expansion(argv[++i], &p.expansion, &error)) return reply_error(ctx, error);
      expansion_given = true;
    } else {
      return reply_error(ctx,
                         "ERR syntax error: expected CAPACITY c, ERROR e, EXPANSION n, NOCREATE, NONSCALING "
                         "or ITEMS");
    }
  }
  if (items < 0 || items >= argc) return RedisModule_WrongArity(ctx);
  if (nocreate && sized)
    return reply_error(ctx, "ERR NOCREATE cannot be used together with CAPACITY or ERROR");
  if (p.nonscaling && expansion_given) return reply_error(ctx, "ERR nonscaling filters cannot expand");

  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  if (reject_unusable(ctx, key)) return REDISMODULE_OK;
  FilterValue *v = key.value();
  if (v == nullptr) {
    if (nocreate) return RedisModule_ReplyWithError(ctx, kNotFound);
    v = create_at(ctx, key, p);
    if (v == nullptr) return REDISMODULE_OK;
  }
  std::vector<char> refused;
  add_items_reply(ctx, v, argv, items, argc, &refused);
  replicate_adds(ctx, "BF.INSERT", argv, items, argc, refused);
  return REDISMODULE_OK;
}

}  // namespace bloom_redis
