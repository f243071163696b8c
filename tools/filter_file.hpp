// SPDX-License-Identifier: Apache-2.0
// filter_file.hpp -- owning handles and the load/map/save calls, with errors
// turned into one-line CliErrors carrying the library's message.
#pragma once

#include <bloom/bloom.h>

#include <memory>
#include <string>

namespace bloom_cli {

struct FilterDeleter {
  void operator()(bloom_filter *f) const { bloom_destroy(f); }
};
using FilterPtr = std::unique_ptr<bloom_filter, FilterDeleter>;

// A writable in-memory filter read from path (bloom_load).
FilterPtr load_filter(const std::string &path);
// A filter only to be read: mapped in place when the library can (no copy,
// instant for big files), loaded otherwise.
FilterPtr open_filter_readonly(const std::string &path);
void save_filter(const bloom_filter *f, const std::string &path);
// Throws the error save_filter would end with, before any input is read, so
// a long stream is not read only to fail at the end: a path that is a
// directory or another non-regular file, or a directory that does not exist
// or cannot be written. "-" (standard output) passes. option names the
// command-line option in the message.
void check_output_path(const std::string &path, const std::string &option);
bloom_info filter_info(const bloom_filter *f);

// "classic", or "kind 9" for a value this library has no name for.
std::string kind_label(int kind);
std::string hash_label(int hash);

}  // namespace bloom_cli
