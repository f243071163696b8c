// SPDX-License-Identifier: Apache-2.0
// BF.SCANDUMP and BF.LOADCHUNK: moving a filter in chunks, with RedisBloom's
// contract for iterators, so its clients and its data work unchanged.
//
// BF.SCANDUMP key 0 answers [1, header]: the first 128 bytes of bloom's
// image of the filter (format v1, the bytes bloom_serialize writes).
// BF.SCANDUMP key it (it >= 1) answers the chunk at byte it - 1 of the rest
// of the image, [it + len, chunk], and [0, ""] past its end. So iterators
// are small byte positions (below 2^38: safe as JavaScript numbers), and any
// client may continue a walk from any iterator: nothing ties an iterator to
// the walk or client that got it. BF.LOADCHUNK key it data takes them back
// in order: it = 1 is a header, any other chunk covers [it - 1 - len, it - 1)
// of the rest. A negative iterator answers [0, ""], as RedisBloom's does.
//
// Writes during a walk: the walk's chunks come from one serialized image,
// kept while the filter is unchanged; a write drops it, so later chunks
// come from an image of the new filter. A restore assembled across a write
// therefore mixes two images, and its checksums (header and payload apart)
// almost always refuse it at the last chunk ("checksum mismatch"; a
// scalable filter that grew meanwhile changes the image's size, refused as
// "invalid chunk"): start the walk again. The one mix that loads is an old
// header with a payload no chunk of which changed -- the filter then has
// the new bits and the old header's BF.CARD, never a false negative.
// RedisBloom serves its live bits, with the same effect minus the checks.
//
// BF.LOADCHUNK also takes RedisBloom's own BF.SCANDUMP stream: a header
// chunk (at iterator 1) without bloom's magic is RedisBloom's header of its
// sub-filters, and the chunks after it their bits; the last one makes a
// filter of the RedisBloom hash kind that answers exactly as the original
// (redisbloom_chain.hpp). And the iterators of module versions before this
// one (the image's end offset, a walk version above bit 40), which AOF
// files and saved dumps hold: a first chunk whose iterator equals its length
// and starts with the magic begins such a restore, and a chunk continues it
// when its iterator's low 40 bits are the offset just past it.
//
// Errors are RedisBloom's texts where RedisBloom fails the same way.
#include <algorithm>
#include <cstring>
#include <new>

#include "chunk_restore.hpp"
#include "commands.hpp"
#include "filter_key.hpp"
#include "filter_params.hpp"
#include "redisbloom_chain.hpp"

