// SPDX-License-Identifier: Apache-2.0
#include "cli_error.hpp"

#include <bloom/bloom.h>

#include <cerrno>
#include <cstring>

namespace bloom_cli {

void fail_library(const std::string &context, int status) {
  const char *detail = bloom_last_error();
  std::string message = context + ": ";
  if (detail != nullptr && *detail != '\0') {
    message += detail;
  } else {
    message += bloom_strerror(status);
  }
  throw CliError(message);
}

void fail_errno(const std::string &context) { throw CliError(context + ": " + std::strerror(errno)); }

void check_stdout(const std::string &context) {
  if (std::ferror(stdout)) fail_errno(context);
}

void flush_stdout(const std::string &context) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) fail_errno(context);
}

}  // namespace bloom_cli
