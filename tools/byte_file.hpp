// SPDX-License-Identifier: Apache-2.0
// byte_file.hpp -- whole files of bytes other programs read and write (other
// libraries' filters, for `bloom convert`), with the safety bloom_save
// gives the tool's own files.
#pragma once

#include <string>
#include <vector>

namespace bloom_cli {

// The whole file ("-": standard input). Throws CliError.
std::vector<unsigned char> read_file_bytes(const std::string &path);

// Replaces path with data: a temporary file beside it, written, flushed to
// disk and renamed over it, so a failure leaves the old file as it was.
// "-" writes standard output (refused on a terminal). Throws CliError.
void write_file_bytes(const std::string &path, const std::vector<unsigned char> &data);

}  // namespace bloom_cli
