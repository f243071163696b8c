// SPDX-License-Identifier: Apache-2.0
// cmd_calc.cpp -- `bloom calc`: the sizing arithmetic of the seeds, without
// building anything.
//
//   n, p -> m = ceil(n |ln p| / (ln 2)^2) bits, k = round((m / n) ln 2)
//           (bloom_optimal_params: exactly what `bloom build` would create)
//   n, m -> best k = round((m / n) ln 2), P = (1 - e^(-k n / m))^k,
//           and the bound P_min = (1/2)^((m / n) ln 2) ~ 0.6185^(m / n)
#include <cmath>
#include <cstdio>

#include "cli_error.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "numbers.hpp"

namespace bloom_cli {

namespace {

const char kHelp[] =
    "Usage: bloom calc -n N (-p RATE | -m BITS [-k K])\n"
    "\n"
    "Size a classic filter (the formulas of the original write-ups):\n"
    "  -n N -p RATE    bits m = ceil(n |ln p| / (ln 2)^2) and hashes k = round((m/n) ln 2)\n"
    "  -n N -m BITS    the best k = round((m/n) ln 2) and its false-positive rate\n"
    "                  P = (1 - e^(-kn/m))^k; with -k K, P for that k instead\n"
    "\n"
    "N and BITS may be written 1000000, 1e6, 10^6 or 1,000,000; RATE as 0.01 or 1%.\n"
    "Sizes are in decimal units (1 MB = 10^6 bytes).\n"
    "\n"
    "Examples:\n"
    "  bloom calc -n 1000000 -p 0.0001     # m = 19,170,117 bits (2.40 MB), k = 13\n"
    "  bloom calc -n 1000000 -m 8e6\n";

const std::vector<OptionSpec> kOptions = {
    {"capacity", 'n', true}, {"rate", 'p', true}, {"bits", 'm', true}, {"hashes", 'k', true}};

constexpr double kLn2 = 0.69314718055994530942;

uint64_t bytes_for(uint64_t bits) { return (bits + 7) / 8; }

// The seeds' approximation, as the write-ups state it.
double seed_fp_rate(double n, double m, double k) { return std::pow(1.0 - std::exp(-k * n / m), k); }

int run(int argc, char **argv) {
  const Args args(kOptions, argc, argv, 2);
  if (args.help()) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (!args.positional().empty()) throw CliError("unexpected argument '" + args.positional()[0] + "'");
  const auto n_text = args.value("capacity");
  if (!n_text) throw CliError("missing -n N: the number of keys (see bloom calc --help)");
  const uint64_t n = parse_count(*n_text, "-n");
  const bool by_rate = args.has("rate"), by_bits = args.has("bits");
  if (by_rate == by_bits) throw CliError("give exactly one of -p RATE or -m BITS");

  if (by_rate) {
    if (args.has("hashes")) throw CliError("-k goes with -m (with -p the best k is computed)");
    const double p = parse_rate(*args.value("rate"), "-p");
    uint64_t m = 0;
    uint32_t k = 0;
    const bloom_status s = bloom_optimal_params(n, p, &m, &k);
    if (s != BLOOM_OK) fail_library("cannot size the filter", s);
    std::printf("n = %s keys, p = %s\n", format_count(n).c_str(), format_double(p).c_str());
    std::printf("m = %s bits (%s)\n", format_count(m).c_str(), format_bytes(bytes_for(m)).c_str());
    std::printf("bytes = %s\n", format_count(bytes_for(m)).c_str());
    std::printf("k = %u hashes\n", k);
    std::printf("bits per key = %.2f\n", static_cast<double>(m) / static_cast<double>(n));
    std::printf("P at this m and k = %s\n",
                format_double(seed_fp_rate(static_cast<double>(n), static_cast<double>(m), k), 4).c_str());
    return kExitOk;
  }

  const uint64_t m = parse_count(*args.value("bits"), "-m");
  if (m > BLOOM_MAX_BITS) throw CliError("-m is larger than the library's limit of 2^40 bits");
  // Checked before anything is printed: an error leaves stdout empty.
  const auto k_text = args.value("hashes");
  const uint32_t k = k_text ? parse_hashes(*k_text, "-k") : 0;
  const double ratio = static_cast<double>(m) / static_cast<double>(n);
  const double best_k_exact = ratio * kLn2;
  uint32_t best_k =
      static_cast<uint32_t>(std::llround(std::fmax(1.0, std::fmin(best_k_exact, BLOOM_MAX_HASHES))));
  std::printf("n = %s keys, m = %s bits (%s), %.2f bits per key\n", format_count(n).c_str(),
              format_count(m).c_str(), format_bytes(bytes_for(m)).c_str(), ratio);
  const char *how = best_k_exact > BLOOM_MAX_HASHES ? "capped at the library's maximum of 64"
                    : best_k_exact < 1.0            ? "raised to 1"
                                                    : "rounded";
  std::printf("best k = %u hashes ((m/n) ln 2 = %.3f, %s)\n", best_k, best_k_exact, how);
  std::printf("P at best k = %s\n",
              format_double(seed_fp_rate(static_cast<double>(n), static_cast<double>(m), best_k), 4).c_str());
  std::printf("P_min = 0.6185^(m/n) = %s\n", format_double(std::pow(0.5, best_k_exact), 4).c_str());
  if (k_text)
    std::printf("P at k = %u = %s\n", k,
                format_double(seed_fp_rate(static_cast<double>(n), static_cast<double>(m), k), 4).c_str());
  return kExitOk;
}

}  // namespace

const Command kCalcCommand{"calc", "size a filter: n, p -> m, k; or n, m -> best k and its P", kHelp, run};

}  // namespace bloom_cli
