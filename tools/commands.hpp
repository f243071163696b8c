// SPDX-License-Identifier: Apache-2.0
// commands.hpp -- the tool's commands. Each takes the whole argv (its own
// arguments start at argv[2]), prints its --help, and returns an exit status
// or throws CliError.
#pragma once

namespace bloom_cli {

struct Command {
  const char *name;
  const char *summary;  // one line for `bloom --help`
  const char *help;     // the whole `bloom <name> --help` (see print_help)
  int (*run)(int argc, char **argv);
};

extern const Command kBuildCommand;
extern const Command kQueryCommand;
extern const Command kStatsCommand;
extern const Command kMergeCommand;
extern const Command kCalcCommand;
extern const Command kDedupCommand;
extern const Command kRemoveCommand;

// Writes c.help to standard output with the library's lists in place of
// @KINDS@ (every kind), @FIXED_KINDS@ (those of fixed capacity) and
// @HASHES@, so help and man pages name what this library has.
void print_help(const Command &c);

}  // namespace bloom_cli
