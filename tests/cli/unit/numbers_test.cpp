// SPDX-License-Identifier: Apache-2.0
// Parsing and printing numbers for people.
#include "numbers.hpp"

#include <gtest/gtest.h>

#include "cli_error.hpp"

namespace bloom_cli {
namespace {

TEST(ParseCount, AcceptsTheUsualSpellings) {
  EXPECT_EQ(parse_count("1000000", "-n"), 1000000u);
  EXPECT_EQ(parse_count("1,000,000", "-n"), 1000000u);
  EXPECT_EQ(parse_count("1_000_000", "-n"), 1000000u);
  EXPECT_EQ(parse_count("1e6", "-n"), 1000000u);
  EXPECT_EQ(parse_count("10^6", "-n"), 1000000u);
  EXPECT_EQ(parse_count("2^40", "-m"), uint64_t{1} << 40);
  EXPECT_EQ(parse_count("12,345", "-n"), 12345u);
  EXPECT_EQ(parse_count("00000000000000000001", "-n"), 1u);  // leading zeros are not size
}

TEST(ParseCount, SeparatorsMustMakeGroupsOfThree) {
  // A decimal comma ("1,5") or a stray separator was read as the digits
  // joined: 15.
  for (const char *bad :
       {"1,5", "1,50", "1,0000", "1234,567", ",100", "100,", "1,,000", "1_0", "1,000_00", "0,001", "0_500"})
    EXPECT_THROW(parse_count(bad, "-n"), CliError) << bad;
}

TEST(ParseCount, APowerNeedsAWholeBaseOfAtLeastTwo) {
  for (const char *bad : {"0^0", "1^5", "1.5^2", "10^-1", "10^0.5", "10^17.3", "2^62.5"})
    EXPECT_THROW(parse_count(bad, "-n"), CliError) << bad;
  EXPECT_EQ(parse_count("10^0", "-n"), 1u);
}

TEST(ParseCount, RefusesWhatIsNotAPositiveWholeNumber) {
  for (const char *bad : {"", "0", "-5", "1.5", "ten", "1e-3", "12abc", " 7", "99999999999999999999"})
    EXPECT_THROW(parse_count(bad, "-n"), CliError) << bad;
}

TEST(ParseRate, FractionOrPercent) {
  EXPECT_DOUBLE_EQ(parse_rate("0.01", "-p"), 0.01);
  EXPECT_DOUBLE_EQ(parse_rate("1%", "-p"), 0.01);
  EXPECT_DOUBLE_EQ(parse_rate("1e-4", "-p"), 0.0001);
  for (const char *bad : {"0", "1", "1.5", "100%", "0%", "-0.1", "x", "", "nan", "0.01x"})
    EXPECT_THROW(parse_rate(bad, "-p"), CliError) << bad;
}

TEST(ParsePercent, HeaderValues) {
  double r = 0;
  EXPECT_TRUE(parse_percent("1", &r));
  EXPECT_DOUBLE_EQ(r, 0.01);
  EXPECT_TRUE(parse_percent("0.5%", &r));
  EXPECT_DOUBLE_EQ(r, 0.005);
  EXPECT_FALSE(parse_percent("0", &r));
  EXPECT_FALSE(parse_percent("100", &r));
  EXPECT_FALSE(parse_percent("abc", &r));
}

TEST(FormatCount, GroupsOfThree) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1000), "1,000");
  EXPECT_EQ(format_count(19170117), "19,170,117");
  EXPECT_EQ(format_count(100000), "100,000");
  EXPECT_EQ(format_count(18446744073709551615u), "18,446,744,073,709,551,615");
}

TEST(FormatBytes, DecimalUnits) {
  EXPECT_EQ(format_bytes(999), "999 B");
  EXPECT_EQ(format_bytes(11984), "11.98 KB");
  EXPECT_EQ(format_bytes(2396265), "2.40 MB");
  EXPECT_EQ(format_bytes(999999), "1.00 MB");  // not "1000.00 KB"
  EXPECT_EQ(format_bytes(137438953472u), "137.44 GB");
}

}  // namespace
}  // namespace bloom_cli
