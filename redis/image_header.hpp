// SPDX-License-Identifier: Apache-2.0
// image_header.hpp -- the one thing BF.LOADCHUNK must know of a serialized
// filter before it has all of it: how long the whole image is.
//
// The library reads the image's first bytes (bloom_image_size); everything
// else is validated by bloom_deserialize once the image is complete.
#pragma once

#include <bloom/bloom.h>

#include <cstddef>
#include <cstdint>

namespace bloom_redis {

// Bytes of the image's start that the first BF.LOADCHUNK chunk must hold:
// the payload size (72..79) and a scalable filter's growth (80..87).
inline constexpr size_t kImagePrefixBytes = BLOOM_IMAGE_PREFIX_SIZE;

// The total image size the header declares, or 0 if data (len bytes, at
// least kImagePrefixBytes) is not the start of a bloom filter image.
uint64_t image_total_size(const unsigned char *data, size_t len);

}  // namespace bloom_redis
