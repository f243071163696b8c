// SPDX-License-Identifier: Apache-2.0
#include "memory.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define BLOOM_HAVE_MMAP 1
#else
#define BLOOM_HAVE_MMAP 0
#endif

#include "error.hpp"

namespace bloom::core {

namespace {
uint64_t g_failure_countdown = 0;
std::atomic<uint64_t> g_array_calls{0};
std::atomic<uint64_t> g_array_bytes{0};
std::atomic<uint64_t> g_largest{0};
std::atomic<uint64_t> g_object_calls{0};
std::atomic<uint64_t> g_object_bytes{0};

// The embedder's allocator; alloc == nullptr means the defaults. Written
// only while no filter exists, so readers need no synchronisation beyond
// the embedder's promise not to race bloom_set_allocator with other calls.
bloom_allocator g_allocator{};
std::atomic<uint64_t> g_live_filters{0};

void *hooked_alloc(size_t bytes, size_t alignment) {
  void *p = g_allocator.alloc(g_allocator.user_data, bytes, alignment);
  if (p == nullptr)
    fail(Status::kNoMem, "cannot allocate " + std::to_string(bytes) + " bytes (embedder's allocator)");
  if (reinterpret_cast<uintptr_t>(p) % alignment != 0) {
    g_allocator.free(g_allocator.user_data, p, bytes, alignment);
    fail(Status::kNoMem,
         "the embedder's allocator returned memory not aligned to " + std::to_string(alignment) + " bytes");
  }
  return p;
}

void maybe_inject_failure() {
  if (g_failure_countdown != 0 && --g_failure_countdown == 0)
    fail(Status::kNoMem, "allocation failure injected by a test");
}
}  // namespace

void AlignedFree::operator()(void *p) const noexcept {
  if (hooked_bytes != 0) {
    g_allocator.free(g_allocator.user_data, p, hooked_bytes, kCacheLine);
    return;
  }
#if BLOOM_HAVE_MMAP
  if (mapped_bytes != 0) {
    munmap(p, mapped_bytes);
    return;
  }
#endif
  std::free(p);
}

void set_allocation_failure_countdown(uint64_t countdown) { g_failure_countdown = countdown; }

void allocation_point(size_t bytes) {
  g_object_calls.fetch_add(1, std::memory_order_relaxed);
  g_object_bytes.fetch_add(bytes, std::memory_order_relaxed);
  maybe_inject_failure();
}

AllocationStats allocation_stats() {
  AllocationStats s;
  s.array_calls = g_array_calls.load(std::memory_order_relaxed);
  s.array_bytes = g_array_bytes.load(std::memory_order_relaxed);
  s.largest = g_largest.load(std::memory_order_relaxed);
  s.object_calls = g_object_calls.load(std::memory_order_relaxed);
  s.object_bytes = g_object_bytes.load(std::memory_order_relaxed);
  return s;
}

void reset_allocation_stats() {
  for (auto *counter : {&g_array_calls, &g_array_bytes, &g_largest, &g_object_calls, &g_object_bytes})
    counter->store(0, std::memory_order_relaxed);
}

#if BLOOM_HAVE_MMAP
namespace {
// Commits a fresh mapping at once, so that a first fill takes no page
// faults (a filter of a few MB would otherwise pay them in its first
// inserts), in transparent huge pages where the kernel has them. The
// array is resident from here on either way, so 2 MiB pages cost no
// memory, and they make committing it several times cheaper: one fault
// and one clear per 2 MiB instead of 512 (creating or loading a 50 MB
// filter is mostly this). Advice only: without THP or
// MADV_POPULATE_WRITE (Linux 5.14) the pages are touched one by one.
void populate_huge(void *p, size_t length) {
#ifdef MADV_HUGEPAGE
  (void)madvise(p, length, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
  if (madvise(p, length, MADV_POPULATE_WRITE) == 0) return;
#endif
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto *bytes = static_cast<volatile unsigned char *>(p);
  for (size_t i = 0; i < length; i += page) bytes[i] = 0;
}
}  // namespace
#endif

AlignedBuffer allocate_zeroed(size_t bytes) {
  g_array_calls.fetch_add(1, std::memory_order_relaxed);
  g_array_bytes.fetch_add(bytes, std::memory_order_relaxed);
  uint64_t seen = g_largest.load(std::memory_order_relaxed);
  while (bytes > seen && !g_largest.compare_exchange_weak(seen, bytes, std::memory_order_relaxed)) {
  }
  maybe_inject_failure();
  const size_t rounded = (bytes + kCacheLine - 1) / kCacheLine * kCacheLine;
  if (rounded < bytes) fail(Status::kOverflow, "allocation size overflows");
  if (g_allocator.alloc != nullptr) {
    const size_t size = rounded == 0 ? kCacheLine : rounded;
    void *p = hooked_alloc(size, kCacheLine);
    std::memset(p, 0, size);
    return AlignedBuffer(p, AlignedFree{0, size});
  }
#if BLOOM_HAVE_MMAP
  // Zeroing up front touched every page: a 12.5 GB filter (k = 1 at p =
  // 1e-5) took 37 s and 12 GB of resident memory just to be created.
  if (rounded >= kMapThreshold) {
    const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t length = (rounded + page - 1) / page * page;
    if (length < rounded) fail(Status::kOverflow, "allocation size overflows");
    void *p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) fail(Status::kNoMem, "cannot allocate " + std::to_string(rounded) + " bytes");
    if (length <= kPopulateLimit) populate_huge(p, length);
    return AlignedBuffer(p, AlignedFree{length});
  }
#endif
  void *p = nullptr;
  if (posix_memalign(&p, kCacheLine, rounded == 0 ? kCacheLine : rounded) != 0)
    fail(Status::kNoMem, "cannot allocate " + std::to_string(rounded) + " bytes");
  std::memset(p, 0, rounded == 0 ? kCacheLine : rounded);
  return AlignedBuffer(p);
}

void set_allocator(const bloom_allocator *a) {
  if (live_filters() != 0)
    fail(Status::kUnsupported, std::to_string(live_filters()) +
                                   " filter objects exist; set the allocator before creating any filter");
  if (a == nullptr) {
    g_allocator = bloom_allocator{};
    return;
  }
  if (a->struct_size < sizeof(bloom_allocator))
    fail(Status::kInvalidArg,
         "struct_size is " + std::to_string(a->struct_size) +
             ", below sizeof(bloom_allocator) = " + std::to_string(sizeof(bloom_allocator)));
  if (a->alloc == nullptr || a->free == nullptr) fail(Status::kInvalidArg, "alloc or free is NULL");
  g_allocator = *a;
  g_allocator.struct_size = sizeof(bloom_allocator);
}

void *allocate_object(size_t bytes, size_t alignment) {
  if (alignment < alignof(std::max_align_t)) alignment = alignof(std::max_align_t);
  if (g_allocator.alloc != nullptr) {
    if (bytes > SIZE_MAX - alignment) throw std::bad_alloc();
    const size_t total = bytes + alignment;
    auto *block = static_cast<unsigned char *>(hooked_alloc(total, alignment));
    std::memcpy(block, &total, sizeof total);
    return block + alignment;
  }
  if (alignment > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
    return ::operator new (bytes, std::align_val_t{alignment});
  return ::operator new(bytes);
}

void free_object(void *p, size_t alignment) noexcept {
  if (p == nullptr) return;
  if (alignment < alignof(std::max_align_t)) alignment = alignof(std::max_align_t);
  if (g_allocator.alloc != nullptr) {
    unsigned char *block = static_cast<unsigned char *>(p) - alignment;
    size_t total = 0;
    std::memcpy(&total, block, sizeof total);
    g_allocator.free(g_allocator.user_data, block, total, alignment);
    return;
  }
  if (alignment > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    ::operator delete (p, std::align_val_t{alignment});
    return;
  }
  ::operator delete(p);
}

void note_filter_created() noexcept { g_live_filters.fetch_add(1, std::memory_order_relaxed); }
void note_filter_destroyed() noexcept { g_live_filters.fetch_sub(1, std::memory_order_relaxed); }
uint64_t live_filters() noexcept { return g_live_filters.load(std::memory_order_relaxed); }

}  // namespace bloom::core
