// SPDX-License-Identifier: Apache-2.0
// pipelined_blocks.hpp -- the software pipeline of the batch paths.
//
// A batch is cut into blocks, and block b + 1 is staged (hashed, its memory
// prefetched) before block b is used (added or probed), so each block's
// memory has a whole block of hashing to arrive; staging and using one block
// at a time left the first keys of every block waiting on memory requested
// moments before. Filter::add_keys and the
// blocked kind's batch queries both run this loop.
#pragma once

#include <cstddef>

namespace bloom::core {

// Calls stage(start, count, slot) for the blocks of at most kBlock of
// [0, n), each one block ahead of use(start, count, slot) for the same
// block; slot alternates between 0 and 1 and names the caller's buffer for
// that block. After the last block, stage is called once more with count 0.
template <size_t kBlock, typename Stage, typename Use>
inline void pipelined_blocks(size_t n, Stage &&stage, Use &&use) {
  size_t start = 0;
  size_t count = n < kBlock ? n : kBlock;
  stage(start, count, size_t{0});
  for (size_t slot = 0; count != 0; slot ^= 1) {
    const size_t next = start + count;
    const size_t next_count = n - next < kBlock ? n - next : kBlock;
    stage(next, next_count, slot ^ 1);
    use(start, count, slot);
    start = next;
    count = next_count;
  }
}

}  // namespace bloom::core
