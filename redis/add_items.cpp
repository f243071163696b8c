// SPDX-License-Identifier: Apache-2.0
#include "add_items.hpp"

#include <algorithm>

#include "filter_key.hpp"
#include "filter_params.hpp"
#include "reply.hpp"
#include "server_allocator.hpp"
#include "window_filter.hpp"

namespace bloom_redis {

namespace {

// add_item's answer for a bloom_test_and_add that returned `present`.
int added(FilterValue *v, bool present) {
  if (v->forgets_keys) {
    // A window's add of a present key still changes it (the key is
    // refreshed into the newest slices, the generation counts it), and its
    // count is of insertions, as bloom's keys_added after a reload.
    ++v->items;
    v->touch();
    return present ? 0 : 1;
  }
  if (present) return 0;
  ++v->items;
  v->touch();
  return 1;
}

int add_failed(int status, std::string *error) {
  *error = "ERR " + bloom_error("add", status);
  return -1;
}

}  // namespace

int add_item(FilterValue *v, const RedisModuleString *item, std::string *error) {
  size_t len = 0;
  const char *data = RedisModule_StringPtrLen(item, &len);
  if (v->scalable) {
    // A new stage is checked against MAX_FILTER_BYTES before it exists
    // (bloom_growth_bytes), so the filter never grows past the limit:
    // checked after the fact, a hostile restored image's next stage of
    // 1.49 GB was created, saved and reloaded on every restart. Only then
    // is the key looked up first (a present key still answers 0); otherwise
    // bloom_test_and_add below finds it, with the one hash an add costs.
    uint64_t growth = 0;
    size_t size = 0;
    const uint64_t limit = config().max_filter_bytes;  // 0: none
    if (limit != 0 && bloom_growth_bytes(v->filter, &growth) == BLOOM_OK && growth > 0 &&
        bloom_serialized_size(v->filter, &size) == BLOOM_OK &&
        growth > limit - std::min<uint64_t>(size, limit)) {
      if (bloom_query(v->filter, data, len) == 1) {
        // Counted as every add of a present key is (a scalable filter's
        // keys_added counts calls): the same image whether or not the
        // limit was near, which the compact form relies on. A present key
        // grows nothing.
        bloom_test_and_add(v->filter, data, len);
        return 0;
      }
      *error = "ERR filter is full: its next stage of " + std::to_string(growth) +
               " bytes would take it past the MAX_FILTER_BYTES limit of " +
               std::to_string(config().max_filter_bytes) + " bytes";
      return -1;
    }
  } else if (!v->forgets_keys) {
    // Present keys are not added again: for counting filters too, so BF.ADD
    // keeps set semantics and BF.CARD equals bloom's keys_added after a reload.
    // Where an add of a present key changes nothing and the filter has
    // room, bloom_test_and_add below tells new from present with the one
    // hash an add costs; otherwise the key is looked up first.
    const bool full = v->fills && v->items >= v->shape.capacity;
    if (full || !v->idempotent_add) {
      const int present = bloom_query(v->filter, data, len);
      if (present == 1) return 0;
      if (present == 0 && full) {
        *error = "ERR non scaling filter is full";
        return -1;
      }
    }
  }
  if (!v->scalable) {
    // A kind that does not grow (BLOOM_CAP_GROWS) allocates nothing on an
    // add: no allocation count to take.
    const int r = bloom_test_and_add(v->filter, data, len);
    return r < 0 ? add_failed(r, error) : added(v, r == 1);
  }
  // A scalable filter may grow a stage here: its bytes are the value's.
  const int64_t before = library_bytes_net();
  const int r = bloom_test_and_add(v->filter, data, len);
  const int64_t grown = library_bytes_net() - before;
  v->filter_bytes += grown;
  // A new stage: capacity and stage count changed, read again when next
  // asked for (FilterValue::shape_stale).
  if (grown != 0) v->shape_stale = true;
  if (r == BLOOM_E_OVERFLOW && v->scalable) {
    // No next stage can be built: its rate, hash count or bits run past
    // bloom's bounds (with EXPANSION 1 every stage needs one hash more, and
    // 64 is the most a stage has). Items already in still answer 1.
    *error = "ERR filter is full: " + bloom_error("its next stage cannot be built", r);
    return -1;
  }
  return r < 0 ? add_failed(r, error) : added(v, r == 1);
}

int add_items_reply(RedisModuleCtx *ctx, FilterKey &key, RedisModuleString **argv, int first, int argc,
                    std::vector<char> *skipped) {
  KeyAdder adder(key);
  skipped->assign(static_cast<size_t>(argc - first), 1);
  RedisModule_ReplyWithArray(ctx, REDISMODULE_POSTPONED_ARRAY_LEN);
  long replied = 0;
  int added = 0;
  for (int i = first; i < argc; ++i) {
    std::string error;
    const uint64_t refusals = maxmemory_refusals();
    const int r = adder.add(argv[i], &error);
    ++replied;
    if (r < 0) {
      (*skipped)[static_cast<size_t>(i - first)] = maxmemory_refusals() != refusals;
      reply_error(ctx, error);
      break;
    }
    (*skipped)[static_cast<size_t>(i - first)] = 0;
    added += r;
    reply_bool(ctx, r == 1);
  }
  RedisModule_ReplySetArrayLength(ctx, replied);
  return added;
}

void replicate_adds(RedisModuleCtx *ctx, const char *command, RedisModuleString **argv, int first, int argc,
                    const std::vector<char> &skipped) {
  if (std::find(skipped.begin(), skipped.end(), 1) == skipped.end()) {
    RedisModule_ReplicateVerbatim(ctx);
    return;
  }
  std::vector<RedisModuleString *> args(argv + 1, argv + first);
  size_t items = 0;
  for (int i = first; i < argc; ++i)
    if (!skipped[static_cast<size_t>(i - first)]) {
      args.push_back(argv[i]);
      ++items;
    }
  if (items != 0) RedisModule_Replicate(ctx, command, "v", args.data(), args.size());
}

}  // namespace bloom_redis
