// SPDX-License-Identifier: Apache-2.0
#include "format/payload_io.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "error.hpp"
#include "byte_order.hpp"

namespace bloom::core {

namespace {
constexpr uint64_t kChunkWords = 8192;  // 64 KiB of staging on big-endian hosts
}

void write_words(ByteSink &sink, const BitArray &bits) {
  const uint64_t count = bits.word_count();
  if constexpr (std::endian::native == std::endian::little) {
    sink.write(bits.words(), count * 8);
  } else {
    unsigned char chunk[kChunkWords * 8];
    for (uint64_t start = 0; start < count; start += kChunkWords) {
      const uint64_t n = std::min(kChunkWords, count - start);
      for (uint64_t i = 0; i < n; ++i) store_le64(chunk + i * 8, bits.words()[start + i]);
      sink.write(chunk, n * 8);
    }
  }
}

BitArray read_words(ByteSource &src, uint64_t bits, bool zero_copy) {
  const uint64_t count = BitArray::word_count_for(bits);
  // Never allocate more than the input can fill: a lying size field must
  // fail here, not in the allocator.
  if (count * 8 > src.remaining())
    fail(Status::kFormat,
         "truncated: the payload is shorter than m = " + std::to_string(bits) + " bits needs");
  if (zero_copy) {
    if constexpr (std::endian::native != std::endian::little)
      fail(Status::kUnsupported, "mapping needs a little-endian host");
    const void *p = src.borrow(count * 8);
    if (p == nullptr || reinterpret_cast<uintptr_t>(p) % 8 != 0)
      fail(Status::kUnsupported, "this input cannot be used in place");
    return BitArray::borrow(static_cast<const uint64_t *>(p), bits);
  }
  BitArray out(bits);
  src.read(out.words(), count * 8);
  if constexpr (std::endian::native != std::endian::little)
    for (uint64_t i = 0; i < count; ++i) out.words()[i] = load_le64(&out.words()[i]);
  return out;
}

}  // namespace bloom::core
