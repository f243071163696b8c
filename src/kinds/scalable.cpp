// SPDX-License-Identifier: Apache-2.0
#include "kinds/scalable.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "error.hpp"
#include "format/stage_table.hpp"
#include "kinds/redisbloom_sizing.hpp"
#include "kinds/scalable_sizing.hpp"
#include "sizing.hpp"

namespace bloom::core {

namespace {

FilterConfig stage_config(const FilterConfig &chain, uint64_t capacity, double fp_rate, uint64_t bits,
                          uint32_t hashes) {
  FilterConfig c;
  c.kind = Kind::kClassic;
  c.hash = chain.hash;
  c.seed = chain.seed;
  c.flags = chain.flags & ~BLOOM_FLAG_CONCURRENT;
  c.capacity = capacity;
  c.fp_rate = fp_rate;
  c.bits = bits;
  c.hashes = hashes;
  return c;
}

// Stage `index` of a chain: the library's sizing, or RedisBloom's for its
// hash kind (a chain moved out of RedisBloom grows as RedisBloom would).
StageShape chain_stage_shape(const FilterConfig &c, uint32_t index) {
  if (c.modulo_probes()) return redisbloom_stage_shape(c.capacity, c.fp_rate, c.growth, index);
  return scalable_stage_shape(c.capacity, c.fp_rate, c.growth, c.tightening, index);
}

// A stage must be the one the header's (capacity, fp_rate, growth,
// tightening) describe: the next stage is sized from those fields, so a
// header that disagrees with its stages could make one add allocate
// gigabytes from a file of a few hundred bytes (capacity 2^32 - 1 in a
// 264-byte file reserved 14.9 GB; fp_rate 1.6e-298 made a 223 MB stage).
// Capacity and rate are recomputed exactly as create computes them; m may
// differ from today's sizing by the small-filter fit earlier versions did
// not do (a few bits), so it is held within a factor of two, which is all
// the bound on the next stage needs.
void check_stage_matches_header(const StageDescriptor &d, const FilterConfig &hdr, uint32_t i) {
  const std::string stage = "stage " + std::to_string(i) + ": ";
  StageShape t;
  try {
    t = chain_stage_shape(hdr, i);
  } catch (const Error &e) {
    fail(Status::kFormat,
         stage + "the header's capacity, fp_rate, growth and tightening give no stage: " + e.what());
  }
  if (d.capacity != t.capacity)
    fail(Status::kFormat, stage + "capacity " + std::to_string(d.capacity) + " is not the " +
                              std::to_string(t.capacity) + " the header's capacity and growth give");
  if (!(std::fabs(d.fp_rate - t.fp_rate) <= 1e-9 * t.fp_rate))
    fail(Status::kFormat, stage + "fp_rate " + std::to_string(d.fp_rate) +
                              " is not the one the header's fp_rate and tightening give");
  if (d.bits < t.bits / 2 || d.bits / 2 > t.bits + 4096)
    fail(Status::kFormat, stage + "m = " + std::to_string(d.bits) + " is far from the " +
                              std::to_string(t.bits) + " bits its capacity and rate need");
}

}  // namespace

ScalableFilter::ScalableFilter(const FilterConfig &config) : Filter(config) {
  stages_.push_back(make_stage(0));
}

ScalableFilter::ScalableFilter(const FilterConfig &config, Stages stages)
    : Filter(config), stages_(std::move(stages)) {}

StageShape ScalableFilter::stage_shape(uint32_t index) const {
  if (index == UINT32_MAX) fail(Status::kOverflow, "the scalable filter has 2^32 - 1 stages");
  const StageShape s = chain_stage_shape(config_, index);
  if (index == 0 && (s.bits != config_.bits || s.hashes != config_.hashes))
    fail(Status::kInvalidArg, "scalable stage 0 does not match the configured m and k");
  if (s.bits > BLOOM_MAX_BITS - total_bits())
    fail(Status::kOverflow,
         "a new stage of " + std::to_string(s.bits) + " bits would take the scalable filter past 2^40 bits");
  return s;
}

ScalableFilter::Stage ScalableFilter::make_stage(uint32_t index) const {
  const StageShape s = stage_shape(index);
  return std::make_unique<ClassicFilter>(stage_config(config_, s.capacity, s.fp_rate, s.bits, s.hashes));
}

uint64_t ScalableFilter::total_bits() const {
  uint64_t n = 0;
  for (const Stage &s : stages_) n += s->config().bits;
  return n;
}

bool ScalableFilter::query(Hash128 h) const {
  for (auto it = stages_.rbegin(); it != stages_.rend(); ++it)
    if ((*it)->query(h)) return true;
  return false;
}

bool ScalableFilter::test_and_add(Hash128 h) {
  // The older stages are only read; the newest, while it has room, is
  // tested and set in one pass over its probes (a key all of whose bits
  // are set there changes nothing), where a query of it and then an add
  // computed and visited every position twice. Same answers, same bits.
  for (size_t i = 0; i + 1 < stages_.size(); ++i)
    if (stages_[i]->query(h)) return true;
  ClassicFilter *newest = stages_.back().get();
  if (newest->keys_added() >= newest->config().capacity) {
    if (newest->query(h)) return true;
    // Reserve first so that push_back cannot fail after the stage exists.
    stages_.reserve(stages_.size() + 1);
    stages_.push_back(make_stage(stage_count()));
    newest = stages_.back().get();
  }
  if (newest->test_and_add(h)) return true;
  newest->set_keys_added(newest->keys_added() + 1);
  return false;
}

void ScalableFilter::merge_from(const Filter &src_filter) {
  const auto &src = static_cast<const ScalableFilter &>(src_filter);
  if (config_.capacity != src.config_.capacity)
    fail(Status::kIncompatible, "capacity differs (" + std::to_string(config_.capacity) + " vs " +
                                    std::to_string(src.config_.capacity) + ")");
  if (config_.fp_rate != src.config_.fp_rate)
    fail(Status::kIncompatible, "fp_rate differs (" + std::to_string(config_.fp_rate) + " vs " +
                                    std::to_string(src.config_.fp_rate) + ")");
  const size_t common = std::min(stages_.size(), src.stages_.size());
  for (size_t i = 0; i < common; ++i) {
    const FilterConfig &a = stages_[i]->config();
    const FilterConfig &b = src.stages_[i]->config();
    if (a.bits != b.bits || a.hashes != b.hashes || a.capacity != b.capacity)
      fail(Status::kIncompatible, "stage " + std::to_string(i) + " shape differs (m " +
                                      std::to_string(a.bits) + " vs " + std::to_string(b.bits) + ", k " +
                                      std::to_string(a.hashes) + " vs " + std::to_string(b.hashes) + ")");
  }
  // Copy the extra stages before touching anything, so NOMEM changes nothing.
  Stages extra;
  uint64_t extra_bits = 0;
  for (size_t i = common; i < src.stages_.size(); ++i) {
    extra_bits += src.stages_[i]->config().bits;
    if (extra_bits > BLOOM_MAX_BITS - total_bits())
      fail(Status::kOverflow, "the union would exceed 2^40 bits");
    extra.emplace_back(static_cast<ClassicFilter *>(src.stages_[i]->clone().release()));
  }
  stages_.reserve(stages_.size() + extra.size());
  for (size_t i = 0; i < common; ++i) {
    const uint64_t a = stages_[i]->keys_added();
    const uint64_t b = src.stages_[i]->keys_added();
    stages_[i]->merge(*src.stages_[i]);
    stages_[i]->set_keys_added(a + b < a ? UINT64_MAX : a + b);
  }
  for (Stage &s : extra) stages_.push_back(std::move(s));
}

void ScalableFilter::intersect_with(const Filter &src_filter) {
  const auto &src = static_cast<const ScalableFilter &>(src_filter);
  if (stages_.size() != 1 || src.stages_.size() != 1)
    fail(Status::kIncompatible,
         "scalable filters intersect only while both have one stage (these have " +
             std::to_string(stages_.size()) + " and " + std::to_string(src.stages_.size()) +
             "): a key can sit in different stages of the two chains, and a stage-wise AND would lose it");
  const FilterConfig &a = stages_[0]->config();
  const FilterConfig &b = src.stages_[0]->config();
  if (config_.capacity != src.config_.capacity || config_.fp_rate != src.config_.fp_rate ||
      a.bits != b.bits || a.hashes != b.hashes)
    fail(Status::kIncompatible, "stage 0 shape differs (capacity, fp_rate, m or k)");
  const uint64_t n = std::min(stages_[0]->keys_added(), src.stages_[0]->keys_added());
  stages_[0]->intersect(*src.stages_[0]);
  stages_[0]->set_keys_added(n);
}

void ScalableFilter::clear_all() {
  stages_.resize(1);
  stages_[0]->clear();
}

std::unique_ptr<Filter> ScalableFilter::clone_filter() const {
  Stages copies;
  copies.reserve(stages_.size());
  for (const Stage &s : stages_) copies.emplace_back(static_cast<ClassicFilter *>(s->clone().release()));
  auto f = std::unique_ptr<ScalableFilter>(new ScalableFilter(config_, std::move(copies)));
  f->set_keys_added(keys_added());
  return f;
}

void ScalableFilter::fill_info(Info &info) const {
  uint64_t bits = 0, bytes = 0, set = 0, capacity = 0;
  double estimated = 0, log_all_negative = 0;
  for (const Stage &s : stages_) {
    Info si{};
    s->get_info(si);
    bits += si.bits;
    bytes += si.bytes;
    set += static_cast<uint64_t>(std::llround(si.fill_ratio * static_cast<double>(si.bits)));
    capacity += si.capacity;
    estimated += si.estimated_keys;
    log_all_negative += std::log1p(-si.expected_fp_rate);
  }
  info.hashes = stages_.back()->config().hashes;
  info.bits = bits;
  info.bytes = bytes;
  info.capacity = capacity;
  info.fill_ratio = static_cast<double>(set) / static_cast<double>(bits);
  info.estimated_keys = estimated;
  // A key is a false positive when any stage answers yes: 1 - prod(1 - p_i),
  // summed in logs (1 - x in double loses every p_i below 1e-16: a
  // one-stage filter with 10 keys reported 0 for a stage rate of 2e-20).
  info.expected_fp_rate = -std::expm1(log_all_negative);
}

void ScalableFilter::get_stage_info(uint32_t stage, Info &info) const {
  if (stage >= stages_.size())
    fail(Status::kInvalidArg, "stage " + std::to_string(stage) + " does not exist (the filter has " +
                                  std::to_string(stages_.size()) + ")");
  // The whole filter's own fields; every field its fill_info would add is
  // the stage's below, so the whole chain's bits are not counted (reading
  // every stage's info was quadratic in the stages).
  get_common_info(info);
  const ClassicFilter &s = *stages_[stage];
  Info si{};
  s.get_info(si);
  info.hashes = si.hashes;
  info.bits = si.bits;
  info.bytes = si.bytes;
  info.capacity = si.capacity;
  info.fp_rate = si.fp_rate;
  info.keys_added = si.keys_added;
  info.estimated_keys = si.estimated_keys;
  info.fill_ratio = si.fill_ratio;
  info.expected_fp_rate = si.expected_fp_rate;
}

uint64_t ScalableFilter::growth_bytes() const {
  if (stages_.back()->keys_added() < stages_.back()->config().capacity) return 0;
  return ClassicFilter::payload_size_for(stage_shape(stage_count()).bits);
}

uint64_t ScalableFilter::payload_size() const {
  uint64_t n = stage_table_size(stages_.size());
  for (const Stage &s : stages_) n += pad_to_stage_align(s->payload_size());
  return n;
}

void ScalableFilter::write_payload(ByteSink &sink) const {
  std::vector<StageDescriptor> table(stages_.size());
  for (size_t i = 0; i < stages_.size(); ++i) {
    const FilterConfig &c = stages_[i]->config();
    table[i] = {c.bits, c.capacity, stages_[i]->keys_added(), c.fp_rate, c.hashes, 0};
  }
  write_stage_table(sink, table);
  for (const Stage &s : stages_) {
    s->write_payload(sink);
    write_stage_padding(sink, s->payload_size());
  }
}

std::unique_ptr<Filter> ScalableFilter::load(const Header &h, ByteSource &src, bool zero_copy) {
  const uint32_t count = h.stages;
  // No cap on the stage count: read_stage_table refuses a table (40 bytes
  // a stage) the payload cannot hold before allocating it, and the payload
  // is no larger than the input.
  const std::vector<StageDescriptor> descs = read_stage_table(src, count, h.payload_size);
  // Every stage's size, checked against the payload before any allocation.
  // Each stage is at most 2^40 bits (read_stage_table) and the running
  // total is kept at most 2^40, so none of these sums can overflow 64 bits.
  uint64_t total_bits = 0;
  uint64_t needed = stage_table_size(count);
  for (uint32_t i = 0; i < count; ++i) {
    check_stage_matches_header(descs[i], h.config, i);
    total_bits += descs[i].bits;
    if (total_bits > BLOOM_MAX_BITS)
      fail(Status::kFormat, "stages add up to " + std::to_string(total_bits) + " bits, more than 2^40");
    needed += pad_to_stage_align(ClassicFilter::payload_size_for(descs[i].bits));
  }
  if (needed != h.payload_size)
    fail(Status::kFormat, "payload size " + std::to_string(h.payload_size) + " does not match the " +
                              std::to_string(count) + " stages it describes (" + std::to_string(needed) +
                              " bytes)");
  if (descs[0].bits != h.config.bits || descs[0].hashes != h.config.hashes)
    fail(Status::kFormat, "stage 0 disagrees with the header's m and k");

  Stages stages;
  stages.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const StageDescriptor &d = descs[i];
    const FilterConfig sc = stage_config(h.config, d.capacity, d.fp_rate, d.bits, d.hashes);
    try {
      stages.emplace_back(static_cast<ClassicFilter *>(ClassicFilter::load(sc, src, zero_copy).release()));
    } catch (const Error &e) {
      if (e.status() != Status::kFormat) throw;
      fail(Status::kFormat, "stage " + std::to_string(i) + ": " + e.what());
    }
    stages.back()->set_keys_added(d.keys);
    read_stage_padding(src, ClassicFilter::payload_size_for(d.bits), "stage " + std::to_string(i));
  }
  return std::unique_ptr<Filter>(new ScalableFilter(h.config, std::move(stages)));
}

}  // namespace bloom::core
