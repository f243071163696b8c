// SPDX-License-Identifier: Apache-2.0
// scalable.hpp -- a scalable Bloom filter (Almeida, Baquero, Preguica &
// Hutchison 2007): a chain of classic filters that grows as keys arrive, so
// the capacity need not be known in advance.
//
// Stage i is a ClassicFilter shaped by scalable_stage_shape (capacity
// n0 * growth^i at error p (1 - r) r^i; see scalable_sizing.hpp for why the
// compound rate stays below p for any number of stages). Keys go into the
// newest stage; when its count of inserted keys reaches its capacity, the
// next add first appends a new stage. If that allocation fails the add
// returns BLOOM_E_NOMEM and the filter is unchanged (BLOOM_E_OVERFLOW past
// 2^40 bits in all stages, or when the next stage's capacity overflows or
// its error rate falls below 1e-300). There is no cap on the number of
// stages: as in RedisBloom the limit is memory, and callers that bound it
// (the Redis module) check bloom_growth_bytes before a stage is allocated.
//
// Adds skip keys the chain already reports present (as RedisBloom does): a
// duplicate, or a false positive, would set bits that change no answer, and
// counting it would fill a stage early. So a stage's count is of distinct
// keys (up to false positives), and test_and_add is the same operation as
// add. A query checks every stage, newest first (it holds the most keys).
// All stages probe with the key's one 128-bit hash; their different m make
// the positions differ.
//
// Set operations: union ORs stage i with stage i when both chains have the
// same parameters and the same stage shapes for their common prefix; the
// longer chain's extra stages are copied. Every key is in some stage of
// either input, and that stage's bits survive the OR, so no key is lost (a
// union stage may hold more keys than its capacity; info then shows a
// higher expected rate). Intersection is only sound when both chains have a
// single stage: the same key can sit in stage 0 of one chain and stage 3 of
// the other, and a stage-wise AND would lose it. Otherwise it returns
// BLOOM_E_INCOMPATIBLE saying so.
//
// Concurrency: BLOOM_FLAG_CONCURRENT is refused (BLOOM_E_UNSUPPORTED at
// create): appending a stage changes the chain under readers. Queries may
// run in parallel with each other; adds need exclusive access.
//
// Payload (at file offset 128): the stage table, then each stage's words,
// every stage 64-byte aligned (format/stage_table.hpp has the codec).
#pragma once

#include <memory>
#include <vector>

#include "filter.hpp"
#include "format/byte_stream.hpp"
#include "format/header.hpp"
#include "kinds/classic.hpp"
#include "kinds/scalable_sizing.hpp"

namespace bloom::core {

class ScalableFilter final : public Filter {
 public:
  explicit ScalableFilter(const FilterConfig &config);
  // Validates the stage table against h.payload_size before allocating.
  static std::unique_ptr<Filter> load(const Header &h, ByteSource &src, bool zero_copy);

  bool query(Hash128 h) const override;
  uint64_t payload_size() const override;
  void write_payload(ByteSink &sink) const override;
  uint32_t stage_count() const override { return static_cast<uint32_t>(stages_.size()); }
  void get_stage_info(uint32_t stage, Info &info) const override;
  uint64_t growth_bytes() const override;

  const ClassicFilter &stage(uint32_t i) const { return *stages_[i]; }

 protected:
  void add(Hash128 h) override { (void)test_and_add(h); }
  bool test_and_add(Hash128 h) override;
  void merge_from(const Filter &src) override;
  void intersect_with(const Filter &src) override;
  void clear_all() override;
  std::unique_ptr<Filter> clone_filter() const override;
  void fill_info(Info &info) const override;

 private:
  using Stage = std::unique_ptr<ClassicFilter>;
  // Lives as long as the filter, so from the embedder's allocator too.
  using Stages = std::vector<Stage, ObjectAllocator<Stage>>;
  ScalableFilter(const FilterConfig &config, Stages stages);

  // The shape of stage `index`, within the stage and 2^40-bit limits
  // (throws OVERFLOW past them), and a new empty stage of that shape.
  StageShape stage_shape(uint32_t index) const;
  Stage make_stage(uint32_t index) const;
  uint64_t total_bits() const;

  Stages stages_;
};

}  // namespace bloom::core
