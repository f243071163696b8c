// SPDX-License-Identifier: Apache-2.0
// window.hpp -- a sliding-window filter: the age-partitioned Bloom filter of
// Shtul, Baquero & Almeida (2020). It remembers the last W insertions (count
// window) or the last T milliseconds of the caller's clock (time window) and
// forgets older keys, with no false negative inside the window.
//
// k + l slices of m bits form a ring in one bit array (physical slice j is
// bits [j m, (j + 1) m)); head_ is the physical index of the newest slice,
// logical slice i is physical (head_ + i) mod (k + l). A key sets, in each
// of the k newest slices, the bit of its probe j (j = the physical index,
// so the bit stays put as the slice ages). A query looks for k consecutive
// logical slices holding the key, newest first, skipping past each miss
// (a miss at i rules out every run through i), so an absent key costs
// about 2 (k + l) / k probes and a recent one k.
//
// Generations: a generation holds g = ceil(W / l) insertions. Count window:
// the insertion after the g-th of a generation first retires the oldest
// slice (clears it, makes it the newest). A key's k slices survive l
// retirements, so it is present for the l g >= W insertions after it and
// gone after (l + 1) g. Time window: a generation lasts d = ceil(T / l) ms
// of the clock set by advance(); it takes any number of keys (forgetting
// early would be a false negative), and a generation over g raises the
// rate instead. Sizing and the rate: window_sizing.hpp.
//
// Concurrency (BLOOM_FLAG_CONCURRENT): adds, test-and-adds and advance()
// hold lock_ exclusively, queries hold it shared, so a retirement never runs
// while a key is probed or set; plain bit operations suffice under it.
//
// Payload: a 128-byte descriptor (window_ms, g, m as u64; l, head as u32;
// generation, generation_keys, clock_ms, generation_start_ms as u64; a u32
// of state flags, bit 0 = the clock has started; zeros to 128), then the
// (k + l) m bits as little-endian words, zero-padded to a multiple of 64
// bytes (docs/FORMAT.md).
#pragma once

#include <memory>
#include <shared_mutex>
#include <vector>

#include "bit_array.hpp"
#include "filter.hpp"
#include "format/byte_stream.hpp"
#include "format/header.hpp"
#include "kinds/window_blocked.hpp"

namespace bloom::core {

class WindowFilter final : public Filter {
 public:
  static constexpr uint64_t kDescriptorSize = 128;

  explicit WindowFilter(const FilterConfig &config);
  // Validates the descriptor against h before allocating anything.
  static std::unique_ptr<Filter> load(const Header &h, ByteSource &src, bool zero_copy);
  static uint64_t payload_size_for(const FilterConfig &c);

  bool query(Hash128 h) const override;
  uint64_t payload_size() const override { return payload_size_for(config_); }
  void write_payload(ByteSink &sink) const override;
  uint32_t stage_count() const override { return slices_; }
  void get_stage_info(uint32_t stage, Info &info) const override;
  void advance(uint64_t now_ms) override;

  // The ring's state, all of it saved with the filter.
  struct State {
    uint32_t head = 0;                 // physical index of the newest slice
    uint64_t generation = 0;           // retirements since creation (or clear)
    uint64_t generation_keys = 0;      // insertions in the newest generation
    uint64_t clock_ms = 0;             // time window: the clock as last set
    uint64_t generation_start_ms = 0;  // time window: when the newest began
    bool clock_started = false;
  };
  const State &state() const { return state_; }
  const BitArray &bit_array() const { return bits_; }

 protected:
  void add(Hash128 h) override;
  bool test_and_add(Hash128 h) override;
  void add_block(const Hash128 *hs, size_t n) override;
  void prefetch_block(const Hash128 *hs, size_t n) const override;
  void query_block(const Hash128 *hs, size_t n, uint8_t *out) const override;
  void merge_from(const Filter &src) override;
  void intersect_with(const Filter &src) override;
  void clear_all() override;
  std::unique_ptr<Filter> clone_filter() const override;
  void fill_info(Info &info) const override;

 private:
  WindowFilter(const WindowFilter &other);
  WindowFilter(const FilterConfig &config, BitArray bits, const State &state);

  uint32_t physical(uint32_t logical) const {
    const uint32_t j = state_.head + logical;
    return j >= slices_ ? j - slices_ : j;
  }
  // Bit index of the key's bit in physical slice j.
  uint64_t position(Hash128 h, uint32_t j) const;
  // find_run for either layout: test(j) says whether physical slice j holds
  // the key's bit.
  template <class Test>
  uint32_t find_run_by(Test &&test) const;
  // The newest logical slice where a run of k of the key's bits starts, or
  // slices_ when there is none.
  uint32_t find_run(Hash128 h) const;
  // Sets the key in the k newest slices, retiring a generation first when
  // a count window's is full. Callers hold the lock.
  void insert(Hash128 h, bool already_in_newest);
  void set_newest(Hash128 h);  // the key's bits in the k newest slices
  void retire_oldest();
  std::unique_lock<std::shared_mutex> write_lock() const;
  std::shared_lock<std::shared_mutex> read_lock() const;
  bool time_window() const { return config_.window_ms != 0; }
  double slice_fill(uint32_t logical) const;
  std::vector<uint64_t> slice_counts() const;  // set bits per physical slice

  BitArray bits_;
  bool blocked_;  // format 1.4 layout (window_blocked.hpp), else 1.3's slices
  WindowBlockedGeometry geometry_;
  uint32_t k_;
  uint32_t slices_;
  uint64_t m_;
  State state_;
  std::unique_ptr<std::shared_mutex> lock_;  // concurrent filters only
};

}  // namespace bloom::core
