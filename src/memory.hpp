// SPDX-License-Identifier: Apache-2.0
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
#include <new>

#include "bloom/bloom.h"

namespace bloom::core {

inline constexpr size_t kCacheLine = 64;

// Frees what allocate_zeroed returned: munmap for the large arrays it maps
// straight from the kernel (mapped_bytes != 0), the embedder's free for
// arrays from its allocator (hooked_bytes != 0), free() for the rest.
struct AlignedFree {
  size_t mapped_bytes = 0;
  size_t hooked_bytes = 0;
  void operator()(void *p) const noexcept;
};
using AlignedBuffer = std::unique_ptr<void, AlignedFree>;

// bytes rounded up to a whole cache line, zero-filled. Arrays of
// kMapThreshold bytes or more are anonymous mappings of the kernel's zero
// pages. Up to kPopulateLimit they are populated at once, in transparent
// huge pages where the kernel has them (one call, where a page fault per
// page would otherwise land in the first inserts); above
// it they are committed only when first written, so creating a large
// filter costs neither time nor resident memory until keys arrive.
inline constexpr size_t kMapThreshold = size_t{2} << 20;    // 2 MiB
inline constexpr size_t kPopulateLimit = size_t{64} << 20;  // 64 MiB
// With an embedder's allocator installed (bloom_set_allocator) every array
// comes from it instead, 64-byte aligned, and is zeroed here.
AlignedBuffer allocate_zeroed(size_t bytes);

// --- the embedder's allocator (bloom_set_allocator) -------------------------
// Installs a (validated) allocator, or restores the defaults for NULL.
// Refused (Error(UNSUPPORTED)) while any filter exists: each allocation is
// freed by the allocator in force when it is freed, which must be the one
// that made it.
void set_allocator(const bloom_allocator *a);
// Filter objects and the small tables that live as long as a filter (a
// scalable filter's stage list): the embedder's allocator when installed,
// operator new otherwise. allocate_object throws Error(NOMEM) or bad_alloc.
// From the embedder's allocator the block has a header of `alignment`
// bytes before the object holding the block's size, so free_object needs
// only the pointer and the alignment it was allocated with.
void *allocate_object(size_t bytes, size_t alignment);
void free_object(void *p, size_t alignment) noexcept;
// Live Filter objects (each stage of a scalable filter counts), kept by the
// Filter constructors and destructor for set_allocator's refusal.
void note_filter_created() noexcept;
void note_filter_destroyed() noexcept;
uint64_t live_filters() noexcept;

// A standard allocator over allocate_object, for containers a filter owns.
template <typename T>
struct ObjectAllocator {
  using value_type = T;
  ObjectAllocator() = default;
  template <typename U>
  ObjectAllocator(const ObjectAllocator<U> &) noexcept {}
  T *allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    return static_cast<T *>(allocate_object(n * sizeof(T), alignof(T)));
  }
  void deallocate(T *p, size_t) noexcept { free_object(p, alignof(T)); }
  template <typename U>
  bool operator==(const ObjectAllocator<U> &) const noexcept {
    return true;
  }
};

// Test hook: the countdown-th allocation from now fails (1 = the next one);
// 0 disables. Not thread-safe; meant for single-threaded fault injection.
// "Allocation" means every allocate_zeroed call and every allocation_point
// call (filter objects), so fault injection also reaches the object itself.
void set_allocation_failure_countdown(uint64_t countdown);

// Marks an allocation that does not go through allocate_zeroed (a filter
// object of `bytes` bytes): it is counted, and it is where an injected
// failure fires (throws Error(NOMEM)). Filter's constructors call it, so a
// failure there makes the new-expression free the object again.
void allocation_point(size_t bytes);

// Test-visible accounting of every allocate_zeroed and allocation_point call
// since the last reset: hostile-input tests use it to prove that no load
// asks for more memory than its input justifies. Relaxed atomics: exact when
// single-threaded, a sum of all threads otherwise.
struct AllocationStats {
  uint64_t array_calls = 0;   // allocate_zeroed calls
  uint64_t array_bytes = 0;   // bytes they requested (before cache-line rounding)
  uint64_t largest = 0;       // the largest single allocate_zeroed request
  uint64_t object_calls = 0;  // allocation_point calls
  uint64_t object_bytes = 0;  // bytes they announced
};
AllocationStats allocation_stats();
void reset_allocation_stats();

}  // namespace bloom::core
