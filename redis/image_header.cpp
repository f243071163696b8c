#include "image_header.hpp"

#include <cstring>

namespace bloom_redis {

namespace {
constexpr unsigned char kMagic[8] = {0x89, 'B', 'L', 'O', 'O', 'M', '\r', '\n'};
constexpr size_t kPayloadSizeOffset = 72;
constexpr uint64_t kFraming = 128 + 8;
// No payload is larger than 2^40 counters of 8 bits; refusing more keeps
// the sum below from overflowing.
constexpr uint64_t kMaxPayload = uint64_t{1} << 44;
}  // namespace

uint64_t image_total_size(const unsigned char *data, size_t len) {
  if (len < kImagePrefixBytes || std::memcmp(data, kMagic, sizeof kMagic) != 0) return 0;
  uint64_t payload = 0;
  for (int i = 7; i >= 0; --i) payload = (payload << 8) | data[kPayloadSizeOffset + i];
  if (payload > kMaxPayload) return 0;
  return payload + kFraming;
}

}  // namespace bloom_redis
