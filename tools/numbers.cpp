// SPDX-License-Identifier: Apache-2.0
#include "numbers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli_error.hpp"

namespace bloom_cli {

namespace {

// strtod on an exact copy, with the whole text consumed; NaN when it is not a
// decimal number. strtod alone also reads hex floats ("0x10" is 16, "0x1p-7"
// a rate), "inf" and "nan": none of them is a count or a rate a user means,
// so only digits, a sign, a point and an exponent get that far.
double strict_double(std::string_view text) {
  const std::string s(text);
  if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string::npos) return NAN;
  char *end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return NAN;
  return v;
}

// The digits of "1000000", "1,000,000" or "1_000_000": a separator must
// split the digits into groups of three (so "1,5", a decimal comma, is not
// read as 15). Empty when text is not written that way.
std::string grouped_digits(std::string_view text) {
  std::string digits;
  size_t group = 0;  // digits since the last separator
  bool separated = false;
  for (const char c : text) {
    if (c == ',' || c == '_') {
      if (group == 0 || group > 3 || (separated && group != 3)) return {};
      separated = true;
      group = 0;
      continue;
    }
    if (c < '0' || c > '9') return {};
    digits += c;
    ++group;
  }
  if (group == 0 || (separated && group != 3)) return {};
  // "0,001" or "0_500": a decimal comma, not thousands.
  if (separated && digits[0] == '0') return {};
  return digits;
}

}  // namespace

uint64_t parse_count(std::string_view text, const std::string &what) {
  const std::string bad = what + " expects a positive whole number, not '" + std::string(text) + "'";
  std::string digits = grouped_digits(text);
  if (!digits.empty()) {
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));  // 007 is 7
    if (digits.size() > 19) throw CliError(what + " is too large: " + std::string(text));
    const uint64_t v = digits.empty() ? 0 : std::strtoull(digits.c_str(), nullptr, 10);
    if (v == 0) throw CliError(bad);
    return v;
  }
  if (text.find_first_of(",_") != std::string_view::npos)
    throw CliError(bad + " (separators split the digits into groups of three: 1,000,000 or 1_000_000)");
  // 1e6, 10^6 or 2^20: accepted only when the value is a whole number below
  // 2^63; a power needs a whole base of at least 2 ("0^0" is not a count).
  double v = NAN;
  const auto caret = text.find('^');
  if (caret != std::string_view::npos) {
    const double base = strict_double(text.substr(0, caret));
    const double exponent = strict_double(text.substr(caret + 1));
    if (base >= 2 && base == std::floor(base) && exponent >= 0 && exponent == std::floor(exponent) &&
        std::isfinite(base) && std::isfinite(exponent))
      v = std::pow(base, exponent);
  } else {
    v = strict_double(text);
  }
  if (!std::isfinite(v) || v < 1 || v != std::floor(v)) throw CliError(bad);
  if (v >= 9.2e18) throw CliError(what + " is too large: " + std::string(text));
  return static_cast<uint64_t>(v);
}

double parse_rate(std::string_view text, const std::string &what) {
  double v = NAN;
  if (!text.empty() && text.back() == '%') {
    v = strict_double(text.substr(0, text.size() - 1)) / 100.0;
  } else {
    v = strict_double(text);
  }
  if (!(v > 0.0 && v < 1.0))
    throw CliError(what + " expects a rate strictly between 0 and 1 (or a percentage such as 1%), not '" +
                   std::string(text) + "'");
  return v;
}

double parse_positive(std::string_view text, const std::string &what) {
  const double v = strict_double(text);
  if (!(v > 0.0 && std::isfinite(v)))
    throw CliError(what + " expects a positive number such as 2 or 0.9, not '" + std::string(text) + "'");
  return v;
}

bool parse_percent(std::string_view text, double *rate) {
  if (!text.empty() && text.back() == '%') text.remove_suffix(1);
  const double v = strict_double(text);
  if (!(v > 0.0 && v < 100.0)) return false;
  *rate = v / 100.0;
  return true;
}

std::string format_count(uint64_t n) {
  std::string plain = std::to_string(n);
  std::string out;
  const size_t first_group = plain.size() % 3 == 0 ? 3 : plain.size() % 3;
  for (size_t i = 0; i < plain.size(); ++i) {
    if (i >= first_group && (i - first_group) % 3 == 0) out += ',';
    out += plain[i];
  }
  return out;
}

std::string format_bytes(uint64_t bytes) {
  static const char *const kUnits[] = {"KB", "MB", "GB", "TB"};
  if (bytes < 1000) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes) / 1000.0;
  int unit = 0;
  while (v >= 999.995 && unit < 3) {
    v /= 1000.0;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %s", v, kUnits[unit]);
  return buf;
}

std::string format_double(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

}  // namespace bloom_cli
