// SPDX-License-Identifier: Apache-2.0
// redisbloom_type.cpp -- RedisBloom's data type "MBbloom--", registered so
// that an RDB file written by RedisBloom loads, and RESTORE of its DUMP
// values works: Redis names a module value's type in the data, and hands
// it to the module that registered that name.
//
// Loading reads RedisBloom's encoding (version 4, and the older 2 and 3,
// whose chains lack a growth: 2) field by field, checks it
// (redisbloom_chain.hpp) and builds a filter of the RedisBloom hash kind,
// which answers exactly as RedisBloom did. The key keeps the type
// "MBbloom--" and every BF.* command serves it like a filter of its own
// type. Saving writes RedisBloom's encoding 4 back, so an RDB or DUMP of
// such a key still loads into RedisBloom (a way back during a migration);
// later stages this module adds are sized by RedisBloom's rules, so the
// chain stays one RedisBloom would have built. A filter that replaces the
// value (BF.LOADCHUNK, BF.MERGE into the key) and the AOF rewrite of the
// key (BF.LOADCHUNK commands) give bloom's own type "bloomfltr".
#include <new>
#include <string>

#include "admit_filter.hpp"
#include "compact_filter.hpp"
#include "filter_key.hpp"
#include "filter_type.hpp"
#include "redisbloom_chain.hpp"
#include "redisbloom_encoding.hpp"
#include "save_failure.hpp"

namespace bloom_redis {

RedisModuleType *g_rb_type = nullptr;

namespace {

// Redis's RDB fields for read_rb_encoding / write_rb_encoding.
struct ModuleIn {
  RedisModuleIO *io;
  uint64_t load_unsigned() { return RedisModule_LoadUnsigned(io); }
  double load_double() { return RedisModule_LoadDouble(io); }
  bool load_bytes(ServerBytes *to, uint64_t expected) {
    size_t len = 0;
    char *buf = RedisModule_LoadStringBuffer(io, &len);
    if (RedisModule_IsIOError(io) || buf == nullptr) return false;
    const bool fits = len == expected;
    try {
      if (fits) to->insert(to->end(), buf, buf + len);
    } catch (...) {
      RedisModule_Free(buf);
      throw;
    }
    RedisModule_Free(buf);
    return fits;
  }
  bool failed() const { return RedisModule_IsIOError(io) != 0; }
};

struct ModuleOut {
  RedisModuleIO *io;
  void save_unsigned(uint64_t v) { RedisModule_SaveUnsigned(io, v); }
  void save_double(double v) { RedisModule_SaveDouble(io, v); }
  void save_bytes(const unsigned char *p, uint64_t n) {
    RedisModule_SaveStringBuffer(io, reinterpret_cast<const char *>(p), n);
  }
};

void *rb_rdb_load(RedisModuleIO *io, int encver) {
  RbChain chain;
  ServerBytes bits;
  std::string why;
  ModuleIn in{io};
  FilterValue *v = nullptr;
  try {
    if (read_rb_encoding(in, encver, &chain, &bits, &why)) v = admit_rb_chain(chain, bits.data(), &why);
  } catch (const std::bad_alloc &) {
    why = "out of memory";
  }
  if (v == nullptr) {
    if (!in.failed())
      RedisModule_LogIOError(io, "warning", "RedisBloom filter: cannot load: %s", why.c_str());
    return nullptr;
  }
  return stored_form(v);
}

void rb_rdb_save(RedisModuleIO *io, void *value) {
  const auto *stored = static_cast<const StoredValue *>(value);
  const bool loading = restoring(stored) != nullptr;
  ServerBytes image;
  RbChain chain;
  std::vector<const unsigned char *> link_bits;
  std::string why;
  // image_to_rb_chain ends with check_rb_chain, the check the load runs
  // (admit_rb_chain ran it on the value's way in): a chain the load would
  // refuse is never written.
  if (loading || !live_image(*stored, &image, &why) ||
      !image_to_rb_chain(image.data(), image.size(), &chain, &link_bits, &why))
    fail_save(io, "RedisBloom filter", loading ? "a restore in progress" : why);
  ModuleOut out{io};
  write_rb_encoding(out, chain, link_bits);
}

}  // namespace

int register_redisbloom_type(RedisModuleCtx *ctx) {
  RedisModuleTypeMethods tm{};
  set_shared_type_methods(&tm);
  tm.rdb_load = rb_rdb_load;
  tm.rdb_save = rb_rdb_save;
  g_rb_type = RedisModule_CreateDataType(ctx, kRbTypeName, kRbEncoding, &tm);
  return g_rb_type != nullptr ? REDISMODULE_OK : REDISMODULE_ERR;
}

}  // namespace bloom_redis
