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

#include "filter_key.hpp"
#include "filter_type.hpp"
#include "redisbloom_chain.hpp"

namespace bloom_redis {

RedisModuleType *g_rb_type = nullptr;

namespace {

// RedisBloom's encodings: 2 added the options, 4 the growth (2 before).
constexpr int kRbOptionsEncoding = 2;
constexpr int kRbGrowthEncoding = 4;

void *rb_rdb_load(RedisModuleIO *io, int encver) {
  if (encver < kRbOptionsEncoding || encver > kRbEncoding) {
    RedisModule_LogIOError(io, "warning",
                           "RedisBloom filter: encoding %d is not one this module reads (2..4; 0 and 1 are "
                           "RedisBloom 1.x's 32-bit hashing)",
                           encver);
    return nullptr;
  }
  RbChain chain;
  chain.size = RedisModule_LoadUnsigned(io);
  const uint64_t n = RedisModule_LoadUnsigned(io);
  chain.options = RedisModule_LoadUnsigned(io);
  chain.growth = encver >= kRbGrowthEncoding ? RedisModule_LoadUnsigned(io) : 2;
  if (RedisModule_IsIOError(io)) return nullptr;
  if (n < 1 || n > kRbMaxLinks) {
    RedisModule_LogIOError(io, "warning", "RedisBloom filter: %llu sub-filters (1..%llu are accepted)",
                           static_cast<unsigned long long>(n), static_cast<unsigned long long>(kRbMaxLinks));
    return nullptr;
  }
  std::string why;
  ServerBytes bits;
  try {
    chain.links.resize(n);
    for (RbLink &l : chain.links) {
      l.entries = RedisModule_LoadUnsigned(io);
      l.error = RedisModule_LoadDouble(io);
      l.hashes = RedisModule_LoadUnsigned(io);
      l.bpe = RedisModule_LoadDouble(io);
      l.bits = RedisModule_LoadUnsigned(io);
      l.n2 = RedisModule_LoadUnsigned(io);
      if (RedisModule_IsIOError(io)) return nullptr;
      size_t len = 0;
      char *buf = RedisModule_LoadStringBuffer(io, &len);
      if (RedisModule_IsIOError(io) || buf == nullptr) return nullptr;
      // Only what was read is kept: the total grows with the data itself.
      const bool fits = len == l.bits / 8 && l.bits % 8 == 0;
      if (fits) bits.insert(bits.end(), buf, buf + len);
      RedisModule_Free(buf);
      if (!fits) {
        RedisModule_LogIOError(io, "warning", "RedisBloom filter: a sub-filter of %llu bits holds %zu bytes",
                               static_cast<unsigned long long>(l.bits), len);
        return nullptr;
      }
      l.size = RedisModule_LoadUnsigned(io);
      if (RedisModule_IsIOError(io)) return nullptr;
    }
  } catch (const std::bad_alloc &) {
    RedisModule_LogIOError(io, "warning", "RedisBloom filter: out of memory");
    return nullptr;
  }
  ServerBytes image;
  if (!check_rb_chain(chain, &why) || !rb_chain_to_image(chain, bits.data(), &image, &why)) {
    RedisModule_LogIOError(io, "warning", "RedisBloom filter: cannot load: %s", why.c_str());
    return nullptr;
  }
  bits = ServerBytes();
  bloom_filter *f = nullptr;
  const int64_t since = library_bytes_net();
  const bloom_status st = bloom_deserialize(image.data(), image.size(), &f);
  FilterValue *v = nullptr;
  if (st == BLOOM_OK)
    v = adopt_filter(f, since, &why);
  else
    why = bloom_error("building the filter", st);
  if (v == nullptr) RedisModule_LogIOError(io, "warning", "RedisBloom filter: cannot load: %s", why.c_str());
  return v;
}

void rb_rdb_save(RedisModuleIO *io, void *value) {
  const auto *v = static_cast<const FilterValue *>(value);
  ServerBytes image;
  RbChain chain;
  std::vector<const unsigned char *> link_bits;
  std::string why;
  if (v->loading() || !serialize_filter(v->filter, &image, &why) ||
      !image_to_rb_chain(image.data(), image.size(), &chain, &link_bits, &why)) {
    // Not reachable for values this type holds (RedisBloom's chains, live);
    // an allocation failure is. A chain of no sub-filters makes the load
    // report the loss rather than restore a wrong filter.
    RedisModule_LogIOError(io, "warning", "RedisBloom filter: cannot save: %s",
                           v->loading() ? "a restore in progress" : why.c_str());
    chain = RbChain();
    link_bits.clear();
  }
  RedisModule_SaveUnsigned(io, chain.size);
  RedisModule_SaveUnsigned(io, chain.links.size());
  RedisModule_SaveUnsigned(io, chain.options);
  RedisModule_SaveUnsigned(io, chain.growth);
  for (size_t i = 0; i < chain.links.size(); ++i) {
    const RbLink &l = chain.links[i];
    RedisModule_SaveUnsigned(io, l.entries);
    RedisModule_SaveDouble(io, l.error);
    RedisModule_SaveUnsigned(io, l.hashes);
    RedisModule_SaveDouble(io, l.bpe);
    RedisModule_SaveUnsigned(io, l.bits);
    RedisModule_SaveUnsigned(io, 0);  // n2: sizes are not powers of two
    RedisModule_SaveStringBuffer(io, reinterpret_cast<const char *>(link_bits[i]), l.bytes());
    RedisModule_SaveUnsigned(io, l.size);
  }
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
