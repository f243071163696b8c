// SPDX-License-Identifier: Apache-2.0
// BF.EXISTS, BF.MEXISTS, BF.CARD, BF.INFO: the read-only commands.
#include <cstdio>
#include <cstring>
#include <string>

#include "commands.hpp"
#include "filter_key.hpp"
#include "filter_params.hpp"
#include "reply.hpp"
#include "window_filter.hpp"

namespace bloom_redis {

namespace {

// Whether item may be in the filter at key (nothing is in an empty key or
// one holding another type: callers check the key with readable_filter).
bool query_item(const FilterKey &key, const RedisModuleString *item) {
  const StoredValue *s = key.stored();
  if (s == nullptr) return false;
  size_t len = 0;
  const char *data = RedisModule_StringPtrLen(item, &len);
  if (const CompactFilter *c = as_compact(s)) return compact_query(*c, data, len);
  return bloom_query(static_cast<const FilterValue *>(s)->filter, data, len) == 1;
}

// Whether BF.EXISTS / BF.MEXISTS may read the key. As RedisBloom, a key
// holding another type answers "not present" (0) rather than WRONGTYPE:
// only a filter restored half-way by BF.LOADCHUNK stops the command (and
// replies).
bool readable_filter(RedisModuleCtx *ctx, const FilterKey &key) {
  return key.wrong_type() || !reject_unusable(ctx, key);
}

}  // namespace

// BF.EXISTS key item
int cmd_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 3) return RedisModule_WrongArity(ctx);
  FilterKey key(ctx, argv[1], REDISMODULE_READ);
  if (!readable_filter(ctx, key)) return REDISMODULE_OK;
  return reply_bool(ctx, query_item(key, argv[2]));
}

// BF.MEXISTS key item [item ...]
int cmd_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc < 3) return RedisModule_WrongArity(ctx);
  FilterKey key(ctx, argv[1], REDISMODULE_READ);
  if (!readable_filter(ctx, key)) return REDISMODULE_OK;
  RedisModule_ReplyWithArray(ctx, argc - 2);
  for (int i = 2; i < argc; ++i) reply_bool(ctx, query_item(key, argv[i]));
  return REDISMODULE_OK;
}

// BF.CARD key: the number of items added (0 for a missing key).
int cmd_card(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 2) return RedisModule_WrongArity(ctx);
  FilterKey key(ctx, argv[1], REDISMODULE_READ);
  if (reject_unusable(ctx, key)) return REDISMODULE_OK;
  const StoredValue *s = key.stored();
  const CompactFilter *c = s != nullptr ? as_compact(s) : nullptr;
  const uint64_t items = s == nullptr   ? 0
                         : c != nullptr ? c->items
                                        : static_cast<const FilterValue *>(s)->items;
  return RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(items));
}

