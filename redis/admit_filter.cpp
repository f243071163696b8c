// SPDX-License-Identifier: Apache-2.0
#include "admit_filter.hpp"

#include <limits>

namespace bloom_redis {

bool check_servable(const FilterShape &shape, std::string *why) {
  if (shape.capacity > static_cast<uint64_t>(std::numeric_limits<long long>::max())) {
    *why = "its capacity " + std::to_string(shape.capacity) + " is 2^63 or more";
    return false;
  }
  return true;
}

FilterValue *admit_image(const unsigned char *image, size_t len, std::string *why) {
  bloom_filter *f = nullptr;
  const int64_t since = library_bytes_net();
  const bloom_status st = bloom_deserialize(image, len, &f);
  if (st != BLOOM_OK) {
    const char *detail = bloom_last_error();
    *why = detail != nullptr && detail[0] != '\0' ? detail : bloom_strerror(st);
    return nullptr;
  }
  FilterValue *v = adopt_filter(f, since, why);
  if (v != nullptr && !check_servable(v->shape, why)) {
    delete v;
    return nullptr;
  }
  return v;
}

FilterValue *admit_rb_chain(const RbChain &chain, const unsigned char *bits, std::string *why) {
  ServerBytes image;
  if (!check_rb_chain(chain, why) || !rb_chain_to_image(chain, bits, &image, why)) return nullptr;
  FilterValue *v = admit_image(image.data(), image.size(), why);
  if (v != nullptr) v->redisbloom_form = true;
  return v;
}

}  // namespace bloom_redis
