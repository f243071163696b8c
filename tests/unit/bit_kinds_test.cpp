// SPDX-License-Identifier: Apache-2.0
// Behaviour every bit-array kind shares (classic, partitioned and blocked),
// through the C API: no false negatives, the false-positive rate
// at capacity, round trips, set operations and the errors they report.
//
// FPR tolerance: with q absent keys and the filter's own expected rate e
// (bloom_info.expected_fp_rate, computed from the actual contents) the count
// of false positives is Binomial(q, e), sigma = sqrt(q e (1 - e)); 4 sigma
// makes a spurious failure a 1-in-15,000 event. The promised p must hold too:
// the count stays below q p + 4 sigma.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "test_util.hpp"

namespace bloom::test {
namespace {

class BitKinds : public ::testing::TestWithParam<int> {
 protected:
  bloom_options options(uint64_t n, double p) const {
    bloom_options o = classic_options(n, p);
    o.kind = GetParam();
    return o;
  }
};

std::string kind_name(const ::testing::TestParamInfo<int> &info) { return bloom_kind_name(info.param); }

INSTANTIATE_TEST_SUITE_P(Kinds, BitKinds,
                         ::testing::Values(BLOOM_KIND_CLASSIC, BLOOM_KIND_PARTITIONED, BLOOM_KIND_BLOCKED),
                         kind_name);

bloom_info info_of(const bloom_filter *f) {
  bloom_info info;
  info.struct_size = sizeof info;
  EXPECT_EQ(bloom_get_info(f, &info), BLOOM_OK);
  return info;
}

TEST_P(BitKinds, NoFalseNegativesForEveryHasherAndFlag) {
  for (int hash : {BLOOM_HASH_XXH3, BLOOM_HASH_MURMUR3, BLOOM_HASH_FNV1A}) {
    for (uint32_t flags : {0u, BLOOM_FLAG_CONCURRENT}) {
      bloom_options o = options(20000, 0.01);
      o.hash = hash;
      o.flags = flags;
      o.seed = 99;
      FilterPtr f = make_filter(o);
      const auto keys = make_keys("key-", 20000);
      add_all(f.get(), keys);
      EXPECT_EQ(count_positive(f.get(), keys), keys.size()) << hash << " " << flags;
      const bloom_info info = info_of(f.get());
      EXPECT_EQ(info.kind, GetParam());
      EXPECT_EQ(info.keys_added, 20000u);
      // The estimate from the bits is within 5% of the truth at this size.
      EXPECT_NEAR(info.estimated_keys, 20000.0, 1000.0);
    }
  }
}

// expectation_slack: how far above p the contents-based expectation may sit.
// It scatters from filter to filter (40 seeds, n = 10^5: partitioned sd 0.3%
// at 1e-2 and 0.6% at 1e-4, with k rounding adding up to 0.4%; blocked sd
// 0.5% at 1e-2 and 3% at 1e-4, where a few overloaded lines rule the rate),
// so the slack is about 5 sd.
void check_fpr(bloom_options o, size_t absent, double expectation_slack) {
  FilterPtr f = make_filter(o);
  const auto keys = make_keys("present-", o.capacity);
  add_all(f.get(), keys);
  EXPECT_EQ(count_positive(f.get(), keys), keys.size()) << "false negative";
  const bloom_info info = info_of(f.get());
  const double e = info.expected_fp_rate;
  const double fp = static_cast<double>(count_positive(f.get(), make_keys("absent-", absent)));
  const double sigma = std::sqrt(absent * e * (1 - e));
  EXPECT_NEAR(fp, absent * e, 4 * sigma)
      << bloom_kind_name(o.kind) << " p=" << o.fp_rate << " measured " << fp / absent << " expected " << e;
  const double sigma_p = std::sqrt(absent * o.fp_rate * (1 - o.fp_rate));
  EXPECT_LE(fp, absent * o.fp_rate + 4 * sigma_p) << "measured " << fp / absent;
  // The kind's own expectation keeps the promise, up to its scatter.
  EXPECT_LE(e, o.fp_rate * (1 + expectation_slack));
}

TEST_P(BitKinds, FalsePositiveRateAtCapacityOnePercent) { check_fpr(options(100000, 0.01), 400000, 0.03); }

TEST_P(BitKinds, FalsePositiveRateAtCapacityOneInTenThousand) {
  // 2*10^6 probes: about 200 expected false positives, sigma ~ 14.
  check_fpr(options(100000, 0.0001), 2000000, 0.15);
}

TEST_P(BitKinds, BatchCallsAnswerLikeSingleCalls) {
  FilterPtr single = make_filter(options(10000, 0.01));
  FilterPtr batch = make_filter(options(10000, 0.01));
  const auto keys = make_keys("k", 10000);
  add_all(single.get(), keys);
  ASSERT_EQ(add_all_batch(batch.get(), keys), BLOOM_OK);
  EXPECT_EQ(serialize(single.get()), serialize(batch.get()));
  const auto probes = make_keys("probe", 5000);
  const KeyArrays pa = key_arrays(probes);
  std::vector<uint8_t> results(probes.size(), 7);
  ASSERT_EQ(bloom_query_batch(batch.get(), pa.ptrs.data(), pa.lens.data(), probes.size(), results.data()),
            BLOOM_OK);
  size_t positives = 0;
  for (size_t i = 0; i < probes.size(); ++i) {
    EXPECT_EQ(results[i], bloom_query(single.get(), probes[i].data(), probes[i].size())) << i;
    positives += results[i];
  }
  EXPECT_LT(positives, probes.size() / 20);  // p = 1%: the answers are not all "maybe"
}

TEST_P(BitKinds, SerializeAndSaveRoundTripsAnswerIdentically) {
  FilterPtr f = make_filter(options(5000, 0.01));
  add_all(f.get(), make_keys("x", 5000));
  const auto bytes = serialize(f.get());
  bloom_filter *back = nullptr;
  ASSERT_EQ(bloom_deserialize(bytes.data(), bytes.size(), &back), BLOOM_OK) << bloom_last_error();
  FilterPtr restored(back);
  const std::string path = temp_path(std::string("roundtrip_") + bloom_kind_name(GetParam()));
  ASSERT_EQ(bloom_save(f.get(), path.c_str()), BLOOM_OK) << bloom_last_error();
  bloom_filter *loaded_raw = nullptr, *mapped_raw = nullptr;
  ASSERT_EQ(bloom_load(path.c_str(), &loaded_raw), BLOOM_OK) << bloom_last_error();
  FilterPtr loaded(loaded_raw);
  BLOOM_MAP_OR_SKIP(path.c_str(), &mapped_raw);
  FilterPtr mapped(mapped_raw);
  std::remove(path.c_str());
  EXPECT_EQ(serialize(restored.get()), bytes);
  EXPECT_EQ(serialize(loaded.get()), bytes);
  const auto probes = make_keys("x", 10000);  // half present, half absent
  for (const auto &k : probes) {
    const int want = bloom_query(f.get(), k.data(), k.size());
    ASSERT_EQ(bloom_query(restored.get(), k.data(), k.size()), want) << k;
    ASSERT_EQ(bloom_query(loaded.get(), k.data(), k.size()), want) << k;
    ASSERT_EQ(bloom_query(mapped.get(), k.data(), k.size()), want) << k;
  }
  const bloom_info a = info_of(f.get()), b = info_of(loaded.get());
  EXPECT_EQ(a.bits, b.bits);
  EXPECT_EQ(a.hashes, b.hashes);
  EXPECT_EQ(a.keys_added, b.keys_added);
  EXPECT_DOUBLE_EQ(a.expected_fp_rate, b.expected_fp_rate);
}

TEST_P(BitKinds, UnionOfTwoHalvesEqualsTheWhole) {
  const auto keys = make_keys("u", 8000);
  const std::vector<std::string> first(keys.begin(), keys.begin() + 4000),
      second(keys.begin() + 4000, keys.end());
  FilterPtr whole = make_filter(options(8000, 0.01));
  FilterPtr a = make_filter(options(8000, 0.01));
  FilterPtr b = make_filter(options(8000, 0.01));
  add_all(whole.get(), keys);
  add_all(a.get(), first);
  add_all(b.get(), second);
  ASSERT_EQ(bloom_merge(a.get(), b.get()), BLOOM_OK) << bloom_last_error();
  EXPECT_EQ(count_positive(a.get(), keys), keys.size());
  // Bits are an OR, so the union is the very filter that saw every key.
  EXPECT_EQ(serialize(a.get()), serialize(whole.get()));

  // Intersection keeps what both contain: the shared half answers "maybe".
  FilterPtr c = make_filter(options(8000, 0.01));
  add_all(c.get(), first);
  ASSERT_EQ(bloom_intersect(c.get(), whole.get()), BLOOM_OK);
  EXPECT_EQ(count_positive(c.get(), first), first.size());
}

TEST_P(BitKinds, RemoveIsUnsupported) {
  FilterPtr f = make_filter(options(100, 0.01));
  ASSERT_EQ(bloom_add(f.get(), "a", 1), BLOOM_OK);
  EXPECT_EQ(bloom_remove(f.get(), "a", 1), BLOOM_E_UNSUPPORTED);
  EXPECT_EQ(bloom_query(f.get(), "a", 1), 1);
}

TEST_P(BitKinds, MergeOfDifferentParametersNamesTheParameter) {
  FilterPtr base = make_filter(options(1000, 0.01));
  struct Variant {
    const char *field;
    bloom_options o;
  };
  bloom_options seed = options(1000, 0.01), size = options(2000, 0.01), hash = options(1000, 0.01),
                k = options(1000, 0.01), kind = options(1000, 0.01);
  seed.seed = 5;
  hash.hash = BLOOM_HASH_MURMUR3;
  k.bits = info_of(base.get()).bits;
  k.hashes = info_of(base.get()).hashes + 1;
  kind.kind = GetParam() == BLOOM_KIND_CLASSIC ? BLOOM_KIND_PARTITIONED : BLOOM_KIND_CLASSIC;
  for (const Variant &v : {Variant{"seed", seed}, Variant{"bits", size}, Variant{"hash", hash},
                           Variant{"hashes", k}, Variant{"kind", kind}}) {
    FilterPtr other = make_filter(v.o);
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(bloom_merge(base.get(), other.get()), BLOOM_E_INCOMPATIBLE) << v.field;
    EXPECT_NE(std::strstr(bloom_last_error(), v.field), nullptr) << v.field << ": " << bloom_last_error();
    EXPECT_EQ(bloom_intersect(base.get(), other.get()), BLOOM_E_INCOMPATIBLE) << v.field;
  }
}

TEST_P(BitKinds, CloneAndClear) {
  FilterPtr f = make_filter(options(1000, 0.01));
  add_all(f.get(), make_keys("c", 1000));
  bloom_filter *copy_raw = nullptr;
  ASSERT_EQ(bloom_clone(f.get(), &copy_raw), BLOOM_OK);
  FilterPtr copy(copy_raw);
  EXPECT_EQ(serialize(copy.get()), serialize(f.get()));
  ASSERT_EQ(bloom_clear(f.get()), BLOOM_OK);
  EXPECT_EQ(count_positive(f.get(), make_keys("c", 1000)), 0u);
  EXPECT_EQ(info_of(f.get()).fill_ratio, 0.0);
  EXPECT_EQ(info_of(f.get()).keys_added, 0u);
  EXPECT_EQ(count_positive(copy.get(), make_keys("c", 1000)), 1000u);  // the clone is independent
}

TEST_P(BitKinds, TestAndAddReportsNewKeysOnce) {
  FilterPtr f = make_filter(options(10000, 0.001));
  EXPECT_EQ(bloom_test_and_add(f.get(), "k", 1), 0);
  EXPECT_EQ(bloom_test_and_add(f.get(), "k", 1), 1);
  EXPECT_EQ(bloom_query(f.get(), "k", 1), 1);
  EXPECT_EQ(info_of(f.get()).keys_added, 1u);
}

TEST_P(BitKinds, LoadRejectsAPayloadOfTheWrongSize) {
  FilterPtr f = make_filter(options(1000, 0.01));
  auto bytes = serialize(f.get());
  // Drop one payload word; the header checksum still matches its own bytes,
  // so only the size checks can catch this.
  std::vector<unsigned char> shorter(bytes.begin(), bytes.end() - 8);
  bloom_filter *out = nullptr;
  EXPECT_NE(bloom_deserialize(shorter.data(), shorter.size(), &out), BLOOM_OK);
  EXPECT_EQ(out, nullptr);
}

}  // namespace
}  // namespace bloom::test
