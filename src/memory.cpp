#include "memory.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "error.hpp"

namespace bloom::core {

namespace {
uint64_t g_failure_countdown = 0;
}

void AlignedFree::operator()(void *p) const noexcept { std::free(p); }

void set_allocation_failure_countdown(uint64_t countdown) { g_failure_countdown = countdown; }

AlignedBuffer allocate_zeroed(size_t bytes) {
  if (g_failure_countdown != 0 && --g_failure_countdown == 0)
    fail(BLOOM_E_NOMEM, "allocation failure injected by a test");
  const size_t rounded = (bytes + kCacheLine - 1) / kCacheLine * kCacheLine;
  if (rounded < bytes) fail(BLOOM_E_OVERFLOW, "allocation size overflows");
  void *p = nullptr;
  if (posix_memalign(&p, kCacheLine, rounded == 0 ? kCacheLine : rounded) != 0)
    fail(BLOOM_E_NOMEM, "cannot allocate " + std::to_string(rounded) + " bytes");
  std::memset(p, 0, rounded == 0 ? kCacheLine : rounded);
  return AlignedBuffer(p);
}

}  // namespace bloom::core
