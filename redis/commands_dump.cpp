// SPDX-License-Identifier: Apache-2.0
// BF.SCANDUMP and BF.LOADCHUNK: moving a filter in chunks of its serialized
// image (bloom's format v1, the bytes bloom_serialize writes and bloom_load
// reads).
//
// Iterators: the low 40 bits are a byte offset (an image is at most 2^37
// bytes of bits plus its framing). BF.SCANDUMP key 0 returns the first
// chunk with the offset just past it; passing that iterator back returns
// the next chunk; at the end the reply is [0, ""]. The bits above the offset
// carry the filter's write generation when the walk began (mod 2^23): a
// chunk asked for after a write is refused, since the chunks would then mix
// two images (the image's two checksums cover header and payload apart, so
// an old header with a new payload loads, inconsistent). BF.LOADCHUNK key it
// data reads only the offset: the chunk covers [offset - len(data), offset),
// so the first chunk (starting at 0) begins a restore and the one that
// completes the image makes the filter live. The concatenated chunks are
// exactly a file bloom_load reads, and any such file loads through
// BF.LOADCHUNK, with plain byte offsets as iterators.
#include <algorithm>
#include <new>

#include "commands.hpp"
#include "filter_key.hpp"
#include "filter_params.hpp"
#include "image_header.hpp"

namespace bloom_redis {

namespace {
constexpr int kOffsetBits = 40;
constexpr uint64_t kOffsetMask = (uint64_t{1} << kOffsetBits) - 1;
constexpr uint64_t kGenerationMask = (uint64_t{1} << 23) - 1;  // keeps iterators positive

uint64_t offset_of(uint64_t iterator) { return iterator & kOffsetMask; }
uint64_t generation_of(uint64_t iterator) { return iterator >> kOffsetBits; }
uint64_t make_iterator(uint64_t offset, uint64_t generation) {
  return ((generation & kGenerationMask) << kOffsetBits) | offset;
}
}  // namespace

// BF.SCANDUMP key iterator
int cmd_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 3) return RedisModule_WrongArity(ctx);
  long long it = 0;
  if (RedisModule_StringToLongLong(argv[2], &it) != REDISMODULE_OK || it < 0)
    return RedisModule_ReplyWithError(ctx, "ERR bad iterator: must be an integer >= 0");
  FilterKey key(ctx, argv[1], REDISMODULE_READ);
  if (reject_unusable(ctx, key)) return REDISMODULE_OK;
  FilterValue *v = key.value();
  if (v == nullptr) return RedisModule_ReplyWithError(ctx, kNotFound);

  if (it != 0 && generation_of(static_cast<uint64_t>(it)) != (v->generation & kGenerationMask))
    return RedisModule_ReplyWithError(
        ctx, "ERR the filter was written to during this BF.SCANDUMP walk; start again with iterator 0");
  // A new walk, or one whose cached image is gone (another walk ended, or
  // a reload): no write since it began, so serializing again gives the
  // same bytes.
  if (it == 0 || v->dump_image.empty()) {
    std::string error;
    if (!serialize_filter(v->filter, &v->dump_image, &error)) return reply_error(ctx, "ERR " + error);
  }
  const uint64_t size = v->dump_image.size();
  const uint64_t offset = offset_of(static_cast<uint64_t>(it));
  if (offset > size) return RedisModule_ReplyWithError(ctx, "ERR bad iterator: past the end of the filter");
  RedisModule_ReplyWithArray(ctx, 2);
  if (offset == size) {
    v->drop_dump_image();  // the walk is over
    RedisModule_ReplyWithLongLong(ctx, 0);
    return RedisModule_ReplyWithStringBuffer(ctx, "", 0);
  }
  const uint64_t len = std::min<uint64_t>(config().dump_chunk_bytes, size - offset);
  RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(make_iterator(offset + len, v->generation)));
  return RedisModule_ReplyWithStringBuffer(ctx, reinterpret_cast<const char *>(v->dump_image.data()) + offset,
                                           len);
}

