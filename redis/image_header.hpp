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
// the payload size (72..79) and a scalable filter's growth (80..87), which
// the size limit needs. With 80, a scalable first chunk of 80-87 bytes
// passed the MAX_FILTER_BYTES check unjudged.
inline constexpr size_t kImagePrefixBytes = BLOOM_IMAGE_PREFIX_SIZE;

// The total image size the header declares, or 0 if data (len bytes, at
// least kImagePrefixBytes) is not the start of a bloom filter image.
uint64_t image_total_size(const unsigned char *data, size_t len);

// The largest image of this header that the module could have grown
// itself under a MAX_FILTER_BYTES of `limit`: the limit, and for a scalable
// filter also the one stage that may cross it, at most 1.1 x `growth` times
// what came before (the header's kind and growth). 0 (nothing is allowed)
// when data is not the start of an image of at least kImagePrefixBytes.
uint64_t image_size_allowed(const unsigned char *data, size_t len, uint64_t limit);

}  // namespace bloom_redis
