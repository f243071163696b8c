// SPDX-License-Identifier: Apache-2.0
// BF.RESERVE, BF.ADD, BF.MADD, BF.INSERT: the commands that create filters
// and add keys. Their replies and error texts are RedisBloom's (docs/redis.md
// lists them and the few deliberate differences).
#include <string>
#include <vector>

#include "add_items.hpp"
#include "commands.hpp"
#include "filter_key.hpp"
#include "filter_params.hpp"
#include "reply.hpp"
#include "window_filter.hpp"

namespace bloom_redis {

namespace {

// Keyspace events (class g, "generic"), named as valkey-bloom names them.
constexpr const char *kReserveEvent = "bloom.reserve";
constexpr const char *kAddEvent = "bloom.add";

// Creates a filter with p and stores it at an empty key. Replies with the
// error and returns false on failure.
bool create_at(RedisModuleCtx *ctx, RedisModuleString *name, FilterKey &key, const FilterParams &p,
               const WindowSpec *window = nullptr) {
  std::string error;
  const int64_t since = library_bytes_net();
  bloom_filter *f = window != nullptr ? create_window_filter(p.error_rate, p.capacity, *window,
                                                             config().max_filter_bytes, &error)
                                      : create_filter(p, config().max_filter_bytes, &error);
  FilterValue *v = f != nullptr ? adopt_filter(f, since, &error) : nullptr;
  // Made with RedisBloom's hash and sizing, its chain always saves.
  if (v != nullptr) v->redisbloom_form = config().redisbloom_encoding;
  if (v == nullptr) {
    reply_error(ctx, error.rfind("ERR ", 0) == 0 ? error : "ERR " + error);
    return false;
  }
  if (!key.set(v)) {
    delete v;
    reply_error(ctx, "ERR cannot store the filter");
    return false;
  }
  RedisModule_NotifyKeyspaceEvent(ctx, REDISMODULE_NOTIFY_GENERIC, kReserveEvent, name);
  return true;
}

// Readies the filter at key for an add: created with p when the key is
// empty (nocreate: "ERR not found" instead), and a time window's clock
// advanced (write). Replies and returns false when the command must stop.
bool filter_for_add(RedisModuleCtx *ctx, RedisModuleString *name, FilterKey &key, const FilterParams &p,
                    WindowWrite *write, bool nocreate = false) {
  if (reject_unusable(ctx, key)) return false;
  if (key.empty()) {
    if (nocreate) {
      RedisModule_ReplyWithError(ctx, kNotFound);
      return false;
    }
    if (!create_at(ctx, name, key, p)) return false;
  }
  // A compact form is never a window (compact_filter.hpp).
  if (key.compact() != nullptr) return true;
  std::string error;
  FilterValue *v = key.value(&error);
  if (v == nullptr) {
    reply_error(ctx, error);
    return false;
  }
  return write->begin(ctx, v);
}

}  // namespace

// BF.RESERVE key error_rate capacity [EXPANSION n] [NONSCALING]
//            [WINDOW count|duration]
// As RedisBloom: EXPANSION 0 makes a filter that does not grow, and other
// words after the capacity are ignored. WINDOW (bloom's) makes a sliding
// window (window_filter.hpp), which neither grows nor fills.
int cmd_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  // RedisBloom's arity (at most 7), two more with WINDOW and its value.
  bool has_window = false;
  for (int i = 4; i < argc; ++i) has_window = has_window || arg_is(argv[i], "WINDOW");
  if (argc < 4 || argc > (has_window ? 9 : 7)) return RedisModule_WrongArity(ctx);
  FilterParams p = config().defaults;
  p.nonscaling = false;
  std::string error;
  if (!parse_error_rate(argv[2], &p.error_rate, &error) || !parse_capacity(argv[3], &p.capacity, &error))
    return reply_error(ctx, error);
  bool expansion_given = false;
  WindowSpec window;
  for (int i = 4; i < argc; ++i) {
    if (arg_is(argv[i], "NONSCALING")) {
      p.nonscaling = true;
    } else if (arg_is(argv[i], "EXPANSION")) {
      if (i + 1 == argc) return RedisModule_ReplyWithError(ctx, "ERR no expansion");
      if (!parse_expansion(argv[++i], &p.expansion, &error)) return reply_error(ctx, error);
      expansion_given = true;
    } else if (arg_is(argv[i], "WINDOW")) {
      if (i + 1 == argc) return RedisModule_ReplyWithError(ctx, "ERR no window");
      if (!parse_window(argv[++i], &window, &error)) return reply_error(ctx, error);
    }
  }
  const bool is_window = window.count != 0 || window.ms != 0;
  if (is_window && (p.nonscaling || expansion_given))
    return RedisModule_ReplyWithError(ctx,
                                      "ERR a WINDOW filter neither expands nor is NONSCALING: it forgets");
  if (p.nonscaling && expansion_given && p.expansion != 0)
    return RedisModule_ReplyWithError(ctx, "Nonscaling filters cannot expand");
  if (p.expansion == 0) p.nonscaling = true;

  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  if (key.wrong_type()) return RedisModule_ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
  if (!key.empty()) return RedisModule_ReplyWithError(ctx, "ERR item exists");
  if (!create_at(ctx, argv[1], key, p, is_window ? &window : nullptr)) return REDISMODULE_OK;
  RedisModule_ReplicateVerbatim(ctx);
  return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

// BF.ADD key item
int cmd_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 3) return RedisModule_WrongArity(ctx);
  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  WindowWrite write;
  if (!filter_for_add(ctx, argv[1], key, config().defaults, &write)) return REDISMODULE_OK;
  std::string error;
  const int r = KeyAdder(key).add(argv[2], &error);
  // Only a failed add can have been refused by maxmemory (its allocation
  // was the one refused), and this command made no other.
  write.replicate_add(ctx, argv, r < 0 && refused_by_maxmemory());
  if (r == 1) RedisModule_NotifyKeyspaceEvent(ctx, REDISMODULE_NOTIFY_GENERIC, kAddEvent, argv[1]);
  return r < 0 ? reply_error(ctx, error) : reply_bool(ctx, r == 1);
}

