// SPDX-License-Identifier: Apache-2.0
// popcount.hpp -- set bits over many words, for the passes that count a
// whole filter (bloom_get_info's fill, the estimates built on it).
#pragma once

#include <cstdint>

namespace bloom::core {

// The set bits of w[0, n). The x86-64 baseline the library is built for
// has no POPCNT instruction, so std::popcount compiles to a libgcc call per
// word there, several times slower than the instruction; this picks the
// instruction at run time when the CPU has it (every x86-64 CPU since
// 2008-2011 does).
uint64_t popcount_words(const uint64_t *w, uint64_t n);

}  // namespace bloom::core
