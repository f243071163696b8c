// SPDX-License-Identifier: Apache-2.0
// add_items.hpp -- adding keys to a live filter with RedisBloom's answers.
#pragma once

#include <string>
#include <vector>

#include "compact_filter.hpp"
#include "filter_key.hpp"
#include "filter_value.hpp"
#include "redis_module_api.h"

namespace bloom_redis {

// Adds one item. Returns 1 if it was certainly new, 0 if it may have been
// present (then nothing changed), -1 with *error set: a non-scaling filter
// that is full refuses new items, as RedisBloom's NONSCALING filters do, so
// the error rate it was sized for still holds.
int add_item(FilterValue *v, const RedisModuleString *item, std::string *error);

// add_item for the value at a key in either form: a compact form takes the
// adds itself until one needs the live filter (a new stage), which the key
// then holds for good (FilterKey::value).
class KeyAdder {
 public:
  explicit KeyAdder(FilterKey &key) : key_(key), compact_(key.compact()) {}
  int add(const RedisModuleString *item, std::string *error) {
    if (compact_ != nullptr) {
      size_t len = 0;
      const char *data = RedisModule_StringPtrLen(item, &len);
      const int r = compact_add(*compact_, data, len, error);
      if (r != kNeedsLiveFilter) return r;
      compact_ = nullptr;
    }
    if (live_ == nullptr && (live_ = key_.value(error)) == nullptr) return -1;
    return add_item(live_, item, error);
  }

 private:
  FilterKey &key_;
  CompactFilter *compact_;
  FilterValue *live_ = nullptr;
};

// Adds argv[first..argc) and replies with an array of add_item's answers
// (booleans in RESP3). As RedisBloom, it stops at the first item that
// cannot be added: that item's element is the error and the array ends
// there, shorter than the item list. (*skipped)[i] says whether
// argv[first + i] must not be replicated: maxmemory refused it, or it was
// never tried. Returns how many items were added (new keys).
int add_items_reply(RedisModuleCtx *ctx, FilterKey &key, RedisModuleString **argv, int first, int argc,
                    std::vector<char> *skipped);

// Replicates a write that added argv[first..argc) to its filter. Verbatim,
// unless some items are skipped (maxmemory refused them here,
// server_allocator.hpp, or a failure before them ended the command): a
// replica never refuses, so it gets `command` with argv[1..first) and only
// the items this server tried and did not refuse, or nothing when there
// are none (no key is created without an item: a new filter takes its
// first one without allocating).
void replicate_adds(RedisModuleCtx *ctx, const char *command, RedisModuleString **argv, int first, int argc,
                    const std::vector<char> &refused);

}  // namespace bloom_redis
