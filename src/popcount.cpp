// SPDX-License-Identifier: Apache-2.0
#include "popcount.hpp"

#include <bit>

namespace bloom::core {
namespace {

using CountWords = uint64_t (*)(const uint64_t *, uint64_t);

uint64_t count_portable(const uint64_t *w, uint64_t n) {
  uint64_t set = 0;
  for (uint64_t i = 0; i < n; ++i) set += static_cast<uint64_t>(std::popcount(w[i]));
  return set;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) uint64_t count_popcnt(const uint64_t *w, uint64_t n) {
  uint64_t set = 0;
  for (uint64_t i = 0; i < n; ++i) set += static_cast<uint64_t>(__builtin_popcountll(w[i]));
  return set;
}
#endif

CountWords pick() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("popcnt")) return count_popcnt;
#endif
  return count_portable;
}

}  // namespace

uint64_t popcount_words(const uint64_t *w, uint64_t n) {
  static const CountWords count = pick();
  return count(w, n);
}

}  // namespace bloom::core
