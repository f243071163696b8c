#include "add_items.hpp"

#include <algorithm>

#include "filter_params.hpp"

namespace bloom_redis {

int add_item(FilterValue *v, const RedisModuleString *item, std::string *error) {
  size_t len = 0;
  const char *data = RedisModule_StringPtrLen(item, &len);
  if (v->scalable) {
    // A new stage is allocated outside Redis's allocator, so it is checked
    // against MAX_FILTER_BYTES before it exists: the filter never grows past
    // the limit (checked after the fact, a hostile restored image's next
    // stage of 1.49 GB was created, saved and reloaded on every restart).
    const int present = bloom_query(v->filter, data, len);
    if (present == 1) return 0;
    uint64_t growth = 0;
    size_t size = 0;
    if (bloom_growth_bytes(v->filter, &growth) == BLOOM_OK && growth > 0 &&
        bloom_serialized_size(v->filter, &size) == BLOOM_OK &&
        growth > config().max_filter_bytes - std::min<uint64_t>(size, config().max_filter_bytes)) {
      *error = "ERR filter is full: its next stage of " + std::to_string(growth) +
               " bytes would take it past the MAX_FILTER_BYTES limit of " +
               std::to_string(config().max_filter_bytes) + " bytes";
      return -1;
    }
  } else {
    // Present keys are not added again: for counting filters too, so BF.ADD
    // keeps set semantics and BF.CARD equals bloom's keys_added after a reload.
    const int present = bloom_query(v->filter, data, len);
    if (present == 1) return 0;
    if (present == 0 && v->fixed_capacity != 0 && v->items >= v->fixed_capacity) {
      *error = "ERR non scaling filter is full";
      return -1;
    }
  }
  const int r = bloom_test_and_add(v->filter, data, len);
  if (r < 0) {
    *error = "ERR " + bloom_error("add", r);
    return -1;
  }
  if (r == 1) return 0;
  ++v->items;
  v->touch();
  return 1;
}

void add_items_reply(RedisModuleCtx *ctx, FilterValue *v, RedisModuleString **argv, int first, int argc) {
  RedisModule_ReplyWithArray(ctx, argc - first);
  for (int i = first; i < argc; ++i) {
    std::string error;
    const int r = add_item(v, argv[i], &error);
    if (r < 0)
      RedisModule_ReplyWithError(ctx, error.c_str());
    else
      RedisModule_ReplyWithLongLong(ctx, r);
  }
}

}  // namespace bloom_redis