namespace {

// One BF.INFO field: its name in the reply, the keyword that selects it
// alone, and how to reply with its value. The first five are RedisBloom's,
// in its order; the rest are bloom's and answer only when asked by name.
struct InfoField {
  const char *label;
  const char *keyword;
  void (*reply)(RedisModuleCtx *ctx, const FilterValue &v, const bloom_info &info);
};

constexpr size_t kRedisBloomFields = 5;

// RedisBloom's BF.INFO Size: sizeof its chain (32 bytes) and of each link
// (64 bytes, its bloom struct and item count), and the links' bits. Only a
// growing filter is a chain of several links; a window's stages are slices
// of one array.
uint64_t redisbloom_size(const FilterShape &s) {
  constexpr uint64_t kChainStruct = 32, kLinkStruct = 64;
  const bool chain = (bloom_kind_caps(s.kind) & BLOOM_CAP_GROWS) != 0;
  const uint64_t links = chain && s.stages > 1 ? s.stages : 1;
  return kChainStruct + kLinkStruct * links + s.bit_bytes;
}

const InfoField kInfoFields[] = {
    {"Capacity", "CAPACITY",
     [](RedisModuleCtx *ctx, const FilterValue &, const bloom_info &i) {
       RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(i.capacity));
     }},
    // As RedisBloom defines it: its chain's and links' structs and the
    // stages' bits in whole 64-bit words (MEMORY USAGE is what the value
    // holds in Redis's allocator).
    {"Size", "SIZE",
     [](RedisModuleCtx *ctx, const FilterValue &v, const bloom_info &) {
       RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(redisbloom_size(v.shape)));
     }},
    {"Number of filters", "FILTERS",
     [](RedisModuleCtx *ctx, const FilterValue &, const bloom_info &i) {
       RedisModule_ReplyWithLongLong(ctx, i.stages);
     }},
    {"Number of items inserted", "ITEMS",
     [](RedisModuleCtx *ctx, const FilterValue &v, const bloom_info &) {
       RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(v.items));
     }},
    // As RedisBloom: nil for a filter that does not grow.
    {"Expansion rate", "EXPANSION",
     [](RedisModuleCtx *ctx, const FilterValue &, const bloom_info &i) {
       // BF.RESERVE takes whole factors; a filter loaded from a file may
       // have any, and 1.5 must not read as 1.
       if ((bloom_kind_caps(i.kind) & BLOOM_CAP_GROWS) == 0)
         RedisModule_ReplyWithNull(ctx);
       else if (i.growth < 9.0e18 && i.growth == static_cast<double>(static_cast<long long>(i.growth)))
         RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(i.growth));
       else
         RedisModule_ReplyWithDouble(ctx, i.growth);
     }},
    // bloom's own fields.
    {"Kind", "KIND",
     [](RedisModuleCtx *ctx, const FilterValue &, const bloom_info &i) {
       const char *name = bloom_kind_name(i.kind);
       RedisModule_ReplyWithSimpleString(ctx, name != nullptr ? name : "unknown");
     }},
    {"Error rate", "ERROR",
     [](RedisModuleCtx *ctx, const FilterValue &, const bloom_info &i) {
       RedisModule_ReplyWithDouble(ctx, i.fp_rate);
     }},
    // An empty filter's estimate can come out as -0.0; it is 0.
    {"Expected false positive rate", "FPR",
     [](RedisModuleCtx *ctx, const FilterValue &, const bloom_info &i) {
       RedisModule_ReplyWithDouble(ctx, i.expected_fp_rate > 0.0 ? i.expected_fp_rate : 0.0);
     }},
    // A window filter's window, as BF.RESERVE's WINDOW takes it, and its
    // clock (the time of its last write); nil for other filters.
    {"Window", "WINDOW",
     [](RedisModuleCtx *ctx, const FilterValue &v, const bloom_info &i) {
       if (!forgets(v)) return (void)RedisModule_ReplyWithNull(ctx);
       const std::string w = window_text(i);
       RedisModule_ReplyWithStringBuffer(ctx, w.data(), w.size());
     }},
    {"Clock", "CLOCK",
     [](RedisModuleCtx *ctx, const FilterValue &v, const bloom_info &i) {
       if (!timed(v)) return (void)RedisModule_ReplyWithNull(ctx);
       RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(i.clock_ms));
     }},
};

}  // namespace

