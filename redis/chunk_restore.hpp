// SPDX-License-Identifier: Apache-2.0
// chunk_restore.hpp -- what one BF.LOADCHUNK does to a key, apart from
// Redis: the command (commands_dump.cpp) opens the key and applies the
// outcome; the fuzz target (fuzz/loadchunk_fuzzer.cpp) runs the same
// function over chunk sequences.
//
// A header chunk (iterator 1), or an older module version's first chunk
// (its iterator equal to its length, bloom's magic first), starts a
// restore into a key that is empty or holds an unfinished restore; it
// never replaces a live filter, whichever form it takes (RedisBloom
// refuses it too). Later chunks must continue the restore in order. The
// last one passes the restored filter through admit_filter.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "filter_value.hpp"

namespace bloom_redis {

// The iterator bits an older module version's iterators kept the offset in.
inline constexpr uint64_t kLegacyOffsetMask = (uint64_t{1} << 40) - 1;
// BF.SCANDUMP's first reply: bloom's image header.
inline constexpr uint64_t kHeaderChunkBytes = 128;

inline constexpr const char *kBadChunkData = "ERR received bad data";

struct ChunkOutcome {
  // Non-empty: the error reply. The key is unchanged unless remove is set.
  std::string error;
  // A value the key must now hold (Redis owns it once stored): a started
  // restore, or the live filter its last chunk made.
  FilterValue *store = nullptr;
  // The restore's last chunk did not make a valid filter: delete the key.
  bool remove = false;
  // The chunk was taken: replicate the command.
  bool taken = false;
};

// One BF.LOADCHUNK key iter data on a key holding `current` (NULL: empty;
// a continuing chunk appends to current->pending). `max_bytes` limits the
// restored filter's size (0: no limit; callers pass 0 while the server
// replays its AOF or its master's stream, which were accepted once).
ChunkOutcome apply_chunk(FilterValue *current, uint64_t iter, const unsigned char *data, size_t len,
                         uint64_t max_bytes);

}  // namespace bloom_redis
