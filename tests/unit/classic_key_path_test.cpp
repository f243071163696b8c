// SPDX-License-Identifier: Apache-2.0
// The classic kind's single-key path (ClassicFilter::query_key_xxh3: XXH3-128
// and the probes in the one function bloom_query calls) answers exactly like
// the generic path -- hash with the filter's Hasher, then
// ClassicFilter::query -- for plain and concurrent filters, seed 0 and
// another, and keys on both sides of the 16 bytes where the hash leaves the
// inlined code. Both probe schemes are run, but they set the same bits in
// practice (Classic.PlainAndEnhancedDoubleHashingSetTheSameBits), so a path
// that swapped them would pass here; Murmur3 and FNV-1a filters keep the
// generic path and are compared with themselves.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "c_options.hpp"
#include "configure.hpp"
#include "kinds/classic.hpp"
#include "kinds/registry.hpp"
#include "test_util.hpp"

namespace bloom::test {
namespace {

std::unique_ptr<core::Filter> make_classic(uint32_t flags, uint64_t seed, int32_t hash) {
  bloom_options o = classic_options(2000, 0.05);  // dense enough that absent keys answer both ways
  o.kind = BLOOM_KIND_CLASSIC;
  o.flags = flags;
  o.seed = seed;
  o.hash = hash;
  return core::create_filter(core::configure(capi::to_core_options(o)));
}

std::vector<std::string> keys_of_many_lengths(const std::string &tag, size_t per_length) {
  std::vector<std::string> keys;
  for (size_t len : {0, 1, 3, 4, 8, 9, 15, 16, 17, 40, 129, 300}) {
    for (size_t i = 0; i < per_length; ++i) {
      std::string k = tag + std::to_string(i) + "/";
      k.resize(len, static_cast<char>('a' + i % 26));
      if (len > 0) k[len - 1] = static_cast<char>(i * 13 + len);
      keys.push_back(k);
    }
  }
  return keys;
}

TEST(ClassicKeyPath, AnswersLikeHashThenQueryForEveryScheme) {
  const auto present = keys_of_many_lengths("in-", 100);
  const auto absent = keys_of_many_lengths("out-", 400);
  for (int32_t hash : {BLOOM_HASH_XXH3, BLOOM_HASH_MURMUR3, BLOOM_HASH_FNV1A})
    for (uint32_t flags : {0u, BLOOM_FLAG_PLAIN_DOUBLE_HASHING, BLOOM_FLAG_CONCURRENT,
                           BLOOM_FLAG_CONCURRENT | BLOOM_FLAG_PLAIN_DOUBLE_HASHING})
      for (uint64_t seed : {uint64_t{0}, uint64_t{0x5eed}}) {
        SCOPED_TRACE("hash " + std::to_string(hash) + ", flags " + std::to_string(flags) + ", seed " +
                     std::to_string(seed));
        auto filter = make_classic(flags, seed, hash);
        // The single-key path is XXH3's alone; batches stay generic.
        ASSERT_EQ(filter->has_key_query(), hash == BLOOM_HASH_XXH3);
        ASSERT_FALSE(filter->has_key_query_batch());
        for (const auto &k : present) filter->add_key(k.data(), k.size());
        size_t absent_hits = 0;
        for (const auto *keys : {&present, &absent})
          for (const auto &k : *keys) {
            const bool want = filter->query(filter->hasher()(k.data(), k.size()));
            ASSERT_EQ(filter->query_key(k.data(), k.size()), want ? 1 : 0) << "key length " << k.size();
            if (keys == &absent) absent_hits += want;
          }
        for (const auto &k : present) ASSERT_EQ(filter->query_key(k.data(), k.size()), 1);
        // The comparison saw both answers for absent keys.
        EXPECT_GT(absent_hits, 0u);
        EXPECT_LT(absent_hits, absent.size());
      }
}

}  // namespace
}  // namespace bloom::test
