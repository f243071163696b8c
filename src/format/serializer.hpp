// SPDX-License-Identifier: Apache-2.0
// serializer.hpp -- a whole filter to and from its format-v1 byte image:
// header, payload (at offset 128, so 64-byte aligned), payload checksum.
#pragma once

#include <cstdint>
#include <memory>

#include "filter.hpp"
#include "format/byte_stream.hpp"

namespace bloom::core {

uint64_t serialized_size(const Filter &f);
void serialize(const Filter &f, ByteSink &sink);

// Reads an image of exactly total_len bytes from src. With zero_copy the
// filter borrows src's memory (see ByteSource::borrow), which the caller
// keeps alive. Throws Error; nothing is allocated beyond what total_len
// justifies, and the payload checksum is verified before returning.
std::unique_ptr<Filter> deserialize(ByteSource &src, uint64_t total_len, bool zero_copy);

}  // namespace bloom::core
