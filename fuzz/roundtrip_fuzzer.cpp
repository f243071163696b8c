// SPDX-License-Identifier: Apache-2.0
// roundtrip_fuzzer.cpp -- parameters and keys from the input: create, add,
// serialize, deserialize. The copy must answer exactly like the original,
// re-serialize to identical bytes, and no added key may ever be missing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bloom::fuzz::Reader in(data, size);
  const bloom_options o = bloom::fuzz::options_from(in);
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_create(&o, &f);
  if (s != BLOOM_OK) {
    FUZZ_CHECK(f == nullptr, "failed create left a handle");
    FUZZ_CHECK(s == BLOOM_E_INVALID_ARG || s == BLOOM_E_UNSUPPORTED || s == BLOOM_E_OVERFLOW,
               "create returned %d", s);
    return 0;
  }
  std::vector<std::string> keys;
  while (in.remaining() > 0 && keys.size() < 2000) keys.push_back(in.bytes(24));
  // Half one by one, half as a batch.
  size_t half = keys.size() / 2;
  for (size_t i = 0; i < half; ++i) {
    const bloom_status a = bloom_add(f, keys[i].data(), keys[i].size());
    if (a != BLOOM_OK) {
      // A scalable filter that cannot grow: keep only the keys it took.
      FUZZ_CHECK(bloom::fuzz::is_growth_refusal(f, a), "add returned %d", a);
      keys.resize(i);
      half = i;
      break;
    }
  }
  std::vector<const void *> ptrs;
  std::vector<size_t> lens;
  for (size_t i = half; i < keys.size(); ++i) {
    ptrs.push_back(keys[i].data());
    lens.push_back(keys[i].size());
  }
  const bloom_status batch = bloom_add_batch(f, ptrs.data(), lens.data(), ptrs.size());
  bool batch_complete = true;
  if (batch != BLOOM_OK) {
    // Some of the batch may be in; only the single adds are certain.
    FUZZ_CHECK(bloom::fuzz::is_growth_refusal(f, batch), "add_batch returned %d", batch);
    keys.resize(half);
    batch_complete = false;
  }
  // A count window promises only its last `capacity` insertions (older keys
  // may be forgotten by design); every other kind, every key.
  bloom_info made;
  made.struct_size = sizeof made;
  FUZZ_CHECK(bloom_get_info(f, &made) == BLOOM_OK, "get_info");
  const size_t kept_from =
      made.kind == BLOOM_KIND_WINDOW && made.window_ms == 0 && keys.size() > made.capacity
          ? keys.size() - static_cast<size_t>(made.capacity)
          : 0;
  for (size_t i = kept_from; i < keys.size(); ++i)
    FUZZ_CHECK(bloom_query(f, keys[i].data(), keys[i].size()) == 1, "false negative");

  const std::vector<unsigned char> image = bloom::fuzz::serialize(f);
  bloom_filter *g = nullptr;
  FUZZ_CHECK(bloom_deserialize(image.data(), image.size(), &g) == BLOOM_OK, "deserialize own image");
  for (size_t i = kept_from; i < keys.size(); ++i)
    FUZZ_CHECK(bloom_query(g, keys[i].data(), keys[i].size()) == 1, "lost a key");
  FUZZ_CHECK(bloom::fuzz::answers(g, 256) == bloom::fuzz::answers(f, 256), "copy answers differently");
  FUZZ_CHECK(bloom::fuzz::serialize(g) == image, "re-serialized bytes differ");

  bloom_filter *c = nullptr;
  FUZZ_CHECK(bloom_clone(f, &c) == BLOOM_OK, "clone");
  FUZZ_CHECK(bloom::fuzz::serialize(c) == image, "clone's bytes differ");

  bloom_info a, b;
  a.struct_size = b.struct_size = sizeof a;
  FUZZ_CHECK(bloom_get_info(f, &a) == BLOOM_OK && bloom_get_info(g, &b) == BLOOM_OK, "get_info");
  FUZZ_CHECK(a.kind == b.kind && a.hash == b.hash && a.seed == b.seed && a.bits == b.bits &&
                 a.hashes == b.hashes && a.keys_added == b.keys_added && a.stages == b.stages,
             "info differs after the round trip");
  FUZZ_CHECK(batch_complete ? a.keys_added == keys.size() : a.keys_added >= keys.size(),
             "keys_added %llu, %zu added", static_cast<unsigned long long>(a.keys_added), keys.size());
  bloom_destroy(c);
  bloom_destroy(g);
  bloom_destroy(f);
  return 0;
}
