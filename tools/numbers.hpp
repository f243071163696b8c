// SPDX-License-Identifier: Apache-2.0
// numbers.hpp -- parsing numbers from the command line and key files, and
// printing them for people (19,170,117 bits; 2.40 MB).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bloom_cli {

// A positive integer: "1000000", "1_000_000", "1,000,000", "1e6" or "10^6".
// what names the option in the error ("-n"). Throws CliError.
uint64_t parse_count(std::string_view text, const std::string &what);

// A false-positive rate in (0, 1): "0.01" or "1%". Throws CliError.
double parse_rate(std::string_view text, const std::string &what);

// A positive finite decimal number, "2", "0.9" or "1e-3" (scalable growth
// and tightening). Throws CliError.
double parse_positive(std::string_view text, const std::string &what);

// A percentage in (0, 100) as in a key file's "?P" first line. False if not.
bool parse_percent(std::string_view text, double *rate);

// 19170117 -> "19,170,117".
std::string format_count(uint64_t n);
// Decimal units as disk vendors and `ls -h --si` use: 2396265 -> "2.40 MB".
std::string format_bytes(uint64_t bytes);
// Shortest faithful form of a double: "0.01", "1.0005e-05".
std::string format_double(double x, int digits = 6);

}  // namespace bloom_cli