namespace bloom_redis {

namespace {
constexpr uint64_t kHeaderChunk = kHeaderChunkBytes;
constexpr const char *kNotNumeric = "ERR Second argument must be numeric";

int reply_chunk(RedisModuleCtx *ctx, long long next, const unsigned char *data, size_t len) {
  RedisModule_ReplyWithArray(ctx, 2);
  RedisModule_ReplyWithLongLong(ctx, next);
  return RedisModule_ReplyWithStringBuffer(ctx, reinterpret_cast<const char *>(data), len);
}

// A key of RedisBloom's type walks as RedisBloom walks it, so RedisBloom's
// BF.LOADCHUNK takes the stream: [1, its header of the sub-filters], then
// the sub-filters' bits, iterator 1 + the byte position in them, a chunk
// never crossing from one sub-filter to the next; [0, ""] past the end.
// The chain comes from the filter's cached image (its bits are not copied).
int scandump_redisbloom(RedisModuleCtx *ctx, FilterValue *v, const ServerBytes &image, uint64_t it) {
  RbChain chain;
  std::vector<const unsigned char *> link_bits;
  std::string why;
  if (!image_to_rb_chain(image.data(), image.size(), &chain, &link_bits, &why))
    return reply_error(ctx, "ERR " + why);
  if (it == 0) {
    const ServerBytes header = rb_header_bytes(chain);
    return reply_chunk(ctx, 1, header.data(), header.size());
  }
  uint64_t offset = it - 1;
  for (size_t i = 0; i < chain.links.size(); ++i) {
    const uint64_t bytes = chain.links[i].bytes();
    if (offset < bytes) {
      const uint64_t len = std::min<uint64_t>(config().dump_chunk_bytes, bytes - offset);
      return reply_chunk(ctx, static_cast<long long>(it + len), link_bits[i] + offset, len);
    }
    offset -= bytes;
  }
  v->drop_dump_image();  // the walk is over
  return reply_chunk(ctx, 0, nullptr, 0);
}
}  // namespace

// BF.SCANDUMP key iterator
int cmd_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 3) return RedisModule_WrongArity(ctx);
  long long it = 0;
  if (RedisModule_StringToLongLong(argv[2], &it) != REDISMODULE_OK)
    return RedisModule_ReplyWithError(ctx, kNotNumeric);
  FilterKey key(ctx, argv[1], REDISMODULE_READ);
  if (reject_unusable(ctx, key)) return REDISMODULE_OK;
  if (key.empty()) return RedisModule_ReplyWithError(ctx, kNotFound);
  // A compact form's image is rebuilt for each chunk (a small filter's
  // image costs microseconds), and is the same while the filter is.
  std::string expand_error;
  FilterValue *v = key.snapshot(&expand_error);
  if (v == nullptr) return reply_error(ctx, expand_error);
  if (it < 0) return reply_chunk(ctx, 0, nullptr, 0);

  // Serialized once while the filter is unchanged (a write drops it), so
  // a walk costs one serialization whoever continues it.
  const bool cached = v->transfer != nullptr && !v->transfer->dump_image.empty();
  if (!cached) {
    std::string error;
    bool serialized = false;
    try {
      serialized = serialize_filter(v->filter, &v->transfer_state().dump_image, &error);
    } catch (const std::bad_alloc &) {
      error = "serializing: out of memory";
    }
    if (!serialized) {
      v->drop_dump_image();
      return reply_error(ctx, "ERR " + error);
    }
  }
  const ServerBytes &image = v->transfer->dump_image;
  if (key.redisbloom_type()) return scandump_redisbloom(ctx, v, image, static_cast<uint64_t>(it));
  const uint64_t size = image.size();  // > kHeaderChunk: 128 + payload + 8
  if (it == 0) return reply_chunk(ctx, 1, image.data(), kHeaderChunk);
  const uint64_t at = kHeaderChunk + static_cast<uint64_t>(it) - 1;
  if (static_cast<uint64_t>(it) - 1 >= size - kHeaderChunk) {
    v->drop_dump_image();  // the walk is over
    return reply_chunk(ctx, 0, nullptr, 0);
  }
  const uint64_t len = std::min<uint64_t>(config().dump_chunk_bytes, size - at);
  return reply_chunk(ctx, it + static_cast<long long>(len), image.data() + at, len);
}

namespace {
// New filters must fit MAX_FILTER_BYTES, restored ones too -- except while
// loading the AOF or from the master: those filters were accepted once,
// and refusing them now would lose data.
bool replaying(RedisModuleCtx *ctx) {
  const int flags = RedisModule_GetContextFlags(ctx);
  return (flags & (REDISMODULE_CTX_FLAGS_LOADING | REDISMODULE_CTX_FLAGS_REPLICATED)) != 0;
}
}  // namespace

// BF.LOADCHUNK key iterator data
int cmd_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  if (argc != 4) return RedisModule_WrongArity(ctx);
  long long it = 0;
  if (RedisModule_StringToLongLong(argv[2], &it) != REDISMODULE_OK)
    return RedisModule_ReplyWithError(ctx, kNotNumeric);
  size_t len = 0;
  const auto *data = reinterpret_cast<const unsigned char *>(RedisModule_StringPtrLen(argv[3], &len));
  if (it < 1) return RedisModule_ReplyWithError(ctx, kBadChunkData);

  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  if (key.wrong_type()) return RedisModule_ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
  const uint64_t limit = replaying(ctx) ? 0 : config().max_filter_bytes;
  // A live key stays live whatever the chunk (apply_chunk only reads it):
  // one that could not be read is not taken for an empty one.
  std::string error;
  FilterValue *v = key.snapshot(&error);
  if (v == nullptr && !key.empty()) return reply_error(ctx, error);
  ChunkOutcome out = apply_chunk(v, static_cast<uint64_t>(it), data, len, limit);
  if (out.taken) RedisModule_ReplicateVerbatim(ctx);
  if (out.store != nullptr && !key.set(out.store)) {
    delete out.store;
    key.remove();
    return RedisModule_ReplyWithError(ctx, "ERR cannot store the filter");
  }
  if (out.remove) key.remove();
  if (!out.error.empty()) return reply_error(ctx, out.error);
  return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

}  // namespace bloom_redis
