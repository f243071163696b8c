// SPDX-License-Identifier: Apache-2.0
// counter_array.hpp -- m small counters (4 or 8 bits) packed into 64-bit words.
//
// Counter i of width w lives in word (i * w) / 64 at bit (i * w) % 64. The
// words are serialized little-endian like a BitArray, so on every host the
// 4-bit counter i is the low nibble of byte i / 2 when i is even and the high
// nibble when i is odd; an 8-bit counter i is byte i. A 64-byte cache line
// holds 128 four-bit or 64 eight-bit counters.
//
// Saturation is sticky: a counter that reaches its maximum (15 or 255) is
// never incremented nor decremented again. A counter only saturates when at
// least max keys hashed to it, and after that we no longer know how many
// did, so decrementing could reach 0 while keys that set it are still in the
// filter -- a false negative. Keeping it at max trades that for a position
// that can never be cleared (a slightly higher false-positive rate).
//
// Concurrent writers (BLOOM_FLAG_CONCURRENT) use the *_atomic members: a
// compare-and-swap loop on the counter's 64-bit word, so no increment or
// decrement is ever lost and none crosses 0 or the maximum.
#pragma once

#include <cstdint>

#include "bit_array.hpp"
#include "relaxed_atomic.hpp"

namespace bloom::core {

class CounterArray {
 public:
  CounterArray() = default;
  // `count` zeroed counters of `width` bits (4 or 8). Throws Error on failure.
  CounterArray(uint64_t count, uint32_t width);
  // Counters over the words of `storage` (owned or borrowed from a mapping),
  // which must hold exactly word_count_for(count, width) words.
  CounterArray(BitArray storage, uint64_t count, uint32_t width);

  static uint64_t word_count_for(uint64_t count, uint32_t width) { return (count * width + 63) / 64; }
  uint64_t count() const { return count_; }
  uint32_t width() const { return width_; }
  uint32_t max_value() const { return (1u << width_) - 1; }
  uint64_t word_count() const { return word_count_for(count_, width_); }
  uint64_t byte_size() const { return word_count() * 8; }
  // The words as a bit array, for the payload reader and writer.
  const BitArray &storage() const { return storage_; }

  uint32_t get(uint64_t i) const {
    return static_cast<uint32_t>(words_[word_of(i)] >> shift_of(i)) & max_value();
  }
  uint32_t get_atomic(uint64_t i) const {
    const uint64_t w = relaxed_load(words_[word_of(i)]);
    return static_cast<uint32_t>(w >> shift_of(i)) & max_value();
  }
  // Adds one unless saturated; returns the value before.
  uint32_t increment(uint64_t i) {
    const uint32_t v = get(i);
    if (v != max_value()) owned_words()[word_of(i)] += uint64_t{1} << shift_of(i);
    return v;
  }
  // Subtracts one unless 0 or saturated; returns the value before.
  uint32_t decrement(uint64_t i) {
    const uint32_t v = get(i);
    if (v != 0 && v != max_value()) owned_words()[word_of(i)] -= uint64_t{1} << shift_of(i);
    return v;
  }
  uint32_t increment_atomic(uint64_t i);
  uint32_t decrement_atomic(uint64_t i);
  void prefetch(uint64_t i) const { __builtin_prefetch(&words_[word_of(i)]); }

  uint64_t nonzero_count() const;
  void clear();
  CounterArray copy() const;  // always an owned copy
  // Counter by counter: min(a + b, max) (union of multisets of keys).
  void add_saturating(const CounterArray &other);
  // Counter by counter: min(a, b).
  void min_with(const CounterArray &other);
  // True when every bit beyond the last counter in the last word is zero.
  bool padding_is_clear() const;

 private:
  uint64_t word_of(uint64_t i) const { return (i * width_) >> 6; }
  uint32_t shift_of(uint64_t i) const { return static_cast<uint32_t>((i * width_) & 63); }
  uint64_t *owned_words() { return storage_.words(); }

  BitArray storage_;
  const uint64_t *words_ = nullptr;  // storage_'s words
  uint64_t count_ = 0;
  uint32_t width_ = 4;
};

}  // namespace bloom::core
