// SPDX-License-Identifier: Apache-2.0
// relaxed_atomic.hpp -- relaxed atomic access to plain 64-bit words.
//
// Filters keep their bits and counters in ordinary arrays, so a filter
// without BLOOM_FLAG_CONCURRENT pays nothing for the flag, and a concurrent
// filter reaches the same words through these relaxed atomic operations.
// C++20 spells that std::atomic_ref, but libc++ ships atomic_ref only from
// LLVM 19 (and libc++ rejects atomic_ref<const T>), so a clang + libc++
// build failed here. These call the __atomic builtins of GCC and Clang
// instead: what both standard libraries build atomic_ref on, the same
// instructions (a plain mov for a load, `lock or` / `lock add` / `lock
// cmpxchg` for the read-modify-writes), and what ThreadSanitizer instruments.
//
// Relaxed order is enough: bits and counters are the only data in these
// words, and no thread publishes anything else through them.
#pragma once

#include <cstdint>

namespace bloom::core {

inline uint64_t relaxed_load(const uint64_t &word) { return __atomic_load_n(&word, __ATOMIC_RELAXED); }

inline void relaxed_store(uint64_t &word, uint64_t value) {
  __atomic_store_n(&word, value, __ATOMIC_RELAXED);
}

// Returns the word before the OR.
inline uint64_t relaxed_fetch_or(uint64_t &word, uint64_t bits) {
  return __atomic_fetch_or(&word, bits, __ATOMIC_RELAXED);
}

inline void relaxed_add(uint64_t &word, uint64_t n) { (void)__atomic_fetch_add(&word, n, __ATOMIC_RELAXED); }

// Replaces the word with desired if it still holds expected; otherwise
// loads its value into expected. May fail spuriously (call it in a loop).
inline bool relaxed_compare_exchange_weak(uint64_t &word, uint64_t &expected, uint64_t desired) {
  return __atomic_compare_exchange_n(&word, &expected, desired, /*weak=*/true, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED);
}

}  // namespace bloom::core
