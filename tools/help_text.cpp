// SPDX-License-Identifier: Apache-2.0
// help_text.cpp -- a command's --help with the library's kind and hash lists
// filled in, so neither the help nor the man pages made from it can list
// kinds this library lacks or miss one it has.
#include <bloom/bloom.h>

#include <cstdio>
#include <string>

#include "commands.hpp"
#include "common_options.hpp"

namespace bloom_cli {

namespace {

void replace_all(std::string &text, const std::string &token, const std::string &with) {
  for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + with.size()))
    text.replace(at, token.size(), with);
}

}  // namespace

void print_help(const Command &c) {
  std::string text = c.help;
  replace_all(text, "@KINDS@", kind_names());
  std::string fixed;
  for (int i = 0; i < bloom_kind_count(); ++i)
    if (has_fixed_capacity(bloom_kind_at(i)))
      fixed += (fixed.empty() ? "" : ", ") + std::string(bloom_kind_name(bloom_kind_at(i)));
  replace_all(text, "@FIXED_KINDS@", fixed);
  replace_all(text, "@HASHES@", hash_names());
  std::fputs(text.c_str(), stdout);
}

}  // namespace bloom_cli
