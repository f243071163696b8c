// SPDX-License-Identifier: Apache-2.0
// cli_error.hpp -- how the tool fails: one line on stderr and exit status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace bloom_cli {

// Exit statuses shared by every command (as grep: 1 is an answer, not an error).
constexpr int kExitOk = 0;
constexpr int kExitSomeNo = 1;  // query: at least one key answered "no"
constexpr int kExitError = 2;
// build, dedup: a fixed-size filter was given more distinct keys than its
// capacity, so its false-positive rate is above the one asked for (build's
// file is written; dedup dropped more new lines than the rate allows).
constexpr int kExitOverCapacity = 3;

// Thrown anywhere in a command; main() prints "bloom <command>: <what>".
class CliError : public std::runtime_error {
 public:
  explicit CliError(const std::string &what) : std::runtime_error(what) {}
};

// "<context>: <library message>" for a failed bloom_* call, using
// bloom_last_error() and falling back to bloom_strerror(status).
[[noreturn]] void fail_library(const std::string &context, int status);

// Throws CliError(context + ": " + strerror(errno)).
[[noreturn]] void fail_errno(const std::string &context);

// Standard output that could not be written (a full disk; a closed pipe in
// a process that ignores SIGPIPE) stops the command with exit status 2,
// rather than reading on for a reader that has gone: check_stdout after
// each record (stdio's error flag, set by a failed buffer write; no system
// call), flush_stdout before waiting for input and at the end.
void check_stdout(const std::string &context);
void flush_stdout(const std::string &context);

}  // namespace bloom_cli
