// SPDX-License-Identifier: Apache-2.0
// byte_stream.hpp -- where serialized bytes go to and come from.
//
// A filter kind writes its payload to a ByteSink and reads it back from a
// ByteSource without knowing whether the other end is a caller's buffer, a
// file or a mapping. Sources are bounded: reading past the end throws
// Error(FORMAT, "truncated"), so a lying size field can never make a reader
// run off its input.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bloom::core {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(const void *data, size_t len) = 0;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Copies exactly len bytes or throws Error(FORMAT).
  virtual void read(void *out, size_t len) = 0;
  // Returns a pointer to the next len bytes and skips them, or nullptr when
  // this source cannot lend its memory (zero-copy mapping uses it).
  virtual const void *borrow(size_t len) = 0;
  virtual uint64_t remaining() const = 0;
};

}  // namespace bloom::core
