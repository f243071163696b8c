// SPDX-License-Identifier: Apache-2.0
#include "format/serializer.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "error.hpp"
#include "byte_order.hpp"
#include "format/header.hpp"
#include "kind_table.hpp"

namespace bloom::core {

namespace {

// Hashes the payload bytes as they pass through to the real sink.
class ChecksumSink final : public ByteSink {
 public:
  explicit ChecksumSink(ByteSink &inner) : inner_(inner) { XXH3_64bits_reset(&state_); }
  void write(const void *data, size_t len) override {
    XXH3_64bits_update(&state_, data, len);
    inner_.write(data, len);
  }
  uint64_t digest() const { return XXH3_64bits_digest(&state_); }

 private:
  ByteSink &inner_;
  XXH3_state_t state_;
};

// Hashes what the kind reads, and stops it at the payload's end.
class ChecksumSource final : public ByteSource {
 public:
  ChecksumSource(ByteSource &inner, uint64_t payload_size) : inner_(inner), left_(payload_size) {
    XXH3_64bits_reset(&state_);
  }
  void read(void *out, size_t len) override {
    take(len);
    inner_.read(out, len);
    XXH3_64bits_update(&state_, out, len);
  }
  const void *borrow(size_t len) override {
    take(len);
    const void *p = inner_.borrow(len);
    if (p != nullptr) XXH3_64bits_update(&state_, p, len);
    return p;
  }
  uint64_t remaining() const override { return left_; }
  uint64_t digest() const { return XXH3_64bits_digest(&state_); }

 private:
  void take(size_t len) {
    if (len > left_) fail(Status::kFormat, "the kind's data runs past the declared payload size");
    left_ -= len;
  }
  ByteSource &inner_;
  uint64_t left_;
  XXH3_state_t state_;
};

// After a kind refused its payload (FORMAT, or OVERFLOW for a stage table
// whose sizes add up past the limits): whether the payload's checksum fails
// too. Reads what the kind left of the payload, then the trailer; any
// failure on the way (a truncated file) answers no, and the kind's own error
// stands.
bool payload_checksum_fails(ByteSource &src, ChecksumSource &payload) {
  try {
    unsigned char buffer[16384];
    while (payload.remaining() > 0) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(sizeof buffer, payload.remaining()));
      payload.read(buffer, n);
    }
    unsigned char trailer[kTrailerSize];
    src.read(trailer, sizeof trailer);
    return load_le64(trailer) != payload.digest();
  } catch (const Error &) {
    return false;
  }
}

Header header_of(const Filter &f) {
  Header h;
  h.config = f.config();
  h.format_minor = format_minor_for(h.config);
  h.keys_added = f.keys_added();
  h.payload_size = f.payload_size();
  h.stages = f.stage_count();
  return h;
}

}  // namespace

uint64_t serialized_size(const Filter &f) { return kHeaderSize + f.payload_size() + kTrailerSize; }

void serialize(const Filter &f, ByteSink &sink) {
  unsigned char header[kHeaderSize];
  encode_header(header_of(f), header);
  sink.write(header, sizeof header);
  ChecksumSink payload(sink);
  f.write_payload(payload);
  unsigned char trailer[kTrailerSize];
  store_le64(trailer, payload.digest());
  sink.write(trailer, sizeof trailer);
}

std::unique_ptr<Filter> deserialize(ByteSource &src, uint64_t total_len, bool zero_copy) {
  if (total_len < kHeaderSize + kTrailerSize) {
    if (total_len >= sizeof kMagic) {
      unsigned char magic[sizeof kMagic];
      src.read(magic, sizeof magic);
      if (std::memcmp(magic, kMagic, sizeof kMagic) != 0)
        fail(Status::kFormat, "not a bloom filter (bad magic bytes)");
    }
    fail(Status::kFormat, "truncated: " + std::to_string(total_len) +
                              " bytes is shorter than the smallest filter (136 bytes)");
  }
  unsigned char raw[kHeaderSize];
  src.read(raw, sizeof raw);
  const Header h = decode_header(raw, total_len);

  ChecksumSource payload(src, h.payload_size);
  std::unique_ptr<Filter> f;
  try {
    f = describe(h.config.kind).load(h, payload, zero_copy);
  } catch (const Error &e) {
    // Damage usually shows first as content the kind refuses (bits past m,
    // a stage that disagrees with the header); the checksum is the better
    // diagnosis when it fails too. Only once the kind has read some of the
    // payload: errors before that come from the header's own (checksummed)
    // fields, and draining a payload of the wrong declared size would call
    // them damage.
    const bool read_some = payload.remaining() < h.payload_size;
    const bool refused = e.status() == Status::kFormat || e.status() == Status::kOverflow;
    if (refused && read_some && payload_checksum_fails(src, payload))
      fail(Status::kChecksum,
           std::string("payload checksum mismatch: the filter data is damaged (") + e.what() + ")");
    throw;
  }
  if (payload.remaining() != 0)
    fail(Status::kFormat,
         "payload has " + std::to_string(payload.remaining()) + " bytes the filter does not use");
  unsigned char trailer[kTrailerSize];
  src.read(trailer, sizeof trailer);
  if (load_le64(trailer) != payload.digest())
    fail(Status::kChecksum, "payload checksum mismatch: the filter data is damaged");
  f->set_keys_added(h.keys_added);
  return f;
}

}  // namespace bloom::core
