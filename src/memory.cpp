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

void maybe_inject_failure() {
  if (g_failure_countdown != 0 && --g_failure_countdown == 0)
    fail(BLOOM_E_NOMEM, "allocation failure injected by a test");
}
}  // namespace

void AlignedFree::operator()(void *p) const noexcept {
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

AlignedBuffer allocate_zeroed(size_t bytes) {
  g_array_calls.fetch_add(1, std::memory_order_relaxed);
  g_array_bytes.fetch_add(bytes, std::memory_order_relaxed);
  uint64_t seen = g_largest.load(std::memory_order_relaxed);
  while (bytes > seen && !g_largest.compare_exchange_weak(seen, bytes, std::memory_order_relaxed)) {
  }
  maybe_inject_failure();
  const size_t rounded = (bytes + kCacheLine - 1) / kCacheLine * kCacheLine;
  if (rounded < bytes) fail(BLOOM_E_OVERFLOW, "allocation size overflows");
#if BLOOM_HAVE_MMAP
  // Zeroing up front touched every page: a 12.5 GB filter (k = 1 at p =
  // 1e-5) took 37 s and 12 GB of resident memory just to be created.
  if (rounded >= kMapThreshold) {
    const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t length = (rounded + page - 1) / page * page;
    if (length < rounded) fail(BLOOM_E_OVERFLOW, "allocation size overflows");
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_POPULATE
    // Populated, a first fill takes no page faults: at 1 M keys / p = 1e-4
    // (2.75 MB) lazy pages cost the first blocked inserts 1-4 ns each in
    // this VM (docs/PERFORMANCE.md, round 3).
    if (length <= kPopulateLimit) flags |= MAP_POPULATE;
#endif
    void *p = mmap(nullptr, length, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (p == MAP_FAILED) fail(BLOOM_E_NOMEM, "cannot allocate " + std::to_string(rounded) + " bytes");
    return AlignedBuffer(p, AlignedFree{length});
  }
#endif
  void *p = nullptr;
  if (posix_memalign(&p, kCacheLine, rounded == 0 ? kCacheLine : rounded) != 0)
    fail(BLOOM_E_NOMEM, "cannot allocate " + std::to_string(rounded) + " bytes");
  std::memset(p, 0, rounded == 0 ? kCacheLine : rounded);
  return AlignedBuffer(p);
}

}  // namespace bloom::core
