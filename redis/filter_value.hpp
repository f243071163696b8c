// SPDX-License-Identifier: Apache-2.0
// filter_value.hpp -- what a Redis key of the bloom type holds.
//
// Normally a live bloom filter. While BF.LOADCHUNK is restoring a filter
// chunk by chunk, it holds the part of the serialized image received so far
// instead; the filter becomes live when the last byte arrives. The buffer
// grows only with data actually sent, so a forged header cannot make the
// server allocate more than the client transferred.
#pragma once

#include <bloom/bloom.h>

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "server_allocator.hpp"

namespace bloom_redis {

// The parameters of a filter that the commands read without counting its
// bits (bloom_info less its fill-derived fields).
struct FilterShape {
  int32_t kind = 0;
  uint32_t stages = 0;
  uint64_t capacity = 0;
  double fp_rate = 0;
  double growth = 0;
  // Bytes of each stage's bits, summed as RedisBloom counts them (whole
  // 64-bit words), for BF.INFO's Size.
  uint64_t bit_bytes = 0;
  // Window filters: the time window (0: a count window) and the clock as
  // last advanced (window_filter.cpp keeps it exact).
  uint64_t window_ms = 0;
  uint64_t clock_ms = 0;
};

// Bytes in transit, which most keys never have: the image a BF.SCANDUMP
// walk keeps, or what a BF.LOADCHUNK restore has received. Kept apart from
// FilterValue, allocated when first needed, so a key pays for it only while
// it moves (inline, its three buffers were a third of a small value).
struct Transfer {
  static void *operator new(size_t bytes) {
    void *p = server_alloc(bytes);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  static void operator delete(void *p) noexcept { server_free(p); }

  // The serialized image of a live filter while BF.SCANDUMP walks it; kept
  // so each chunk does not cost a whole serialization.
  ServerBytes dump_image;
  // While loading: the image received so far and its declared total size.
  // For a restore of RedisBloom's BF.SCANDUMP stream, rb_header holds its
  // first chunk (RedisBloom's header) and pending the bits of its
  // sub-filters so far; empty for bloom's own image.
  ServerBytes pending;
  uint64_t pending_total = 0;
  ServerBytes rb_header;
};

// What a key's value pointer points at, in either of its two forms: the
// first byte says which (callbacks and FilterKey read it before anything
// else). A FilterValue is the full form, a live bloom filter; a small
// filter is kept as a CompactFilter instead (compact_filter.hpp), its bits
// and a few counts, because a per-user filter of 1,000 items otherwise pays
// 768 bytes of objects beside its 1,024 of bits.
enum class ValueForm : uint8_t { kFull = 0, kCompact = 1 };
struct StoredValue {
  ValueForm form = ValueForm::kFull;
};

// 96 bytes on 64-bit hosts (filter_value.cpp checks): the form and the
// flags stay together at the start, where they share one 8-byte slot.
struct FilterValue : StoredValue {
  FilterValue() = default;
  FilterValue(const FilterValue &) = delete;
  FilterValue &operator=(const FilterValue &) = delete;
  ~FilterValue() { bloom_destroy(filter); }
  // From Redis's allocator, like everything the value holds.
  static void *operator new(size_t bytes) {
    void *p = server_alloc(bytes);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  static void *operator new(size_t bytes, const std::nothrow_t &) noexcept { return server_alloc(bytes); }
  static void operator delete(void *p) noexcept { server_free(p); }

  // A value for a BF.LOADCHUNK restore (or one read back from an RDB file
  // or copied mid-restore): no filter yet, its transfer state allocated.
  // NULL when out of memory.
  static FilterValue *new_restore() noexcept;

  bool loading() const { return filter == nullptr; }

  // Every write calls this: the image a BF.SCANDUMP walk keeps is of the
  // old filter, so the walk's next chunk comes from a new image
  // (commands_dump.cpp says what that means for the walk). One pointer
  // test on the add path when no walk is under way.
  void touch() {
    if (transfer) drop_dump_image();
  }
  // Ends a BF.SCANDUMP walk's image; a live filter's transfer state goes
  // with it (a restoring value keeps what it received).
  void drop_dump_image();
  // The transfer state, allocated when first needed (throws std::bad_alloc).
  Transfer &transfer_state();
  // Brings `shape` up to date after an add grew the filter (readers of a
  // scalable filter's shape call this first).
  void refresh_stale_shape();

  // A scalable filter grows by stages (up to MAX_FILTER_BYTES); any other
  // kind is non-scaling.
  bool scalable = false;
  // The value's save can write RedisBloom's chain (admit_rb_chain or
  // image_to_rb_chain accepted it, or it was made in RedisBloom's
  // encoding): in bf-encoding redisbloom a key holding it gets RedisBloom's
  // type "MBbloom--" (FilterKey::set).
  bool redisbloom_form = false;
  // Non-scaling kinds that fill: BF.ADD refuses new keys once items reaches
  // shape.capacity, as RedisBloom's NONSCALING filters do. Not set for a
  // filter loaded from a file made with explicit bits (capacity 0): no
  // limit.
  bool fills = false;
  // Whether the kind forgets (a window: BLOOM_CAP_FORGETS), read on every
  // add; kept so the add path asks the library nothing about the kind.
  bool forgets_keys = false;
  // Whether an add of a present key changes nothing, so test-and-add alone
  // tells new from present (not a counting kind, which counts it again).
  bool idempotent_add = false;
  // A stage was added since `shape` was read: add_item only marks it, as
  // bloom_get_info counts every bit (tens of milliseconds for a filter of
  // a few MB, inside the add that happened to grow it); BF.INFO and
  // BF.DEBUG refresh it, once per new stage.
  bool shape_stale = false;

  bloom_filter *filter = nullptr;  // owned; NULL while loading
  // The bytes the library took from Redis's allocator for this filter
  // (library_bytes_net() across the calls that built and grew it).
  int64_t filter_bytes = 0;
  // Keys this filter reports as inserted (BF.CARD): successful adds of new
  // keys, as bloom counts them in bloom_info.keys_added.
  uint64_t items = 0;
  // The filter's parameters as bloom_get_info reported them when the value
  // was made and after each new stage (add_item): BF.INFO and free_effort
  // read them here, as bloom_get_info counts every bit (a second per GB).
  // Only what they read is kept: a value is paid per key, and many keys
  // hold small filters.
  FilterShape shape{};
  // NULL unless a BF.SCANDUMP walk or a BF.LOADCHUNK restore is under way
  // (always set while loading()).
  std::unique_ptr<Transfer> transfer;
};

// Wraps a live filter (taking ownership) and reads its counters; its
// memory is what the library allocated on this thread since `since`, a
// library_bytes_net() read before the calls that built f. On failure
// destroys f and returns NULL with *error set.
FilterValue *adopt_filter(bloom_filter *f, int64_t since, std::string *error);

// The serialized image of a live filter. Returns false with *error set.
bool serialize_filter(const bloom_filter *f, ServerBytes *out, std::string *error);

// Refreshes v->shape from its filter (and clears shape_stale). Returns
// false if bloom_get_info fails.
bool refresh_shape(FilterValue *v);

// Bytes the value occupies in Redis's allocator, for MEMORY USAGE: the
// value, its buffers and its filter, each block as the allocator sized it,
// so MEMORY USAGE and used_memory agree.
size_t value_memory(const FilterValue &v);

// "what: detail" for a failed bloom call, detail from bloom_last_error().
std::string bloom_error(const char *what, int status);

}  // namespace bloom_redis
