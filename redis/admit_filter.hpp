// SPDX-License-Identifier: Apache-2.0
// admit_filter.hpp -- the one gate a stored filter passes before a key
// holds it, whatever brought it: RESTORE or an RDB load of either data
// type ("bloomfltr", "MBbloom--"), and the last BF.LOADCHUNK chunk of
// bloom's image or of RedisBloom's stream (the migration path).
//
// It accepts exactly what the module can serve, save and load again:
// bloom_deserialize's checks of the image, the module's own (below), and
// for a value saved in another encoding, that encoding's check of the form
// a save writes (check_rb_chain for RedisBloom's chain). A value type added
// later (its own encoding) passes its image through admit_image and adds
// its saved-form check beside check_rb_chain, so no load path accepts a
// value its save cannot write back.
#pragma once

#include <cstddef>
#include <string>

#include "filter_value.hpp"
#include "redisbloom_chain.hpp"

namespace bloom_redis {

// The module's checks of a live filter's parameters, for every value type:
// BF.INFO answers its capacity as a signed 64-bit integer, so a capacity
// of 2^63 or more (only a forged value has one) is refused.
bool check_servable(const FilterShape &shape, std::string *why);

// A live value from bloom's image (format v1). Returns NULL with *why set.
FilterValue *admit_image(const unsigned char *image, size_t len, std::string *why);

// A live value from RedisBloom's chain and its links' bits (bit_bytes()
// bytes, the links' in order): check_rb_chain, then bloom's image of it
// through admit_image. Returns NULL with *why set.
FilterValue *admit_rb_chain(const RbChain &chain, const unsigned char *bits, std::string *why);

}  // namespace bloom_redis
