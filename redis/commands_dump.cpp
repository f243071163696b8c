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

#include "commands.hpp"
#include "filter_key.hpp"
#include "filter_params.hpp"
#include "image_header.hpp"
#include "redisbloom_chain.hpp"

namespace bloom_redis {

namespace {
constexpr uint64_t kHeaderChunk = 128;  // the first reply: bloom's image header
constexpr uint64_t kLegacyOffsetMask = (uint64_t{1} << 40) - 1;
constexpr unsigned char kMagic[8] = {0x89, 'B', 'L', 'O', 'O', 'M', '\r', '\n'};

constexpr const char *kNotNumeric = "ERR Second argument must be numeric";
constexpr const char *kBadData = "ERR received bad data";
constexpr const char *kNoLink = "ERR invalid offset - no link found";
constexpr const char *kTooBig = "ERR invalid chunk - Too big for current filter";

bool has_magic(const unsigned char *data, size_t len) {
  return len >= sizeof kMagic && std::memcmp(data, kMagic, sizeof kMagic) == 0;
}

int reply_chunk(RedisModuleCtx *ctx, long long next, const unsigned char *data, size_t len) {
  RedisModule_ReplyWithArray(ctx, 2);
  RedisModule_ReplyWithLongLong(ctx, next);
  return RedisModule_ReplyWithStringBuffer(ctx, reinterpret_cast<const char *>(data), len);
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
  FilterValue *v = key.value();
  if (v == nullptr) return RedisModule_ReplyWithError(ctx, kNotFound);
  if (it < 0) return reply_chunk(ctx, 0, nullptr, 0);

  // Serialized once while the filter is unchanged (a write drops it), so
  // a walk costs one serialization whoever continues it.
  if (v->dump_image.empty()) {
    std::string error;
    if (!serialize_filter(v->filter, &v->dump_image, &error)) return reply_error(ctx, "ERR " + error);
  }
  const uint64_t size = v->dump_image.size();  // > kHeaderChunk: 128 + payload + 8
  if (it == 0) return reply_chunk(ctx, 1, v->dump_image.data(), kHeaderChunk);
  const uint64_t at = kHeaderChunk + static_cast<uint64_t>(it) - 1;
  if (static_cast<uint64_t>(it) - 1 >= size - kHeaderChunk) {
    v->drop_dump_image();  // the walk is over
    return reply_chunk(ctx, 0, nullptr, 0);
  }
  const uint64_t len = std::min<uint64_t>(config().dump_chunk_bytes, size - at);
  return reply_chunk(ctx, it + static_cast<long long>(len), v->dump_image.data() + at, len);
}

namespace {

// Makes the completed restore of v a live filter. On failure the key is
// deleted (the data is unusable) and false returned with *error set.
bool finish_restore(FilterKey &key, FilterValue *v, std::string *error) {
  ServerBytes converted;
  const ServerBytes *image = &v->pending;
  if (!v->rb_header.empty()) {
    RbChain chain;
    bool ok = parse_rb_header(v->rb_header.data(), v->rb_header.size(), &chain, error);
    // A restore read back from an RDB file declares its total apart from
    // the header: the bits must be exactly what the header describes.
    if (ok && chain.bit_bytes() != v->pending.size()) {
      *error = "the sub-filters' bits do not match RedisBloom's header";
      ok = false;
    }
    if (!ok || !rb_chain_to_image(chain, v->pending.data(), &converted, error)) {
      key.remove();
      return false;
    }
    image = &converted;
  }
  bloom_filter *f = nullptr;
  const int64_t since = library_bytes_net();
  const bloom_status st = bloom_deserialize(image->data(), image->size(), &f);
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

// New filters must fit MAX_FILTER_BYTES, restored ones too (with the same
// allowance for a scalable filter's last stage) -- except while loading
// the AOF or from the master: those filters were accepted once, and
// refusing them now would lose data.
bool replaying(RedisModuleCtx *ctx) {
  const int flags = RedisModule_GetContextFlags(ctx);
  return (flags & (REDISMODULE_CTX_FLAGS_LOADING | REDISMODULE_CTX_FLAGS_REPLICATED)) != 0;
}

std::string too_large(uint64_t total) {
  return "ERR filter too large: the image is " + std::to_string(total) + " bytes, above the " +
         std::to_string(config().max_filter_bytes) + "-byte limit (module argument MAX_FILTER_BYTES)";
}

// The first chunk of a restore: a new value holding it, or a reply.
// Returns the value stored at the key, or NULL after replying.
FilterValue *start_restore(RedisModuleCtx *ctx, FilterKey &key, const unsigned char *data, size_t len,
                           bool redisbloom) {
  auto *fresh = new FilterValue;
  if (redisbloom) {
    RbChain chain;
    std::string why;
    if (!parse_rb_header(data, len, &chain, &why)) {
      delete fresh;
      RedisModule_Log(ctx, "verbose", "bloom: BF.LOADCHUNK refused RedisBloom's header: %s", why.c_str());
      RedisModule_ReplyWithError(ctx, kBadData);
      return nullptr;
    }
    const uint64_t total = chain.bit_bytes();
    const double allowed = static_cast<double>(config().max_filter_bytes) *
                           (chain.nonscaling() ? 1.0 : 1.0 + 1.1 * static_cast<double>(chain.growth));
    if (!replaying(ctx) && static_cast<double>(total) > allowed) {
      delete fresh;
      reply_error(ctx, too_large(total));
      return nullptr;
    }
    fresh->rb_header.assign(data, data + len);
    fresh->pending_total = total;
  } else {
    if (len < kImagePrefixBytes) {
      delete fresh;
      RedisModule_ReplyWithError(ctx,
                                 ("ERR bad chunk: the first chunk must hold at least the image's first " +
                                  std::to_string(kImagePrefixBytes) + " bytes (its size fields)")
                                     .c_str());
      return nullptr;
    }
    const uint64_t total = image_total_size(data, len);
    if (total == 0 || len > total) {
      delete fresh;
      RedisModule_ReplyWithError(ctx, kBadData);
      return nullptr;
    }
    if (!replaying(ctx) && total > image_size_allowed(data, len, config().max_filter_bytes)) {
      delete fresh;
      reply_error(ctx, too_large(total));
      return nullptr;
    }
    fresh->pending.assign(data, data + len);
    fresh->pending_total = total;
  }
  if (!key.set(fresh)) {
    delete fresh;
    RedisModule_ReplyWithError(ctx, "ERR cannot store the filter");
    return nullptr;
  }
  return fresh;
}

// Where a chunk with iterator `it` of `len` bytes goes in v's restore,
// given that it must continue it (v->pending.size()); nullptr-free: returns
// an error text, or nullptr when it fits.
const char *place_chunk(const FilterValue &v, uint64_t it, uint64_t len) {
  const uint64_t have = v.pending.size();
  const uint64_t total = v.pending_total;
  // RedisBloom's stream: positions in its sub-filters' bits. bloom's
  // image: positions after its 128-byte header chunk, or (older module
  // versions) the end offset in the whole image.
  const bool rb = !v.rb_header.empty();
  const uint64_t base = rb ? 0 : kHeaderChunk;
  const bool fresh_form = it >= len + 1;
  const uint64_t pos = fresh_form ? base + (it - 1 - len) : UINT64_MAX;
  const uint64_t legacy = it & kLegacyOffsetMask;
  if (pos == have || (!rb && legacy >= len && legacy - len == have))
    return len > total - have ? kTooBig : nullptr;
  if (!fresh_form) return kBadData;
  if (pos >= total) return kNoLink;
  if (len > total - pos) return kTooBig;
  return "ERR invalid offset - chunks must be loaded in the order BF.SCANDUMP returned them";
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
  if (it < 1 || len == 0) return RedisModule_ReplyWithError(ctx, kBadData);
  const auto iter = static_cast<uint64_t>(it);

  FilterKey key(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  if (key.wrong_type()) return RedisModule_ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
  FilterValue *v = key.value();
  // A header (iterator 1) or an older version's first chunk starts a
  // restore. A header does not replace a live filter (RedisBloom refuses
  // it too); it does restart an unfinished restore.
  const bool header = iter == 1;
  const bool legacy_first = !header && (iter & kLegacyOffsetMask) == len && has_magic(data, len);
  try {
    if (header || legacy_first) {
      if (header && v != nullptr && !v->loading()) return RedisModule_ReplyWithError(ctx, kBadData);
      v = start_restore(ctx, key, data, len, header && !has_magic(data, len));
      if (v == nullptr) return REDISMODULE_OK;
    } else {
      if (v == nullptr) return RedisModule_ReplyWithError(ctx, kNotFound);
      if (!v->loading()) return RedisModule_ReplyWithError(ctx, kBadData);
      if (const char *err = place_chunk(*v, iter, len)) return RedisModule_ReplyWithError(ctx, err);
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
