// SPDX-License-Identifier: Apache-2.0
// memory_stream.hpp -- ByteSink/ByteSource over plain memory.
#pragma once

#include <cstring>

#include "error.hpp"
#include "format/byte_stream.hpp"

namespace bloom::core {

// Writes into a caller's buffer whose capacity was checked beforehand.
class MemorySink final : public ByteSink {
 public:
  explicit MemorySink(void *buf) : out_(static_cast<unsigned char *>(buf)) {}
  void write(const void *data, size_t len) override {
    if (len != 0) std::memcpy(out_ + written_, data, len);
    written_ += len;
  }
  size_t written() const { return written_; }

 private:
  unsigned char *out_;
  size_t written_ = 0;
};

// Counts bytes without storing them.
class CountingSink final : public ByteSink {
 public:
  void write(const void *, size_t len) override { count_ += len; }
  uint64_t count() const { return count_; }

 private:
  uint64_t count_ = 0;
};

class MemorySource final : public ByteSource {
 public:
  MemorySource(const void *data, size_t len) : p_(static_cast<const unsigned char *>(data)), left_(len) {}
  void read(void *out, size_t len) override {
    const void *from = borrow(len);
    if (len != 0) std::memcpy(out, from, len);
  }
  const void *borrow(size_t len) override {
    if (len > left_) fail(Status::kFormat, "truncated: the input ends inside the filter");
    const unsigned char *at = p_;
    p_ += len;
    left_ -= len;
    return at;
  }
  uint64_t remaining() const override { return left_; }

 private:
  const unsigned char *p_;
  size_t left_;
};

}  // namespace bloom::core
