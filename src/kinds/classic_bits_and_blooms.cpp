// SPDX-License-Identifier: Apache-2.0
// classic_bits_and_blooms.cpp -- the classic kind's positions for the
// bits-and-blooms hash kind (format 1.5): Go's bits-and-blooms/bloom v3.
//
// That library hashes a key to four 64-bit values h[0..3] (MurmurHash3
// x64-128, seed 0, of the key and of the key followed by a byte 1:
// murmur3_x64_128_and_suffixed) and sets, for i = 0..k-1, bit
//     (h[i mod 2] + i * h[2 + ((i + (i mod 2)) mod 4) / 2]) mod m
// (the sum mod 2^64), in a bit set whose bit x is bit x mod 64 of 64-bit
// word x / 64 -- this filter's array, so its words are the Go filter's
// words. Four hashes do not fit the Hash128 every other path carries, so
// these filters take whole keys (Filter::take_whole_keys): add, query and
// their batches hash here.
#include "hash/murmur3.hpp"
#include "kinds/classic.hpp"

namespace bloom::core {

namespace {

// Position i of a key (the library's location()).
inline uint64_t location(const Hash256 &h, uint64_t i, uint64_t m) {
  return (h.h[i % 2] + i * h.h[2 + ((i + (i % 2)) % 4) / 2]) % m;
}

}  // namespace

int ClassicFilter::bits_and_blooms_query_key(const void *self, const void *key, size_t len) {
  const auto &f = static_cast<const ClassicFilter &>(*static_cast<const Filter *>(self));
  return f.query_whole_key(key, len) ? 1 : 0;
}

void ClassicFilter::bits_and_blooms_query_keys(const void *self, const void *const *keys, const size_t *lens,
                                               size_t n, uint8_t *out) {
  for (size_t i = 0; i < n; ++i)
    out[i] = static_cast<uint8_t>(bits_and_blooms_query_key(self, keys[i], lens[i]));
}

// Installed only on a writable filter (set_key_add_path), whose ctx is itself.
int ClassicFilter::bits_and_blooms_add_key(const void *self, const void *key, size_t len) {
  auto &f = static_cast<ClassicFilter &>(const_cast<Filter &>(*static_cast<const Filter *>(self)));
  (void)f.test_and_add_whole_key(key, len);
  return 0;
}

bool ClassicFilter::test_and_add_whole_key(const void *key, size_t len) {
  const Hash256 h = murmur3_x64_128_and_suffixed(key, len);
  const uint64_t m = bits_.bits();
  uint64_t i = 0;
  while (i < config_.hashes && bits_.test(location(h, i, m))) ++i;
  if (i == config_.hashes) return true;  // present: nothing written
  for (; i < config_.hashes; ++i) bits_.set(location(h, i, m));
  return false;
}

bool ClassicFilter::query_whole_key(const void *key, size_t len) const {
  const Hash256 h = murmur3_x64_128_and_suffixed(key, len);
  const uint64_t m = bits_.bits();
  for (uint64_t i = 0; i < config_.hashes; ++i)
    if (!bits_.test(location(h, i, m))) return false;
  return true;
}

void ClassicFilter::install_bits_and_blooms_paths() {
  take_whole_keys();
  set_key_query_paths(
      {&bits_and_blooms_query_key, &bits_and_blooms_query_keys, static_cast<const Filter *>(this)});
  set_key_add_path({&bits_and_blooms_add_key, static_cast<const Filter *>(this), nullptr});
}

}  // namespace bloom::core
