// SPDX-License-Identifier: Apache-2.0
// The command-line parser.
#include "args.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "cli_error.hpp"

namespace bloom_cli {
namespace {

const std::vector<OptionSpec> kSpecs = {{"out", 'o', true}, {"json", 0, false}, {"rate", 'p', true}};

Args parse(std::vector<const char *> argv) {
  argv.insert(argv.begin(), {"bloom", "cmd"});
  return Args(kSpecs, static_cast<int>(argv.size()), const_cast<char **>(argv.data()), 2);
}

TEST(Args, LongShortInlineAndPositionals) {
  const Args a =
      parse({"in.txt", "-o", "f.bloom", "--rate=0.1", "-", "--json", "-p0.2", "--", "--not-an-option"});
  EXPECT_EQ(a.value("out"), "f.bloom");
  EXPECT_EQ(a.value("rate"), "0.2");  // the last one given wins
  EXPECT_TRUE(a.has("json"));
  EXPECT_FALSE(a.help());
  EXPECT_EQ(a.positional(), (std::vector<std::string>{"in.txt", "-", "--not-an-option"}));
}

TEST(Args, HelpIsAlwaysKnown) {
  EXPECT_TRUE(parse({"--help"}).help());
  EXPECT_TRUE(parse({"-h"}).help());
}

TEST(Args, Errors) {
  EXPECT_THROW(parse({"--bogus"}), CliError);
  EXPECT_THROW(parse({"-x"}), CliError);
  EXPECT_THROW(parse({"-o"}), CliError);          // missing value
  EXPECT_THROW(parse({"--json=yes"}), CliError);  // a flag with a value
}

}  // namespace
}  // namespace bloom_cli