// BF.MADD key item [item ...]
int cmd_madd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc < 3) return RedisModule_WrongArity(ctx);
  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  WindowWrite write;
  if (!filter_for_add(ctx, argv[1], key, config().defaults, &write)) return REDISMODULE_OK;
  std::vector<char> skipped;
  const int added = add_items_reply(ctx, key, argv, 2, argc, &skipped);
  write.replicate(ctx, "BF.MADD", argv, 2, argc, skipped);
  if (added > 0) RedisModule_NotifyKeyspaceEvent(ctx, REDISMODULE_NOTIFY_GENERIC, kAddEvent, argv[1]);
  return REDISMODULE_OK;
}

// BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION n] [NOCREATE] [NONSCALING]
//           ITEMS item [item ...]
// RedisBloom's rules: options in any order, each checked as it is read
// ("Bad capacity", "Bad error rate", "Bad expansion", "Unknown argument
// received", without the ERR prefix, as RedisBloom sends them); CAPACITY and
// ERROR only matter when the filter is created, so with NOCREATE they are
// accepted and unused. EXPANSION 0 makes a filter that does not grow.
int cmd_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc < 4) return RedisModule_WrongArity(ctx);
  FilterParams p = config().defaults;
  bool nocreate = false, expansion_given = false;
  int items = -1;
  for (int i = 2; i < argc && items < 0; ++i) {
    if (arg_is(argv[i], "ITEMS")) {
      items = i + 1;
    } else if (arg_is(argv[i], "NOCREATE")) {
      nocreate = true;
    } else if (arg_is(argv[i], "NONSCALING")) {
      p.nonscaling = true;
    } else if (arg_is(argv[i], "CAPACITY") || arg_is(argv[i], "ERROR") || arg_is(argv[i], "EXPANSION")) {
      if (i + 1 == argc) return RedisModule_WrongArity(ctx);
      const RedisModuleString *value = argv[++i];
      if (arg_is(argv[i - 1], "CAPACITY") && !parse_insert_capacity(value, &p.capacity))
        return RedisModule_ReplyWithError(ctx, "Bad capacity");
      if (arg_is(argv[i - 1], "ERROR") && !parse_insert_error_rate(value, &p.error_rate))
        return RedisModule_ReplyWithError(ctx, "Bad error rate");
      if (arg_is(argv[i - 1], "EXPANSION")) {
        if (!parse_insert_expansion(value, &p.expansion))
          return RedisModule_ReplyWithError(ctx, "Bad expansion");
        expansion_given = true;
      }
    } else {
      return RedisModule_ReplyWithError(ctx, "Unknown argument received");
    }
  }
  if (items < 0 || items >= argc) return RedisModule_WrongArity(ctx);
  if (p.nonscaling && expansion_given && p.expansion != 0)
    return RedisModule_ReplyWithError(ctx, "Nonscaling filters cannot expand");
  if (p.expansion == 0) p.nonscaling = true;

  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  WindowWrite write;
  if (!filter_for_add(ctx, argv[1], key, p, &write, nocreate)) return REDISMODULE_OK;
  std::vector<char> skipped;
  const int added = add_items_reply(ctx, key, argv, items, argc, &skipped);
  write.replicate(ctx, "BF.INSERT", argv, items, argc, skipped);
  if (added > 0) RedisModule_NotifyKeyspaceEvent(ctx, REDISMODULE_NOTIFY_GENERIC, kAddEvent, argv[1]);
  return REDISMODULE_OK;
}

}  // namespace bloom_redis