namespace {

// Makes the completed image of v a live filter. On failure the key is
// deleted (the image is unusable) and false returned with *error set.
bool finish_restore(FilterKey &key, FilterValue *v, std::string *error) {
  bloom_filter *f = nullptr;
  const int64_t since = library_bytes_net();
  const bloom_status st = bloom_deserialize(v->pending.data(), v->pending.size(), &f);
  FilterValue *live = st == BLOOM_OK ? adopt_filter(f, since, error) : nullptr;
  if (st != BLOOM_OK) *error = bloom_error("the restored filter is invalid", st);
  if (live == nullptr || !key.set(live)) {
    delete live;
    key.remove();
    if (error->empty()) *error = "cannot store the filter";
    return false;
  }
  return true;
}

}  // namespace

// BF.LOADCHUNK key iterator data
int cmd_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 4) return RedisModule_WrongArity(ctx);
  long long it = 0;
  size_t len = 0;
  const auto *data = reinterpret_cast<const unsigned char *>(RedisModule_StringPtrLen(argv[3], &len));
  if (RedisModule_StringToLongLong(argv[2], &it) != REDISMODULE_OK || it < 1 || len == 0 ||
      offset_of(static_cast<uint64_t>(it)) < len)
    return RedisModule_ReplyWithError(
        ctx, "ERR bad chunk: give the iterator BF.SCANDUMP returned with this chunk, and a non-empty chunk");
  const uint64_t offset = offset_of(static_cast<uint64_t>(it)) - len;

  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  if (key.wrong_type()) return RedisModule_ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
  FilterValue *v = key.value();
  try {
    if (offset == 0) {
      // The first chunk starts a restore, replacing whatever filter is here.
      if (len < kImagePrefixBytes)
        return reply_error(ctx, "ERR bad chunk: the first chunk must hold at least the image's first " +
                                    std::to_string(kImagePrefixBytes) + " bytes (its size fields)");
      const uint64_t total = image_total_size(data, len);
      if (total == 0)
        return RedisModule_ReplyWithError(
            ctx, "ERR bad chunk: the first chunk does not start with a bloom filter header (format v1)");
      if (len > total)
        return RedisModule_ReplyWithError(ctx, "ERR bad chunk: longer than the filter it starts");
      // New filters must fit MAX_FILTER_BYTES, restored ones too (with the
      // same allowance for a scalable filter's last stage) -- except
      // while loading the AOF or from the master: those filters were
      // accepted once (a scalable one may exceed the limit by a stage), and
      // refusing them now would lose data.
      const int flags = RedisModule_GetContextFlags(ctx);
      const bool replaying =
          (flags & (REDISMODULE_CTX_FLAGS_LOADING | REDISMODULE_CTX_FLAGS_REPLICATED)) != 0;
      if (!replaying && total > image_size_allowed(data, len, config().max_filter_bytes))
        return reply_error(ctx, "ERR filter too large: the image is " + std::to_string(total) +
                                    " bytes, above the " + std::to_string(config().max_filter_bytes) +
                                    "-byte limit (module argument MAX_FILTER_BYTES)");
      auto *fresh = new FilterValue;
      fresh->pending.assign(data, data + len);
      fresh->pending_total = total;
      if (!key.set(fresh)) {
        delete fresh;
        return RedisModule_ReplyWithError(ctx, "ERR cannot store the filter");
      }
      v = fresh;
    } else {
      if (v == nullptr || !v->loading())
        return RedisModule_ReplyWithError(
            ctx,
            "ERR bad chunk: no restore in progress here; send the first chunk (BF.SCANDUMP's first) first");
      if (offset != v->pending.size())
        return reply_error(ctx, "ERR bad chunk: expected the chunk at offset " +
                                    std::to_string(v->pending.size()) + ", got one at offset " +
                                    std::to_string(offset));
      if (len > v->pending_total - v->pending.size())
        return RedisModule_ReplyWithError(ctx, "ERR bad chunk: past the end of the filter");
      v->pending.insert(v->pending.end(), data, data + len);
    }
  } catch (const std::bad_alloc &) {
    return RedisModule_ReplyWithError(ctx, "ERR out of memory");
  }

  RedisModule_ReplicateVerbatim(ctx);
  if (v->pending.size() == v->pending_total) {
    std::string error;
    if (!finish_restore(key, v, &error)) return reply_error(ctx, "ERR " + error);
  }
  return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

}  // namespace bloom_redis