// BF.INFO key [CAPACITY | SIZE | FILTERS | ITEMS | EXPANSION | KIND | ERROR | FPR | WINDOW | CLOCK]
// The whole reply is a map of RedisBloom's five fields (a flat array in
// RESP2); one field is a one-element array in RESP2 and a map of one in
// RESP3, as RedisBloom answers.
int cmd_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 2 && argc != 3) return RedisModule_WrongArity(ctx);
  FilterKey key(ctx, argv[1], REDISMODULE_READ);
  if (reject_unusable(ctx, key)) return REDISMODULE_OK;
  if (key.empty()) return RedisModule_ReplyWithError(ctx, kNotFound);
  const bool fpr = argc == 3 && arg_is(argv[2], "FPR");
  // A compact filter's fields are its shape: only FPR, which counts the
  // bits, reads the live filter (rebuilding it cost the rest 3x
  // RedisBloom's time, pipelined).
  FilterValue described;  // no filter: the fields BF.INFO reads
  FilterValue *v = &described;
  if (const CompactFilter *c = key.compact(); c != nullptr && !fpr) {
    described.shape = compact_shape(*c);
    described.items = c->items;
    described.scalable = c->scalable();
  } else {
    std::string error;
    v = key.snapshot(&error);
    if (v == nullptr) return reply_error(ctx, error);
  }
  // The parameters are cached (O(1), as RedisBloom's BF.INFO, but for the
  // first read after a new stage); only FPR needs the bits counted now.
  v->refresh_stale_shape();
  bloom_info info{};
  info.kind = v->shape.kind;
  info.stages = v->shape.stages;
  info.capacity = v->shape.capacity;
  info.fp_rate = v->shape.fp_rate;
  info.growth = v->shape.growth;
  info.window_ms = v->shape.window_ms;
  info.clock_ms = v->shape.clock_ms;
  if (fpr) {
    info.struct_size = sizeof info;
    const bloom_status st = bloom_get_info(v->filter, &info);
    if (st != BLOOM_OK) return reply_error(ctx, "ERR " + bloom_error("info", st));
  }

  if (argc == 3) {
    for (const InfoField &f : kInfoFields) {
      if (!arg_is(argv[2], f.keyword)) continue;
      if (client_resp3(ctx)) {
        reply_map(ctx, 1);
        RedisModule_ReplyWithSimpleString(ctx, f.label);
      } else {
        RedisModule_ReplyWithArray(ctx, 1);
      }
      f.reply(ctx, *v, info);
      return REDISMODULE_OK;
    }
    return RedisModule_ReplyWithError(ctx, "Invalid information value");
  }
  reply_map(ctx, static_cast<long>(kRedisBloomFields));
  for (size_t i = 0; i < kRedisBloomFields; ++i) {
    RedisModule_ReplyWithSimpleString(ctx, kInfoFields[i].label);
    kInfoFields[i].reply(ctx, *v, info);
  }
  return REDISMODULE_OK;
}

// BF.DEBUG key: RedisBloom's debugging view, "size:<items>" and then one
// line per stage in its format ("bytes:B bits:M hashes:K hashwidth:64
// capacity:C size:S ratio:R"), from bloom's stage info: capacities, item
// counts and ratios (stage error rates) follow RedisBloom's rules, bytes,
// bits and hashes are bloom's own sizing. Counts each stage's bits.
int cmd_debug(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 2) return RedisModule_WrongArity(ctx);
  FilterKey key(ctx, argv[1], REDISMODULE_READ);
  if (reject_unusable(ctx, key)) return REDISMODULE_OK;
  if (key.empty()) return RedisModule_ReplyWithError(ctx, kNotFound);
  std::string error;
  FilterValue *v = key.snapshot(&error);
  if (v == nullptr) return reply_error(ctx, error);
  v->refresh_stale_shape();
  const uint32_t stages = v->shape.stages;
  RedisModule_ReplyWithArray(ctx, 1 + static_cast<long>(stages));
  const std::string head = "size:" + std::to_string(v->items);
  RedisModule_ReplyWithStringBuffer(ctx, head.data(), head.size());
  for (uint32_t i = 0; i < stages; ++i) {
    bloom_info s;
    s.struct_size = sizeof s;
    if (bloom_get_stage_info(v->filter, i, &s) != BLOOM_OK) {
      RedisModule_ReplyWithNull(ctx);
      continue;
    }
    // Items in the stage: its own count for a scalable filter's stages;
    // the filter's (BF.CARD) for a single-stage kind.
    const uint64_t items = v->scalable ? s.keys_added : v->items;
    char line[256];
    const int n = std::snprintf(
        line, sizeof line, "bytes:%llu bits:%llu hashes:%u hashwidth:64 capacity:%llu size:%llu ratio:%g",
        static_cast<unsigned long long>(s.bytes), static_cast<unsigned long long>(s.bits), s.hashes,
        static_cast<unsigned long long>(s.capacity), static_cast<unsigned long long>(items), s.fp_rate);
    RedisModule_ReplyWithStringBuffer(ctx, line, n > 0 ? static_cast<size_t>(n) : 0);
  }
  return REDISMODULE_OK;
}

}  // namespace bloom_redis
