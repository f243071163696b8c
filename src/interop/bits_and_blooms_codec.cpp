// SPDX-License-Identifier: Apache-2.0
// Go's bits-and-blooms/bloom v3 BloomFilter.WriteTo (encoding/binary,
// big-endian; the bit set's default byte order):
//   offset 0   8 bytes  m, the filter's bits
//   offset 8   8 bytes  k
//   offset 16  8 bytes  the bit set's length in bits (m: New(m, k) makes it so)
//   offset 24  8w bytes its w = ceil(length / 64) words; bit x is bit x % 64
//                       of word x / 64
// GobEncode and MarshalBinary write the same bytes. The insertion count is
// not stored.
#include <string>

#include "error.hpp"
#include "interop/foreign_codec.hpp"

namespace bloom::core {

namespace {
constexpr size_t kHeader = 24;
}

std::unique_ptr<Filter> import_bits_and_blooms(const unsigned char *in, size_t len) {
  if (len < kHeader)
    fail(Status::kFormat,
         "not a bits-and-blooms filter: " + std::to_string(len) + " bytes, fewer than its 24-byte header");
  const uint64_t m = load_be(in, 8);
  const uint64_t k = load_be(in + 8, 8);
  const uint64_t length = load_be(in + 16, 8);
  if (m == 0 || k == 0) fail(Status::kFormat, "bits-and-blooms filter with m or k = 0");
  if (length != m)
    fail(Status::kFormat, "bits-and-blooms filter whose bit set has " + std::to_string(length) +
                              " bits for m = " + std::to_string(m));
  if (m > BLOOM_MAX_BITS)
    fail(Status::kOverflow,
         "bits-and-blooms filter of " + std::to_string(m) + " bits exceeds the 2^40 limit");
  if (k > BLOOM_MAX_HASHES)
    fail(Status::kOverflow,
         "bits-and-blooms filter with " + std::to_string(k) + " hash functions; at most 64 are supported");
  const uint64_t bytes = (m + 63) / 64 * 8;
  if (len - kHeader != bytes)
    fail(Status::kFormat, "bits-and-blooms filter of " + std::to_string(m) + " bits needs " +
                              std::to_string(kHeader + bytes) + " bytes; the input has " +
                              std::to_string(len));
  FilterConfig c;
  c.kind = Kind::kClassic;
  c.hash = HashKind::kBitsAndBlooms;
  c.flags = BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
  c.bits = m;
  c.hashes = static_cast<uint32_t>(k);
  BigEndianWordsSource src(in + kHeader, bytes);
  return filter_from_payload(c, src, bytes);
}

uint64_t bits_and_blooms_export_size(const FilterConfig &c) { return kHeader + (c.bits + 63) / 64 * 8; }

void export_bits_and_blooms(const Filter &f, unsigned char *out) {
  const FilterConfig &c = f.config();
  store_be(out, c.bits, 8);
  store_be(out + 8, c.hashes, 8);
  store_be(out + 16, c.bits, 8);
  BigEndianWordsSink sink(out + kHeader);
  f.write_payload(sink);
  if (sink.written() != (c.bits + 63) / 64 * 8) fail(Status::kFormat, "internal: bit set size mismatch");
}

}  // namespace bloom::core
