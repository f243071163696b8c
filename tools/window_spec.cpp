// SPDX-License-Identifier: Apache-2.0
#include "window_spec.hpp"

#include <chrono>
#include <string>

#include "cli_error.hpp"
#include "numbers.hpp"

namespace bloom_cli {

namespace {

struct Unit {
  const char *suffix;
  uint64_t factor;
  bool time;
};
// Longest suffixes first, so "ms" is not read as "s".
constexpr Unit kUnits[] = {{"min", 60000, true}, {"ms", 1, true},       {"s", 1000, true},
                           {"h", 3600000, true}, {"d", 86400000, true}, {"k", 1000, false},
                           {"K", 1000, false},   {"M", 1000000, false}, {"G", 1000000000, false}};

const char kUsage[] = " (a count such as 10M, or a duration such as 90s, 30min, 1h, 24h)";

}  // namespace

WindowSpec parse_window(std::string_view text) {
  const std::string shown = "--window '" + std::string(text) + "'";
  if (!text.empty() && text.back() == 'm')
    throw CliError(shown + " is ambiguous: write 'min' for minutes or 'M' for millions of lines");
  for (const Unit &u : kUnits) {
    const std::string_view suffix(u.suffix);
    if (text.size() <= suffix.size() || text.substr(text.size() - suffix.size()) != suffix) continue;
    const std::string_view digits = text.substr(0, text.size() - suffix.size());
    for (char c : digits)
      if (c < '0' || c > '9') throw CliError(shown + " must be a whole number and a unit" + kUsage);
    const uint64_t n = parse_count(digits, "--window");
    if (n > UINT64_MAX / u.factor) throw CliError(shown + " is too large");
    WindowSpec w;
    (u.time ? w.ms : w.count) = n * u.factor;
    return w;
  }
  WindowSpec w;
  try {
    w.count = parse_count(text, "--window");
  } catch (const CliError &) {
    throw CliError(shown + " is neither a count nor a duration" + kUsage);
  }
  return w;
}

uint64_t monotonic_ms() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace bloom_cli
