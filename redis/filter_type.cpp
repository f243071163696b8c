// SPDX-License-Identifier: Apache-2.0
#include "filter_type.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "admit_filter.hpp"
#include "compact_filter.hpp"
#include "filter_key.hpp"
#include "filter_params.hpp"
#include "redisbloom_chain.hpp"
#include "redisbloom_encoding.hpp"
#include "save_failure.hpp"

namespace bloom_redis {

RedisModuleType *g_filter_type = nullptr;

StoredValue *stored_form(FilterValue *v) {
  CompactFilter *c = compact_form(*v);
  if (c == nullptr) return v;
  delete v;
  return c;
}

namespace {

// A value callback's argument, in either form.
StoredValue *stored_of(void *value) { return static_cast<StoredValue *>(value); }
const StoredValue *stored_of(const void *value) { return static_cast<const StoredValue *>(value); }

// kRestoringRedisBloom: a BF.LOADCHUNK restore of RedisBloom's stream
// (its header, then its bits so far); module versions before it refuse
// such an RDB value instead of misreading it.
enum State : uint64_t { kLive = 0, kRestoring = 1, kRestoringRedisBloom = 2 };

void *rdb_load(RedisModuleIO *io, int encver) {
  if (encver != kFilterTypeEncoding) {
    RedisModule_LogIOError(io, "warning", "bloom filter: unknown RDB encoding %d (this module reads %d)",
                           encver, kFilterTypeEncoding);
    return nullptr;
  }
  const uint64_t state = RedisModule_LoadUnsigned(io);
  const uint64_t total = state != kLive ? RedisModule_LoadUnsigned(io) : 0;
  if (RedisModule_IsIOError(io)) return nullptr;
  size_t header_len = 0;
  char *header = state == kRestoringRedisBloom ? RedisModule_LoadStringBuffer(io, &header_len) : nullptr;
  if (RedisModule_IsIOError(io) || (state == kRestoringRedisBloom && header == nullptr)) return nullptr;
  size_t len = 0;
  char *buf = RedisModule_LoadStringBuffer(io, &len);
  if (RedisModule_IsIOError(io) || buf == nullptr) {
    if (header != nullptr) RedisModule_Free(header);
    return nullptr;
  }

  FilterValue *v = nullptr;
  std::string error;
  if (state == kLive) {
    v = admit_image(reinterpret_cast<const unsigned char *>(buf), len, &error);
  } else if ((state == kRestoring || state == kRestoringRedisBloom) && len <= total) {
    v = FilterValue::new_restore();
    if (v != nullptr) {
      try {
        v->transfer->pending.assign(buf, buf + len);
        v->transfer->pending_total = total;
        if (header != nullptr) v->transfer->rb_header.assign(header, header + header_len);
      } catch (const std::bad_alloc &) {
        delete v;
        v = nullptr;
      }
    }
  } else {
    error = "unknown state " + std::to_string(state);
  }
  RedisModule_Free(buf);
  if (header != nullptr) RedisModule_Free(header);
  if (v == nullptr) {
    RedisModule_LogIOError(io, "warning", "bloom filter: cannot load: %s", error.c_str());
    return nullptr;
  }
  return stored_form(v);
}

void rdb_save(RedisModuleIO *io, void *value) {
  const StoredValue *s = stored_of(value);
  if (const FilterValue *v = restoring(s)) {
    const Transfer &t = *v->transfer;
    const bool rb = !t.rb_header.empty();
    RedisModule_SaveUnsigned(io, rb ? kRestoringRedisBloom : kRestoring);
    RedisModule_SaveUnsigned(io, t.pending_total);
    if (rb)
      RedisModule_SaveStringBuffer(io, reinterpret_cast<const char *>(t.rb_header.data()),
                                   t.rb_header.size());
    RedisModule_SaveStringBuffer(io, reinterpret_cast<const char *>(t.pending.data()), t.pending.size());
    return;
  }
  ServerBytes image;
  std::string error;
  // Only an allocation failure gets here (save_failure.hpp).
  if (!live_image(*s, &image, &error)) fail_save(io, "bloom filter", error);
  RedisModule_SaveUnsigned(io, kLive);
  RedisModule_SaveStringBuffer(io, reinterpret_cast<const char *>(image.data()), image.size());
}

// The AOF gets the filter as the BF.LOADCHUNK commands that rebuild it.
void emit_chunks(RedisModuleIO *aof, RedisModuleString *key, const ServerBytes &image) {
  const uint64_t chunk = config().dump_chunk_bytes;
  for (uint64_t off = 0; off < image.size();) {
    const uint64_t len = std::min<uint64_t>(chunk, image.size() - off);
    RedisModule_EmitAOF(aof, "BF.LOADCHUNK", "slb", key, static_cast<long long>(off + len),
                        reinterpret_cast<const char *>(image.data()) + off, static_cast<size_t>(len));
    off += len;
  }
}

// A restore of RedisBloom's stream: its header at iterator 1, then its bits
// so far at RedisBloom's iterators (1 + the end of each chunk).
void emit_redisbloom_chunks(RedisModuleIO *aof, RedisModuleString *key, const Transfer &t) {
  RedisModule_EmitAOF(aof, "BF.LOADCHUNK", "slb", key, 1LL,
                      reinterpret_cast<const char *>(t.rb_header.data()), t.rb_header.size());
  const uint64_t chunk = config().dump_chunk_bytes;
  for (uint64_t off = 0; off < t.pending.size();) {
    const uint64_t len = std::min<uint64_t>(chunk, t.pending.size() - off);
    RedisModule_EmitAOF(aof, "BF.LOADCHUNK", "slb", key, static_cast<long long>(1 + off + len),
                        reinterpret_cast<const char *>(t.pending.data()) + off, static_cast<size_t>(len));
    off += len;
  }
}

void aof_rewrite(RedisModuleIO *aof, RedisModuleString *key, void *value) {
  const StoredValue *s = stored_of(value);
  if (const FilterValue *v = restoring(s)) {
    if (!v->transfer->rb_header.empty())
      emit_redisbloom_chunks(aof, key, *v->transfer);
    else
      emit_chunks(aof, key, v->transfer->pending);
    return;
  }
  ServerBytes image;
  std::string error;
  if (!live_image(*s, &image, &error)) {
    RedisModule_LogIOError(aof, "warning", "bloom filter: cannot rewrite: %s", error.c_str());
    return;
  }
  emit_chunks(aof, key, image);
}

size_t mem_usage(const void *value) {
  if (const CompactFilter *c = as_compact(stored_of(value))) return compact_memory(*c);
  return value_memory(*static_cast<const FilterValue *>(value));
}

void free_value(void *value) {
  if (CompactFilter *c = as_compact(stored_of(value)))
    delete c;
  else
    delete static_cast<FilterValue *>(value);
}

// Freeing a filter is a handful of free() calls whatever its size (a value,
// its arrays, a scalable filter's stages), so under lazyfree Redis frees it
// at once instead of on its background thread (it does so above an effort
// of 64; 0, the default, would mean "unknown, the most"): memory an
// eviction frees is then free before the next command is admitted.
size_t free_effort(RedisModuleString *, const void *value) {
  if (as_compact(stored_of(value)) != nullptr) return 2;
  const auto *v = static_cast<const FilterValue *>(value);
  if (v->filter == nullptr) return 1;
  // Cached (bloom_get_info would count every bit); stages added since it
  // was read are not counted, which an estimate can spare.
  return 2 + v->shape.stages;
}

// Digests the bytes an RDB save writes for the value's data: RedisBloom's
// chain for a value that saves as one (its counts are the chain's, so a
// replica loaded from the RDB digests as its master), else bloom's image.
struct DigestOut {
  RedisModuleDigest *md;
  void save_unsigned(uint64_t v) {
    char bytes[8];
    std::memcpy(bytes, &v, sizeof bytes);
    RedisModule_DigestAddStringBuffer(md, bytes, sizeof bytes);
  }
  void save_double(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    save_unsigned(bits);
  }
  void save_bytes(const unsigned char *p, uint64_t n) {
    RedisModule_DigestAddStringBuffer(md, reinterpret_cast<const char *>(p), n);
  }
};

void digest_image(RedisModuleDigest *md, const ServerBytes &image, bool redisbloom_form) {
  RbChain chain;
  std::vector<const unsigned char *> link_bits;
  std::string why;
  DigestOut out{md};
  if (redisbloom_form && image_to_rb_chain(image.data(), image.size(), &chain, &link_bits, &why))
    write_rb_encoding(out, chain, link_bits);
  else
    out.save_bytes(image.data(), image.size());
  RedisModule_DigestEndSequence(md);
}

void digest(RedisModuleDigest *md, void *value) {
  const StoredValue *s = stored_of(value);
  const FilterValue *v = restoring(s);
  // The live filter's digest: a key digests alike in either form.
  if (v == nullptr) {
    const CompactFilter *c = as_compact(s);
    ServerBytes image;
    std::string error;
    live_image(*s, &image, &error);
    digest_image(md, image,
                 c != nullptr ? (c->flags & CompactFilter::kRedisBloomForm) != 0
                              : static_cast<const FilterValue *>(s)->redisbloom_form);
    return;
  }
  if (!v->transfer->rb_header.empty())
    RedisModule_DigestAddStringBuffer(md, reinterpret_cast<const char *>(v->transfer->rb_header.data()),
                                      v->transfer->rb_header.size());
  RedisModule_DigestAddStringBuffer(md, reinterpret_cast<const char *>(v->transfer->pending.data()),
                                    v->transfer->pending.size());
  RedisModule_DigestEndSequence(md);
}

void *copy_value(RedisModuleString *, RedisModuleString *, const void *value) {
  if (const CompactFilter *c = as_compact(stored_of(value))) return copy_compact(*c);
  const auto *v = static_cast<const FilterValue *>(value);
  try {
    if (v->loading()) {
      std::unique_ptr<FilterValue> c(FilterValue::new_restore());
      if (c == nullptr) return nullptr;
      c->transfer->pending = v->transfer->pending;
      c->transfer->pending_total = v->transfer->pending_total;
      c->transfer->rb_header = v->transfer->rb_header;
      return c.release();
    }
  } catch (const std::bad_alloc &) {
    return nullptr;
  }
  bloom_filter *f = nullptr;
  const int64_t since = library_bytes_net();
  if (bloom_clone(v->filter, &f) != BLOOM_OK) return nullptr;
  std::string error;
  FilterValue *copy = adopt_filter(f, since, &error);
  if (copy == nullptr) return nullptr;
  // Saved, digested and typed as the original is.
  copy->redisbloom_form = v->redisbloom_form;
  return stored_form(copy);
}

}  // namespace

void set_shared_type_methods(RedisModuleTypeMethods *tm) {
  tm->version = BLOOM_REDIS_TYPE_METHOD_VERSION;
  tm->aof_rewrite = aof_rewrite;
  tm->mem_usage = mem_usage;
  tm->digest = digest;
  tm->free = free_value;
  tm->free_effort = free_effort;
  tm->copy = copy_value;
}

int register_filter_type(RedisModuleCtx *ctx) {
  RedisModuleTypeMethods tm{};
  set_shared_type_methods(&tm);
  tm.rdb_load = rdb_load;
  tm.rdb_save = rdb_save;
  // Exactly 9 characters, as Redis requires of type names.
  g_filter_type = RedisModule_CreateDataType(ctx, "bloomfltr", kFilterTypeEncoding, &tm);
  return g_filter_type != nullptr ? REDISMODULE_OK : REDISMODULE_ERR;
}

}  // namespace bloom_redis
