// SPDX-License-Identifier: Apache-2.0
// filter_key.hpp -- a Redis key opened by a command, closed on scope exit,
// and the module's data type handle.
#pragma once

#include <memory>
#include <string>

#include "compact_filter.hpp"
#include "filter_params.hpp"
#include "filter_value.hpp"
#include "redis_module_api.h"
#include "server_allocator.hpp"

namespace bloom_redis {

// The data types registered at load time: "bloomfltr", and "MBbloom--",
// RedisBloom's, which holds the filters loaded from RedisBloom's RDB or DUMP
// data (redisbloom_type.cpp); both hold a FilterValue.
extern RedisModuleType *g_filter_type;
extern RedisModuleType *g_rb_type;

class FilterKey {
 public:
  // A key opened for writing also applies maxmemory to the library's
  // allocations while it is open (server_allocator.hpp).
  // The key's type, module type and value are read once here: every
  // command asks for them, and each is a call into the server. Inlined:
  // out of line it cost a pipelined BF.ADD 40 instructions more of its
  // ~1,800 (bench/redis_callgrind.sh).
  [[gnu::always_inline]] FilterKey(RedisModuleCtx *ctx, RedisModuleString *name, int mode)
      : limit_((mode & REDISMODULE_WRITE) != 0 ? ctx : nullptr),
        key_(RedisModule_OpenKey(ctx, name, mode)),
        writable_((mode & REDISMODULE_WRITE) != 0) {
    key_type_ = key_ != nullptr ? RedisModule_KeyType(key_) : REDISMODULE_KEYTYPE_EMPTY;
    if (key_type_ == REDISMODULE_KEYTYPE_MODULE) {
      module_type_ = RedisModule_ModuleTypeGetType(key_);
      if (!wrong_type()) stored_ = static_cast<StoredValue *>(RedisModule_ModuleTypeGetValue(key_));
    }
  }
  ~FilterKey() {
    if (key_ != nullptr) RedisModule_CloseKey(key_);
  }
  FilterKey(const FilterKey &) = delete;
  FilterKey &operator=(const FilterKey &) = delete;

  bool empty() const { return key_type_ == REDISMODULE_KEYTYPE_EMPTY; }
  // The key holds something other than a bloom filter: WRONGTYPE.
  bool wrong_type() const {
    if (empty()) return false;
    if (key_type_ != REDISMODULE_KEYTYPE_MODULE) return true;
    return module_type_ != g_filter_type && (module_type_ != g_rb_type || g_rb_type == nullptr);
  }
  // The value in either form, or NULL for an empty key or one holding
  // another type.
  StoredValue *stored() const { return stored_; }
  // The value when it is a small filter's compact form, else NULL.
  CompactFilter *compact() const { return stored_ != nullptr ? as_compact(stored_) : nullptr; }
  // The live filter, or NULL for an empty key. A compact form is expanded:
  // for good in a key opened for writing (the write may need the live
  // filter), else as snapshot() does. NULL too when that expansion fails
  // (out of memory; *error set when given): check empty() before reading
  // NULL as "no key".
  FilterValue *value(std::string *error = nullptr) {
    if (stored_ == nullptr || stored_->form == ValueForm::kFull) return static_cast<FilterValue *>(stored_);
    return writable_ ? make_live(error) : snapshot(error);
  }
  // The live filter for reading, or NULL for an empty key: a compact form
  // is expanded into a copy that lives as long as this object, and the key
  // stays as small as it was. NULL too when that expansion fails, as for
  // value().
  FilterValue *snapshot(std::string *error = nullptr) {
    if (stored_ == nullptr || stored_->form == ValueForm::kFull) return static_cast<FilterValue *>(stored_);
    return expand_for_read(error);
  }
  // Stores v (Redis owns it from now on; any old value is freed): as
  // RedisBloom's type in bf-encoding redisbloom when its save can write
  // RedisBloom's chain, else as bloom's; a small filter in its compact
  // form (v is then freed: read the key's value again to use it).
  bool set(FilterValue *v) {
    const bool rb = v->redisbloom_form && config().redisbloom_encoding && g_rb_type != nullptr;
    RedisModuleType *type = rb ? g_rb_type : g_filter_type;
    StoredValue *store = v;
    if (CompactFilter *c = compact_form(*v)) store = c;
    if (RedisModule_ModuleTypeSetValue(key_, type, store) != REDISMODULE_OK) {
      if (store != v) delete static_cast<CompactFilter *>(store);
      return false;
    }
    if (store != v) delete v;
    key_type_ = REDISMODULE_KEYTYPE_MODULE;
    module_type_ = type;
    stored_ = store;
    return true;
  }
  // The key holds RedisBloom's type "MBbloom--".
  bool redisbloom_type() const { return !empty() && g_rb_type != nullptr && module_type_ == g_rb_type; }
  void remove() {
    RedisModule_DeleteKey(key_);
    key_type_ = REDISMODULE_KEYTYPE_EMPTY;
    module_type_ = nullptr;
    stored_ = nullptr;
  }

 private:
  // value() and snapshot() of a compact form, out of line: the commands'
  // hot path inlines only the tests above (filter_key.cpp).
  FilterValue *make_live(std::string *error);
  FilterValue *expand_for_read(std::string *error);

  MemoryLimitScope limit_;
  RedisModuleKey *key_;
  bool writable_;
  int key_type_;
  const RedisModuleType *module_type_ = nullptr;
  // The key's value, kept up to date by set(), value() and remove(); NULL
  // for an empty key or another type.
  StoredValue *stored_ = nullptr;
  // A compact form expanded for a read (snapshot()).
  std::unique_ptr<FilterValue> expanded_;
};

// Replies with msg, or with Redis's own OOM error when an allocation of
// this command was refused by maxmemory (that failure reached here as
// "out of memory").
inline int reply_error(RedisModuleCtx *ctx, const std::string &msg) {
  return RedisModule_ReplyWithError(ctx, refused_by_maxmemory() ? kOomError : msg.c_str());
}

inline constexpr const char *kLoadingError =
    "ERR the filter is being restored by BF.LOADCHUNK and is not usable until its last chunk arrives";
inline constexpr const char *kNotFound = "ERR not found";

// Which of the replies a key calls for, before a command can use its filter:
// returns true and replies (WRONGTYPE, loading) when the command must stop.
inline bool reject_unusable(RedisModuleCtx *ctx, const FilterKey &key) {
  if (key.wrong_type()) {
    RedisModule_ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
    return true;
  }
  const StoredValue *s = key.stored();
  if (s != nullptr && restoring(s) != nullptr) {
    RedisModule_ReplyWithError(ctx, kLoadingError);
    return true;
  }
  return false;
}

}  // namespace bloom_redis
