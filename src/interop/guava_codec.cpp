// SPDX-License-Identifier: Apache-2.0
// Guava's BloomFilter.writeTo (Guava 11 and later; DataOutputStream, so
// big-endian):
//   offset 0   1 byte   the strategy's ordinal: 1 = MURMUR128_MITZ_64 (the
//                       default since Guava 13); 0 = MURMUR128_MITZ_32
//   offset 1   1 byte   k, unsigned
//   offset 2   4 bytes  n, the number of longs (a Java int)
//   offset 6   8n bytes the bit array's longs; bit x is bit x % 64 of long x / 64
// m is 64 n. The filter's insertion count is not stored (Guava's
// approximateElementCount estimates it from the bits, as bloom_info's
// estimated_keys does).
#include <string>

#include "error.hpp"
#include "interop/foreign_codec.hpp"
#include "kinds/classic.hpp"

namespace bloom::core {

namespace {
constexpr size_t kHeader = 6;
constexpr unsigned kMitz64 = 1;
constexpr unsigned kMitz32 = 0;
}  // namespace

std::unique_ptr<Filter> import_guava(const unsigned char *in, size_t len) {
  if (len < kHeader)
    fail(Status::kFormat,
         "not a Guava filter: " + std::to_string(len) + " bytes, fewer than its 6-byte header");
  const unsigned strategy = in[0];
  if (strategy == kMitz32)
    fail(Status::kUnsupported,
         "Guava filter of the MURMUR128_MITZ_32 strategy (Guava 11-12): only MURMUR128_MITZ_64 is read");
  if (strategy != kMitz64)
    fail(Status::kFormat, "not a Guava filter: unknown strategy " + std::to_string(strategy));
  const unsigned k = in[1];
  if (k == 0) fail(Status::kFormat, "Guava filter with 0 hash functions");
  if (k > BLOOM_MAX_HASHES)
    fail(Status::kOverflow,
         "Guava filter with " + std::to_string(k) + " hash functions; at most 64 are supported");
  const uint64_t raw_longs = load_be(in + 2, 4);
  if (raw_longs == 0 || raw_longs > 0x7fffffff)
    fail(Status::kFormat,
         "Guava filter with a bit array of " + std::to_string(static_cast<int32_t>(raw_longs)) + " longs");
  const uint64_t bytes = raw_longs * 8;
  if (len - kHeader != bytes)
    fail(Status::kFormat, "Guava filter of " + std::to_string(raw_longs) + " longs needs " +
                              std::to_string(kHeader + bytes) + " bytes; the input has " +
                              std::to_string(len));
  if (raw_longs * 64 > BLOOM_MAX_BITS)
    fail(Status::kOverflow,
         "Guava filter of " + std::to_string(raw_longs * 64) + " bits exceeds the 2^40 limit");
  FilterConfig c;
  c.kind = Kind::kClassic;
  c.hash = HashKind::kGuava;
  c.flags = BLOOM_FLAG_PLAIN_DOUBLE_HASHING;
  c.bits = raw_longs * 64;
  c.hashes = k;
  BigEndianWordsSource src(in + kHeader, bytes);
  return filter_from_payload(c, src, bytes);
}

uint64_t guava_export_size(const FilterConfig &c) { return kHeader + c.bits / 8; }

void export_guava(const Filter &f, unsigned char *out) {
  const FilterConfig &c = f.config();
  out[0] = kMitz64;
  out[1] = static_cast<unsigned char>(c.hashes);
  store_be(out + 2, c.bits / 64, 4);
  BigEndianWordsSink sink(out + kHeader);
  f.write_payload(sink);
  if (sink.written() != c.bits / 8) fail(Status::kFormat, "internal: Guava payload size mismatch");
}

}  // namespace bloom::core
