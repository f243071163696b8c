// SPDX-License-Identifier: Apache-2.0
// hash_api.cpp -- bloom_hash_key: the (h1, h2) a filter's hasher gives a
// key, for code that probes bits it keeps itself (the Redis module's
// compact small filters hash RedisBloom's way through it).
#include "bloom/bloom.h"
#include "error.hpp"
#include "guard.hpp"
#include "hash/hasher.hpp"

using bloom::capi::guarded;

extern "C" {

bloom_status bloom_hash_key(int hash, uint64_t seed, const void *key, size_t len, uint64_t out[2]) {
  return guarded("bloom_hash_key", [&] {
    using bloom::core::fail;
    using bloom::core::HashKind;
    using bloom::core::Status;
    if (out == nullptr) fail(Status::kInvalidArg, "out is NULL");
    if (key == nullptr && len != 0) fail(Status::kInvalidArg, "key is NULL");
    if (!bloom::core::is_valid_hash_kind(hash))
      fail(Status::kInvalidArg, "unknown hash " + std::to_string(hash));
    const auto kind = static_cast<HashKind>(hash);
    if (kind == HashKind::kGuava || kind == HashKind::kBitsAndBlooms || kind == HashKind::kParquet)
      fail(Status::kUnsupported, "this hash's filters place keys as another system does, not from (h1, h2)");
    const bloom::core::Hasher hasher{kind, seed, false};
    const bloom::core::Hash128 h = hasher(len != 0 ? key : "", len);
    out[0] = h.h1;
    out[1] = h.h2;
  });
}

}  // extern "C"
