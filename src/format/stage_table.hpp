// SPDX-License-Identifier: Apache-2.0
// stage_table.hpp -- the scalable kind's payload framing (docs/FORMAT.md):
// a table of 40-byte stage descriptors (bits, capacity, keys, fp_rate as
// IEEE-754 bits, all u64 little-endian; hashes u32; reserved u32 = 0),
// zero-padded to a multiple of 64 bytes, then each stage's words, each
// zero-padded to a multiple of 64 bytes, so every stage starts 64-byte
// aligned in the file and maps in place. The codec checks what a descriptor
// says on its own; whether the stages fit the header is the kind's check.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/byte_stream.hpp"

namespace bloom::core {

struct StageDescriptor {
  uint64_t bits = 0, capacity = 0, keys = 0;
  double fp_rate = 0;
  uint32_t hashes = 0, reserved = 0;
};

inline constexpr uint64_t kStageDescriptorSize = 40;
inline constexpr uint64_t kStageAlign = 64;

inline uint64_t pad_to_stage_align(uint64_t n) { return (n + kStageAlign - 1) / kStageAlign * kStageAlign; }

// The table's bytes, padding included, for `count` stages.
inline uint64_t stage_table_size(uint64_t count) { return pad_to_stage_align(kStageDescriptorSize * count); }

void write_stage_table(ByteSink &sink, const std::vector<StageDescriptor> &stages);

// Reads the table of `count` stages from a payload of payload_size bytes:
// refuses (BLOOM_E_FORMAT) a table the payload cannot hold, non-zero
// padding, and a descriptor whose own fields are out of range.
std::vector<StageDescriptor> read_stage_table(ByteSource &src, uint32_t count, uint64_t payload_size);

// The zeros after a stage's words up to the next 64-byte boundary.
void write_stage_padding(ByteSink &sink, uint64_t stage_bytes);
void read_stage_padding(ByteSource &src, uint64_t stage_bytes, const std::string &where);

}  // namespace bloom::core
