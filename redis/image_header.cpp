// SPDX-License-Identifier: Apache-2.0
#include "image_header.hpp"

#include <bloom/bloom.h>

namespace bloom_redis {

uint64_t image_total_size(const unsigned char *data, size_t len) {
  uint64_t size = 0;
  return bloom_image_size(data, len, &size, nullptr, nullptr) == BLOOM_OK ? size : 0;
}

}  // namespace bloom_redis
