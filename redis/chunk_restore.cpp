// SPDX-License-Identifier: Apache-2.0
#include "chunk_restore.hpp"

#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "admit_filter.hpp"
#include "image_header.hpp"
#include "redisbloom_chain.hpp"

namespace bloom_redis {

namespace {

constexpr unsigned char kMagic[8] = {0x89, 'B', 'L', 'O', 'O', 'M', '\r', '\n'};
constexpr const char *kNoLink = "ERR invalid offset - no link found";
constexpr const char *kTooBig = "ERR invalid chunk - Too big for current filter";

bool has_magic(const unsigned char *data, size_t len) {
  return len >= sizeof kMagic && std::memcmp(data, kMagic, sizeof kMagic) == 0;
}

std::string too_large(uint64_t total, uint64_t limit) {
  return "ERR filter too large: the image is " + std::to_string(total) + " bytes, above the " +
         std::to_string(limit) + "-byte limit (config bf-max-filter-bytes, module argument MAX_FILTER_BYTES)";
}

// The first chunk of a restore, into a new value: the error reply, or ""
// with *out holding the value. The size a restore may reach is the size of
// the filter it makes (its serialized image), the figure the module holds
// its own filters to when they grow: a filter this module made under the
// same limit always fits, whatever its expansion.
std::string begin_restore(const unsigned char *data, size_t len, bool redisbloom, uint64_t max_bytes,
                          FilterValue **out) {
  *out = nullptr;
  uint64_t total = 0, filter_size = 0;
  if (redisbloom) {
    RbChain chain;
    std::string why;
    if (!parse_rb_header(data, len, &chain, &why)) return kBadChunkData;
    total = chain.bit_bytes();
    filter_size = rb_image_size(chain);
  } else {
    if (len < kImagePrefixBytes)
      return "ERR bad chunk: the first chunk must hold at least the image's first " +
             std::to_string(kImagePrefixBytes) + " bytes (its size fields)";
    total = image_total_size(data, len);
    if (total == 0 || len > total) return kBadChunkData;
    filter_size = total;
  }
  if (max_bytes != 0 && filter_size > max_bytes) return too_large(filter_size, max_bytes);
  std::unique_ptr<FilterValue> fresh(FilterValue::new_restore());
  if (fresh == nullptr) throw std::bad_alloc();
  Transfer &t = *fresh->transfer;
  if (redisbloom)
    t.rb_header.assign(data, data + len);
  else
    t.pending.assign(data, data + len);
  t.pending_total = total;
  *out = fresh.release();
  return "";
}

// Whether a chunk with iterator `it` of `len` bytes continues v's restore
// (v.pending.size() bytes so far): nullptr, or the error reply.
const char *place_chunk(const Transfer &v, uint64_t it, uint64_t len) {
  const uint64_t have = v.pending.size();
  const uint64_t total = v.pending_total;
  // RedisBloom's stream: positions in its sub-filters' bits. bloom's
  // image: positions after its 128-byte header chunk, or (older module
  // versions) the end offset in the whole image.
  const bool rb = !v.rb_header.empty();
  const uint64_t base = rb ? 0 : kHeaderChunkBytes;
  const bool fresh_form = it >= len + 1;
  const uint64_t pos = fresh_form ? base + (it - 1 - len) : UINT64_MAX;
  const uint64_t legacy = it & kLegacyOffsetMask;
  if (pos == have || (!rb && legacy >= len && legacy - len == have))
    return len > total - have ? kTooBig : nullptr;
  if (!fresh_form) return kBadChunkData;
  if (pos >= total) return kNoLink;
  if (len > total - pos) return kTooBig;
  return "ERR invalid offset - chunks must be loaded in the order BF.SCANDUMP returned them";
}

// The live filter a complete restore makes, or NULL with *why set.
FilterValue *finish_restore(const Transfer &v, std::string *why) {
  if (v.rb_header.empty()) {
    FilterValue *live = admit_image(v.pending.data(), v.pending.size(), why);
    RbChain chain;
    std::vector<const unsigned char *> links;
    std::string not_rb;
    if (live != nullptr)
      live->redisbloom_form = image_to_rb_chain(v.pending.data(), v.pending.size(), &chain, &links, &not_rb);
    return live;
  }
  RbChain chain;
  if (!parse_rb_header(v.rb_header.data(), v.rb_header.size(), &chain, why)) return nullptr;
  // A restore read back from an RDB file declares its total apart from
  // the header: the bits must be exactly what the header describes.
  if (chain.bit_bytes() != v.pending.size()) {
    *why = "the sub-filters' bits do not match RedisBloom's header";
    return nullptr;
  }
  return admit_rb_chain(chain, v.pending.data(), why);
}

}  // namespace

ChunkOutcome apply_chunk(FilterValue *current, uint64_t iter, const unsigned char *data, size_t len,
                         uint64_t max_bytes) {
  ChunkOutcome out;
  if (iter < 1 || len == 0) {
    out.error = kBadChunkData;
    return out;
  }
  FilterValue *v = current;
  const bool header = iter == 1;
  const bool legacy_first = !header && (iter & kLegacyOffsetMask) == len && has_magic(data, len);
  try {
    if (header || legacy_first) {
      // Neither form of first chunk replaces a live filter: only an empty
      // key or an unfinished restore (which it restarts).
      if (v != nullptr && !v->loading()) {
        out.error = kBadChunkData;
        return out;
      }
      out.error = begin_restore(data, len, header && !has_magic(data, len), max_bytes, &v);
      if (v == nullptr) return out;
      out.store = v;
    } else {
      if (v == nullptr) {
        out.error = "ERR not found";
        return out;
      }
      if (!v->loading()) {
        out.error = kBadChunkData;
        return out;
      }
      if (const char *err = place_chunk(*v->transfer, iter, len)) {
        out.error = err;
        return out;
      }
      v->transfer->pending.insert(v->transfer->pending.end(), data, data + len);
    }
  } catch (const std::bad_alloc &) {
    delete out.store;
    out.store = nullptr;
    out.error = "ERR out of memory";
    return out;
  }
  out.taken = true;
  if (v->transfer->pending.size() != v->transfer->pending_total) return out;
  std::string why;
  FilterValue *live = finish_restore(*v->transfer, &why);
  if (out.store != nullptr) delete out.store;  // a one-chunk restore: never stored
  out.store = live;
  if (live == nullptr) {
    out.remove = true;
    out.error = "ERR the restored filter is invalid: " + why;
  }
  return out;
}

}  // namespace bloom_redis
