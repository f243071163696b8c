// SPDX-License-Identifier: Apache-2.0
#include "args.hpp"

#include "cli_error.hpp"

namespace bloom_cli {

namespace {

const OptionSpec kHelp{"help", 'h', false};

const OptionSpec *find_long(const std::vector<OptionSpec> &specs, const std::string &name) {
  if (name == kHelp.long_name) return &kHelp;
  for (const auto &s : specs)
    if (name == s.long_name) return &s;
  return nullptr;
}

const OptionSpec *find_short(const std::vector<OptionSpec> &specs, char c) {
  if (c == kHelp.short_name) return &kHelp;
  for (const auto &s : specs)
    if (s.short_name != 0 && c == s.short_name) return &s;
  return nullptr;
}

}  // namespace

Args::Args(const std::vector<OptionSpec> &specs, int argc, char **argv, int first) {
  bool options_done = false;
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    // "-" alone is a positional (standard input), as is anything after "--".
    if (options_done || arg == "-" || arg.empty() || arg[0] != '-') {
      positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    const OptionSpec *spec = nullptr;
    std::optional<std::string> inline_value;
    std::string shown;
    if (arg.rfind("--", 0) == 0) {
      const auto eq = arg.find('=');
      const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (eq != std::string::npos) inline_value = arg.substr(eq + 1);
      spec = find_long(specs, name);
      shown = "--" + name;
    } else {
      spec = find_short(specs, arg[1]);
      if (arg.size() > 2) inline_value = arg.substr(2);
      shown = arg.substr(0, 2);
    }
    if (spec == nullptr) throw CliError("unknown option '" + shown + "' (try --help)");
    if (!spec->takes_value) {
      if (inline_value) throw CliError("option " + shown + " takes no value");
      given_.push_back({spec->long_name, ""});
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw CliError("option " + shown + " needs a value");
      inline_value = argv[++i];
    }
    given_.push_back({spec->long_name, *inline_value});
  }
}

bool Args::has(const std::string &long_name) const {
  for (const auto &g : given_)
    if (g.name == long_name) return true;
  return false;
}

std::optional<std::string> Args::value(const std::string &long_name) const {
  std::optional<std::string> last;
  for (const auto &g : given_)
    if (g.name == long_name) last = g.value;
  return last;
}

}  // namespace bloom_cli
