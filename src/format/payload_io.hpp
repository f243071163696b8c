// SPDX-License-Identifier: Apache-2.0
// payload_io.hpp -- bit arrays to and from their little-endian file image.
#pragma once

#include <cstdint>

#include "bit_array.hpp"
#include "format/byte_stream.hpp"

namespace bloom::core {

// Writes the words of `bits` as little-endian bytes.
void write_words(ByteSink &sink, const BitArray &bits);

// Reads an array of `bits` bits written by write_words. With zero_copy the
// array borrows the source's memory (the caller keeps it alive), which needs
// a little-endian host and 8-byte-aligned data; otherwise it is a copy.
BitArray read_words(ByteSource &src, uint64_t bits, bool zero_copy);

}  // namespace bloom::core
