// SPDX-License-Identifier: Apache-2.0
#include "format/stage_table.hpp"

#include "bloom/bloom.h"
#include "byte_order.hpp"
#include "error.hpp"

namespace bloom::core {

namespace {

void encode(const StageDescriptor &d, unsigned char *p) {
  store_le64(p, d.bits);
  store_le64(p + 8, d.capacity);
  store_le64(p + 16, d.keys);
  store_le64(p + 24, double_bits(d.fp_rate));
  store_le32(p + 32, d.hashes);
  store_le32(p + 36, 0);
}

StageDescriptor decode(const unsigned char *p) {
  StageDescriptor d;
  d.bits = load_le64(p);
  d.capacity = load_le64(p + 8);
  d.keys = load_le64(p + 16);
  d.fp_rate = bits_double(load_le64(p + 24));
  d.hashes = load_le32(p + 32);
  d.reserved = load_le32(p + 36);
  return d;
}

void check(const StageDescriptor &d, uint32_t i) {
  const std::string stage = "stage " + std::to_string(i) + ": ";
  if (d.bits < 1 || d.bits > BLOOM_MAX_BITS)
    fail(Status::kFormat, stage + "bit count " + std::to_string(d.bits) + " is outside [1, 2^40]");
  if (d.hashes < 1 || d.hashes > BLOOM_MAX_HASHES)
    fail(Status::kFormat, stage + "hash count " + std::to_string(d.hashes) + " is outside [1, 64]");
  if (d.capacity < 1) fail(Status::kFormat, stage + "capacity is 0");
  if (!(d.fp_rate > 0.0 && d.fp_rate < 1.0)) fail(Status::kFormat, stage + "fp_rate is not in (0, 1)");
  if (d.reserved != 0) fail(Status::kFormat, stage + "reserved descriptor field is not 0");
}

}  // namespace

void write_stage_table(ByteSink &sink, const std::vector<StageDescriptor> &stages) {
  std::vector<unsigned char> table(stage_table_size(stages.size()), 0);
  for (size_t i = 0; i < stages.size(); ++i) encode(stages[i], table.data() + i * kStageDescriptorSize);
  sink.write(table.data(), table.size());
}

std::vector<StageDescriptor> read_stage_table(ByteSource &src, uint32_t count, uint64_t payload_size) {
  // The table (40 bytes a stage, at most 160 GiB for 2^32 stages, no
  // overflow) must fit the payload before it is allocated and read; the
  // payload is no larger than the input, so a hostile count cannot make
  // the table larger than the file that claims it.
  const uint64_t table_size = stage_table_size(count);
  if (table_size > payload_size)
    fail(Status::kFormat, "payload of " + std::to_string(payload_size) + " bytes cannot hold " +
                              std::to_string(count) + " stage descriptors");
  std::vector<unsigned char> table(table_size);
  src.read(table.data(), table.size());
  for (uint64_t i = kStageDescriptorSize * count; i < table_size; ++i)
    if (table[i] != 0) fail(Status::kFormat, "non-zero padding after the stage table");
  std::vector<StageDescriptor> stages(count);
  for (uint32_t i = 0; i < count; ++i) {
    stages[i] = decode(table.data() + i * kStageDescriptorSize);
    check(stages[i], i);
  }
  return stages;
}

void write_stage_padding(ByteSink &sink, uint64_t stage_bytes) {
  static const unsigned char zeros[kStageAlign] = {};
  sink.write(zeros, pad_to_stage_align(stage_bytes) - stage_bytes);
}

void read_stage_padding(ByteSource &src, uint64_t stage_bytes, const std::string &where) {
  const uint64_t n = pad_to_stage_align(stage_bytes) - stage_bytes;
  unsigned char pad[kStageAlign];
  src.read(pad, n);
  for (uint64_t i = 0; i < n; ++i)
    if (pad[i] != 0) fail(Status::kFormat, "non-zero padding after " + where);
}

}  // namespace bloom::core
