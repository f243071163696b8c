// SPDX-License-Identifier: Apache-2.0
// args.hpp -- a small command-line parser: long options (--out FILE,
// --out=FILE), short options (-o FILE, -oFILE), flags, positionals, and "--".
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace bloom_cli {

struct OptionSpec {
  const char *long_name;  // without the leading "--"
  char short_name;        // 0 when there is none
  bool takes_value;
};

class Args {
 public:
  // Parses argv[first..argc). Every command also accepts --help / -h.
  // Throws CliError for an unknown option or a missing value.
  Args(const std::vector<OptionSpec> &specs, int argc, char **argv, int first);

  bool has(const std::string &long_name) const;
  // The last value given for an option, if any.
  std::optional<std::string> value(const std::string &long_name) const;
  const std::vector<std::string> &positional() const { return positional_; }
  bool help() const { return has("help"); }

 private:
  struct Given {
    std::string name;
    std::string value;
  };
  std::vector<Given> given_;
  std::vector<std::string> positional_;
};

}  // namespace bloom_cli
