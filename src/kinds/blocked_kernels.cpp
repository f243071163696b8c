#include "kinds/blocked_kernels.hpp"

#include "kinds/blocked_line.hpp"

namespace bloom::core::blocked {

// Defined in blocked_kernels_avx2.cpp on x86-64 builds.
const Kernels *avx2_kernels_if_supported();

namespace {

bool portable_query_line(const uint64_t *line, uint32_t x, uint32_t k) { return line_has(line, x, k); }

void portable_query_lines(const uint64_t *words, const uint64_t *lines, const uint32_t *seeds, size_t n,
                          uint32_t k, uint8_t *out) {
  for (size_t i = 0; i < n; ++i) out[i] = line_has(words + lines[i] * kLineWords, seeds[i], k) ? 1 : 0;
}

bool portable_add_line(uint64_t *line, uint32_t x, uint32_t k) { return line_add(line, x, k); }

void portable_add_lines(uint64_t *words, const uint64_t *lines, const uint32_t *seeds, size_t n, uint32_t k) {
  for (size_t i = 0; i < n; ++i) (void)line_add(words + lines[i] * kLineWords, seeds[i], k);
}

constexpr Kernels kPortable{"portable", portable_query_line, portable_query_lines, portable_add_line,
                            portable_add_lines};

}  // namespace

const Kernels &portable_kernels() { return kPortable; }

const Kernels *avx2_kernels() { return avx2_kernels_if_supported(); }

const Kernels &best_kernels() {
  static const Kernels *const best = [] {
    const Kernels *avx2 = avx2_kernels();
    return avx2 != nullptr ? avx2 : &kPortable;
  }();
  return *best;
}

}  // namespace bloom::core::blocked
