// SPDX-License-Identifier: Apache-2.0
#include "filter_key.hpp"

namespace bloom_redis {

namespace {

// The live filter c stands for (a new value), or NULL with *error set
// (when given).
FilterValue *expand(const CompactFilter &c, std::string *error) {
  std::string why;
  FilterValue *live = expand_compact(c, &why);
  if (live == nullptr && error != nullptr) *error = "ERR " + why;
  return live;
}

}  // namespace

FilterValue *FilterKey::make_live(std::string *error) {
  FilterValue *live = expand(*compact(), error);
  if (live == nullptr) return nullptr;
  // In place: the key keeps its TTL (ModuleTypeSetValue would delete the
  // key and its TTL with it).
  void *old = nullptr;
  // Of the key's own type: "MBbloom--" keys hold compact forms too.
  auto *type = const_cast<RedisModuleType *>(module_type_);
  if (RedisModule_ModuleTypeReplaceValue(key_, type, live, &old) != REDISMODULE_OK) {
    delete live;
    if (error != nullptr) *error = "ERR cannot store the filter";
    return nullptr;
  }
  delete static_cast<CompactFilter *>(old);
  stored_ = live;
  return live;
}

FilterValue *FilterKey::expand_for_read(std::string *error) {
  // Once per key: a second call must not free what the first returned.
  if (!expanded_) expanded_.reset(expand(*compact(), error));
  return expanded_.get();
}

}  // namespace bloom_redis
