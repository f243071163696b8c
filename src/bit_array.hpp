// SPDX-License-Identifier: Apache-2.0
// bit_array.hpp -- m bits in 64-bit words, owned or borrowed from a mapping.
//
// Bit i lives in word i / 64 at bit i % 64. Serialized, the words are
// little-endian, so bit i is bit i % 8 of byte i / 8 on every host.
//
// Concurrent writers (BLOOM_FLAG_CONCURRENT) go through the *_atomic
// members, which use relaxed atomic operations (relaxed_atomic.hpp): a Bloom
// filter only ever ORs bits in, so no insert can be lost and no ordering is
// needed beyond atomicity; readers on other threads use the relaxed loads.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "memory.hpp"
#include "relaxed_atomic.hpp"

namespace bloom::core {

class BitArray {
 public:
  BitArray() = default;
  // A zeroed array of `bits` bits (throws Error on failure).
  explicit BitArray(uint64_t bits);
  // A read-only view of words someone else keeps alive (a file mapping).
  static BitArray borrow(const uint64_t *words, uint64_t bits);

  uint64_t bits() const { return bits_; }
  uint64_t word_count() const { return word_count_for(bits_); }
  uint64_t byte_size() const { return word_count() * 8; }
  static uint64_t word_count_for(uint64_t bits) { return (bits + 63) / 64; }

  uint64_t *words() { return owned_words(); }
  const uint64_t *words() const { return words_; }

  bool test(uint64_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  bool test_atomic(uint64_t i) const { return (relaxed_load(words_[i >> 6]) >> (i & 63)) & 1u; }
  void set(uint64_t i) { owned_words()[i >> 6] |= uint64_t{1} << (i & 63); }
  // Sets bit i; returns whether it was already set (not atomic).
  bool test_and_set(uint64_t i) {
    const bool was = test(i);
    set(i);
    return was;
  }
  // Sets bit i; returns whether it was already set.
  bool set_atomic(uint64_t i) {
    const uint64_t mask = uint64_t{1} << (i & 63);
    return relaxed_fetch_or(owned_words()[i >> 6], mask) & mask;
  }
  void prefetch(uint64_t i) const { __builtin_prefetch(&words_[i >> 6]); }
  // Asks for bit i's line in a writable state (PREFETCHW on x86): a locked
  // OR on a line read-shared with another core would first wait for the
  // other copy to be invalidated.
  void prefetch_for_write(uint64_t i) const { __builtin_prefetch(&words_[i >> 6], 1); }

  uint64_t popcount() const;
  void clear();
  BitArray copy() const;  // always an owned copy
  void or_with(const BitArray &other);
  void and_with(const BitArray &other);
  // True when no bit at or above bits() is set in the last word (a loaded
  // payload must keep the padding zero or popcounts would lie).
  bool padding_is_clear() const;

 private:
  uint64_t *owned_words() { return const_cast<uint64_t *>(words_); }

  AlignedBuffer storage_;
  const uint64_t *words_ = nullptr;
  uint64_t bits_ = 0;
};

}  // namespace bloom::core
