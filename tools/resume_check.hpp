// SPDX-License-Identifier: Apache-2.0
// resume_check.hpp -- `bloom dedup --resume`: the saved filter must be the
// one the options describe.
//
// A resumed filter keeps its own parameters (they are its identity: its
// bits mean nothing under another hash, seed or shape). An option left out
// is taken from the file; an option given must agree with it, or the run is
// refused naming each option that differs and its saved value -- silently
// ignoring a -p, --hash or --seed the user asked for would be a wrong
// answer nobody sees.
#pragma once

#include <bloom/bloom.h>

#include <string>

#include "args.hpp"

namespace bloom_cli {

// Throws CliError when info (the saved filter) differs from o in its kind,
// its window, or any filter option args gives explicitly.
void check_resumed(const bloom_info &info, const bloom_options &o, const Args &args, const std::string &path);

// A window as --window writes it: "10000000" (count), "1h", "90s", "250ms".
std::string window_label(uint64_t window_ms, uint64_t count);

}  // namespace bloom_cli
