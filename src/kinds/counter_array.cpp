// SPDX-License-Identifier: Apache-2.0
#include "kinds/counter_array.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

namespace bloom::core {

CounterArray::CounterArray(uint64_t count, uint32_t width)
    : CounterArray(BitArray(word_count_for(count, width) * 64), count, width) {}

CounterArray::CounterArray(BitArray storage, uint64_t count, uint32_t width)
    : storage_(std::move(storage)), words_(std::as_const(storage_).words()), count_(count), width_(width) {}

uint32_t CounterArray::increment_atomic(uint64_t i) {
  uint64_t &word = owned_words()[word_of(i)];
  const uint32_t shift = shift_of(i);
  uint64_t w = relaxed_load(word);
  for (;;) {
    const auto v = static_cast<uint32_t>(w >> shift) & max_value();
    if (v == max_value()) return v;
    // On failure w is reloaded; another counter of the word may have moved.
    if (relaxed_compare_exchange_weak(word, w, w + (uint64_t{1} << shift))) return v;
  }
}

uint32_t CounterArray::decrement_atomic(uint64_t i) {
  uint64_t &word = owned_words()[word_of(i)];
  const uint32_t shift = shift_of(i);
  uint64_t w = relaxed_load(word);
  for (;;) {
    const auto v = static_cast<uint32_t>(w >> shift) & max_value();
    if (v == 0 || v == max_value()) return v;
    if (relaxed_compare_exchange_weak(word, w, w - (uint64_t{1} << shift))) return v;
  }
}

uint64_t CounterArray::nonzero_count() const {
  // Fold each counter's bits into its lowest bit, then count those: one
  // popcount per word. The padding past the last counter is zero.
  const uint64_t lows = width_ == 4 ? 0x1111111111111111u : 0x0101010101010101u;
  const uint64_t count = word_count();
  uint64_t n = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t x = words_[i];
    x |= x >> 1;
    x |= x >> 2;
    if (width_ == 8) x |= x >> 4;
    n += static_cast<uint64_t>(std::popcount(x & lows));
  }
  return n;
}

void CounterArray::clear() { storage_.clear(); }

CounterArray CounterArray::copy() const { return CounterArray(storage_.copy(), count_, width_); }

void CounterArray::add_saturating(const CounterArray &other) {
  // Counters never carry into each other: each sum is clamped before it is
  // written back. Reading `other` first makes this safe when other is *this.
  uint64_t *w = owned_words();
  const uint32_t max = max_value();
  for (uint64_t i = 0; i < count_; ++i) {
    const uint32_t sum = std::min(get(i) + other.get(i), max);
    const uint32_t shift = shift_of(i);
    uint64_t &word = w[word_of(i)];
    word = (word & ~(uint64_t{max} << shift)) | (uint64_t{sum} << shift);
  }
}

void CounterArray::min_with(const CounterArray &other) {
  uint64_t *w = owned_words();
  const uint32_t max = max_value();
  for (uint64_t i = 0; i < count_; ++i) {
    const uint32_t lo = std::min(get(i), other.get(i));
    const uint32_t shift = shift_of(i);
    uint64_t &word = w[word_of(i)];
    word = (word & ~(uint64_t{max} << shift)) | (uint64_t{lo} << shift);
  }
}

bool CounterArray::padding_is_clear() const {
  const uint64_t used = (count_ * width_) & 63;
  if (used == 0 || count_ == 0) return true;
  return (words_[word_count() - 1] >> used) == 0;
}

}  // namespace bloom::core
