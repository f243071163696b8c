// SPDX-License-Identifier: Apache-2.0
#include "filter_value.hpp"

#include <new>

namespace bloom_redis {

std::string bloom_error(const char *what, int status) {
  const char *detail = bloom_last_error();
  std::string msg = what;
  msg += ": ";
  msg += (detail != nullptr && detail[0] != '\0') ? detail : bloom_strerror(status);
  return msg;
}

// A value is paid per key: one more field past 96 bytes moves every key
// to jemalloc's 112-byte class.
static_assert(sizeof(void *) != 8 || sizeof(FilterValue) <= 96, "FilterValue grew past 96 bytes");

namespace {

// info's parameters, and its stages' bytes of bits as RedisBloom counts
// them: those of `from` (a shape of the same filter with fewer stages)
// plus the stages added since, so a filter that grows stage by stage asks
// for each stage's info once (bloom_get_stage_info counts its bits).
FilterShape shape_of(const bloom_filter *f, const bloom_info &info, const FilterShape &from) {
  FilterShape s;
  s.kind = info.kind;
  s.stages = info.stages;
  s.capacity = info.capacity;
  s.fp_rate = info.fp_rate;
  s.growth = info.growth;
  s.window_ms = info.window_ms;
  s.clock_ms = info.clock_ms;
  s.bit_bytes = from.bit_bytes;
  bloom_info stage;
  stage.struct_size = sizeof stage;
  for (uint32_t i = from.stages; i < info.stages && bloom_get_stage_info(f, i, &stage) == BLOOM_OK; ++i)
    s.bit_bytes += (stage.bits + 63) / 64 * 8;
  return s;
}

}  // namespace

FilterValue *adopt_filter(bloom_filter *f, int64_t since, std::string *error) {
  bloom_info info;
  info.struct_size = sizeof info;
  const bloom_status st = bloom_get_info(f, &info);
  if (st != BLOOM_OK) {
    *error = bloom_error("reading the filter's parameters", st);
    bloom_destroy(f);
    return nullptr;
  }
  FilterValue *v = new (std::nothrow) FilterValue;
  if (v == nullptr) {
    *error = "out of memory";
    bloom_destroy(f);
    return nullptr;
  }
  v->filter = f;
  v->shape = shape_of(f, info, FilterShape{});
  v->filter_bytes = library_bytes_net() - since;
  v->items = info.keys_added;
  // A kind that grows by stages (bloom's scalable kind).
  const bool grows = (bloom_kind_caps(info.kind) & BLOOM_CAP_GROWS) != 0;
  if (grows) {
    // A scalable filter's keys_added counts every add call, duplicates too;
    // its stages count distinct keys only, which is what BF.CARD reports
    // (and what add_item counts), so a reload does not change BF.CARD.
    uint64_t distinct = 0;
    bloom_info stage;
    stage.struct_size = sizeof stage;
    for (uint32_t i = 0; i < info.stages && bloom_get_stage_info(f, i, &stage) == BLOOM_OK; ++i)
      distinct += stage.keys_added;
    v->items = distinct;
  }
  v->scalable = grows;
  // A window forgets instead of filling: no capacity past which adds stop.
  const unsigned caps = bloom_kind_caps(info.kind);
  v->forgets_keys = (caps & BLOOM_CAP_FORGETS) != 0;
  v->fills = !v->scalable && !v->forgets_keys && info.capacity != 0;
  // A kind that removes keys counts them: adding a present key again
  // changes it.
  v->idempotent_add = (caps & BLOOM_CAP_REMOVE) == 0;
  return v;
}

bool refresh_shape(FilterValue *v) {
  bloom_info info;
  info.struct_size = sizeof info;
  if (bloom_get_info(v->filter, &info) != BLOOM_OK) return false;
  // Stages are only ever added (a merge makes a new value).
  v->shape = shape_of(v->filter, info, info.stages >= v->shape.stages ? v->shape : FilterShape{});
  v->shape_stale = false;
  return true;
}

void FilterValue::refresh_stale_shape() {
  if (shape_stale) refresh_shape(this);
}

bool serialize_filter(const bloom_filter *f, ServerBytes *out, std::string *error) {
  size_t size = 0;
  bloom_status st = bloom_serialized_size(f, &size);
  if (st != BLOOM_OK) {
    *error = bloom_error("serializing", st);
    return false;
  }
  try {
    out->resize(size);
  } catch (const std::bad_alloc &) {
    *error = "serializing: out of memory";
    return false;
  }
  size_t written = 0;
  st = bloom_serialize(f, out->data(), out->size(), &written);
  if (st != BLOOM_OK || written != size) {
    *error = bloom_error("serializing", st);
    out->clear();
    return false;
  }
  return true;
}

FilterValue *FilterValue::new_restore() noexcept {
  auto *v = new (std::nothrow) FilterValue;
  if (v == nullptr) return nullptr;
  try {
    v->transfer.reset(new Transfer);
  } catch (const std::bad_alloc &) {
    delete v;
    return nullptr;
  }
  return v;
}

void FilterValue::drop_dump_image() {
  if (!transfer) return;
  if (loading()) {
    transfer->dump_image = ServerBytes();
    return;
  }
  transfer.reset();
}

Transfer &FilterValue::transfer_state() {
  if (!transfer) transfer.reset(new Transfer);
  return *transfer;
}

size_t value_memory(const FilterValue &v) {
  const int64_t filter = v.filter_bytes > 0 ? v.filter_bytes : 0;
  size_t bytes = block_size(&v) + static_cast<size_t>(filter);
  if (const Transfer *t = v.transfer.get())
    bytes += block_size(t) + block_size(t->dump_image.data()) + block_size(t->pending.data()) +
             block_size(t->rb_header.data());
  return bytes;
}

}  // namespace bloom_redis
