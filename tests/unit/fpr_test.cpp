// SPDX-License-Identifier: Apache-2.0
// Statistical checks: the measured false-positive rate of the classic kind
// lies inside a 4-sigma binomial band around bloom_expected_fp_rate.
//
// With q absent keys and rate p the count of false positives is Binomial(q, p)
// with sigma = sqrt(q p (1 - p)); 4 sigma makes a spurious failure a
// 1-in-15,000 event while still catching a rate off by a few percent at
// these sample sizes (p = 0.01: +-4.0%; p = 1e-4 with 2*10^6 probes: +-28%).
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.hpp"

namespace bloom::test {
namespace {

void check_fpr(uint64_t n, double p, size_t absent, int hash) {
  bloom_options o = classic_options(n, p);
  o.hash = hash;
  FilterPtr f = make_filter(o);
  const auto keys = make_keys("present-", n);
  add_all(f.get(), keys);
  EXPECT_EQ(count_positive(f.get(), keys), keys.size()) << "false negative";
  bloom_info info;
  info.struct_size = sizeof info;
  ASSERT_EQ(bloom_get_info(f.get(), &info), BLOOM_OK);
  const double expected = bloom_expected_fp_rate(n, info.bits, info.hashes);
  const double sigma = std::sqrt(absent * expected * (1 - expected));
  const double fp = static_cast<double>(count_positive(f.get(), make_keys("absent-", absent)));
  EXPECT_NEAR(fp, absent * expected, 4 * sigma) << "n=" << n << " p=" << p << " hash=" << hash << " measured "
                                                << fp / absent << " expected " << expected;
  // The rate promised to the caller holds too (k is rounded, so the formula
  // rate can sit a little above p; the band covers it).
  EXPECT_LE(fp, absent * p * 1.03 + 4 * sigma);
}

TEST(FalsePositiveRate, OneMillionKeysAtOnePercent) { check_fpr(1000000, 0.01, 1000000, BLOOM_HASH_XXH3); }

TEST(FalsePositiveRate, OneMillionKeysAtOneInTenThousand) {
  check_fpr(1000000, 0.0001, 2000000, BLOOM_HASH_XXH3);
}

TEST(FalsePositiveRate, EveryHasherHoldsTheRate) {
  check_fpr(200000, 0.01, 400000, BLOOM_HASH_MURMUR3);
  check_fpr(200000, 0.01, 400000, BLOOM_HASH_FNV1A);
}

}  // namespace
}  // namespace bloom::test
