// memory.hpp -- the one place the core allocates bit and counter arrays.
//
// Arrays are 64-byte aligned (one cache line, and what the file format's
// payload alignment promises for mapping). Failure throws Error(NOMEM) rather
// than std::bad_alloc so the message names the size. Tests can make the N-th
// allocation fail through set_allocation_failure_countdown (fault injection).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace bloom::core {

inline constexpr size_t kCacheLine = 64;

struct AlignedFree {
  void operator()(void *p) const noexcept;
};
using AlignedBuffer = std::unique_ptr<void, AlignedFree>;

// bytes rounded up to a whole cache line, zero-filled.
AlignedBuffer allocate_zeroed(size_t bytes);

// Test hook: the countdown-th allocation from now fails (1 = the next one);
// 0 disables. Not thread-safe; meant for single-threaded fault injection.
void set_allocation_failure_countdown(uint64_t countdown);

}  // namespace bloom::core
