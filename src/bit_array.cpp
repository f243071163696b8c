// SPDX-License-Identifier: Apache-2.0
#include "bit_array.hpp"

#include <cstring>

#include "popcount.hpp"

namespace bloom::core {

BitArray::BitArray(uint64_t bits)
    : storage_(allocate_zeroed(word_count_for(bits) * 8)),
      words_(static_cast<const uint64_t *>(storage_.get())),
      bits_(bits) {}

BitArray BitArray::borrow(const uint64_t *words, uint64_t bits) {
  BitArray a;
  a.words_ = words;
  a.bits_ = bits;
  return a;
}

uint64_t BitArray::popcount() const { return popcount_words(words_, word_count()); }

void BitArray::clear() { std::memset(owned_words(), 0, byte_size()); }

BitArray BitArray::copy() const {
  BitArray c(bits_);
  std::memcpy(c.owned_words(), words_, byte_size());
  return c;
}

void BitArray::or_with(const BitArray &other) {
  uint64_t *w = owned_words();
  const uint64_t count = word_count();
  for (uint64_t i = 0; i < count; ++i) w[i] |= other.words_[i];
}

void BitArray::and_with(const BitArray &other) {
  uint64_t *w = owned_words();
  const uint64_t count = word_count();
  for (uint64_t i = 0; i < count; ++i) w[i] &= other.words_[i];
}

bool BitArray::padding_is_clear() const {
  const uint64_t used = bits_ & 63;
  if (used == 0 || bits_ == 0) return true;
  return (words_[word_count() - 1] >> used) == 0;
}

}  // namespace bloom::core
