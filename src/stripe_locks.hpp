// SPDX-License-Identifier: Apache-2.0
// stripe_locks.hpp -- a few spin locks, each guarding one region of a
// filter's array, for the writers of a concurrent blocked filter.
//
// On x86 every locked read-modify-write is a full barrier: a concurrent add
// that sets its bits with one `lock or` per word cannot overlap the next
// key's cache miss with its own, and pays ~20 cycles per word. Under a
// region's lock a writer sets bits with plain (relaxed atomic) loads and
// stores instead, so a batch that sorts its keys by region pays one locked
// instruction per region it visits, not several per key. Every writer of
// the array must hold the region's lock; readers take none (they load the
// words with relaxed atomic loads, and bits are never cleared while adds
// run, so a reader sees each bit set either before or after, never torn).
#pragma once

#include <cstdint>
#include <thread>

namespace bloom::core {

class StripeLocks {
 public:
  static constexpr uint32_t kStripes = 32;

  void lock(uint32_t stripe) {
    uint32_t &held = locks_[stripe].held;
    while (__atomic_exchange_n(&held, 1u, __ATOMIC_ACQUIRE) != 0) {
      // Spin on a plain load (no write traffic on the line) and give the
      // core away now and then: on a busy machine the holder may be
      // waiting for it.
      for (uint32_t spins = 0; __atomic_load_n(&held, __ATOMIC_RELAXED) != 0; ++spins) {
        if (spins % 64 == 63)
          std::this_thread::yield();
        else
          relax();
      }
    }
  }
  // Takes the lock only if it is free.
  bool try_lock(uint32_t stripe) {
    uint32_t &held = locks_[stripe].held;
    return __atomic_load_n(&held, __ATOMIC_RELAXED) == 0 &&
           __atomic_exchange_n(&held, 1u, __ATOMIC_ACQUIRE) == 0;
  }
  void unlock(uint32_t stripe) { __atomic_store_n(&locks_[stripe].held, 0u, __ATOMIC_RELEASE); }

 private:
  static void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
  }

  // One line per lock: two threads in different regions never share one.
  struct alignas(64) Lock {
    uint32_t held = 0;
  };
  Lock locks_[kStripes];
};

// Holds one region's lock for a scope.
class StripeGuard {
 public:
  StripeGuard(StripeLocks &locks, uint32_t stripe) : locks_(locks), stripe_(stripe) { locks_.lock(stripe_); }
  ~StripeGuard() { locks_.unlock(stripe_); }
  StripeGuard(const StripeGuard &) = delete;
  StripeGuard &operator=(const StripeGuard &) = delete;

 private:
  StripeLocks &locks_;
  uint32_t stripe_;
};

}  // namespace bloom::core
