// SPDX-License-Identifier: Apache-2.0
// cmd_calc.cpp -- `bloom calc`: how big a filter is, without building it.
//
//   n, p [--kind K] -> the filter bloom_create makes for these options: the
//           library sizes it (each kind its own way) and bloom_get_info
//           reports m, k, bytes, ...; so calc and build never disagree.
//           Arrays of 2 MiB and more are mapped lazily, so sizing a large
//           filter costs no resident memory.
//   n, m -> (classic) best k = round((m / n) ln 2), P = (1 - e^(-k n / m))^k,
//           and the bound P_min = (1/2)^((m / n) ln 2) ~ 0.6185^(m / n)
#include <cmath>
#include <cstdio>
#include <string>

#include "cli_error.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "filter_file.hpp"
#include "json_text.hpp"
#include "numbers.hpp"

namespace bloom_cli {

namespace {

const char kHelp[] =
    "Usage: bloom calc -n N -p RATE [--kind KIND] [--json] [options]\n"
    "       bloom calc -n N -m BITS [-k K] [--json]\n"
    "\n"
    "Size a filter without building it.\n"
    "  -n N -p RATE    the filter 'bloom build -n N -p RATE' would create, of any\n"
    "                  kind: bits m, hashes k, bytes, bits per key (the library\n"
    "                  sizes it, so the numbers are exactly build's)\n"
    "  -n N -m BITS    classic: the best k = round((m/n) ln 2) and its\n"
    "                  false-positive rate P = (1 - e^(-kn/m))^k; with -k K, P for\n"
    "                  that k instead\n"
    "\n"
    "Options:\n"
    "  -n, --capacity N      the number of keys\n"
    "  -p, --rate RATE       the false-positive rate\n"
    "  -m, --bits BITS       classic: the bits to spend (instead of -p)\n"
    "  -k, --hashes K        with -m: the rate for this number of hashes too\n"
    "  --kind KIND           @KINDS@\n"
    "                        (default classic)\n"
    "  --hash HASH           @HASHES@ (default xxh3;\n"
    "                        redisbloom sizes as RedisBloom does)\n"
    "  --growth G            scalable: capacity factor of each new stage (default 2)\n"
    "  --tightening R        scalable: error factor of each new stage (default 0.85)\n"
    "  --split-block         blocked: 32-byte blocks with k = 8\n"
    "  --json                one JSON object, with the field names of 'bloom stats --json'\n"
    "\n"
    "N and BITS may be written 1000000, 1e6, 10^6 or 1,000,000; RATE as 0.01 or 1%.\n"
    "Sizes are in decimal units (1 MB = 10^6 bytes). A scalable filter's size is\n"
    "its first stage's; a window's -n is the keys one window holds.\n"
    "\n"
    "Examples:\n"
    "  bloom calc -n 1000000 -p 0.0001\n"
    "  bloom calc -n 1e6 -p 1e-4 --kind blocked --json\n"
    "  bloom calc -n 1000000 -m 8e6\n";

const std::vector<OptionSpec> kOwnOptions = {{"bits", 'm', true}, {"hashes", 'k', true}, {"json", 0, false}};

constexpr double kLn2 = 0.69314718055994530942;

uint64_t bytes_for(uint64_t bits) { return (bits + 7) / 8; }

// The write-ups' approximation for a classic filter.
double classic_fp_rate(double n, double m, double k) { return std::pow(1.0 - std::exp(-k * n / m), k); }

// The filter these options make, as the library reports it: bloom_create
// then bloom_get_info, the same path as `bloom build` takes.
bloom_info sized_filter(const bloom_options &o) {
  bloom_filter *raw = nullptr;
  const bloom_status s = bloom_create(&o, &raw);
  if (s != BLOOM_OK) fail_library("cannot size the filter", s);
  const FilterPtr filter(raw);
  return filter_info(filter.get());
}

// The members of bloom_info that describe a new filter's size, under the
// names `bloom stats --json` gives them (bloom_info's member names).
void print_json(const bloom_info &i) {
  std::printf(
      "{\"kind\": %s, \"hash\": %s, \"flags\": %s, \"bits\": %llu, \"hashes\": %u, \"bytes\": %llu, "
      "\"capacity\": %llu, \"fp_rate\": %s, \"stages\": %u, \"counter_bits\": %u, \"growth\": %s, "
      "\"tightening\": %s, \"format\": \"%u.%u\"",
      json_string(kind_label(i.kind)).c_str(), json_string(hash_label(i.hash)).c_str(),
      json_string(flags_text(i.flags)).c_str(), static_cast<unsigned long long>(i.bits), i.hashes,
      static_cast<unsigned long long>(i.bytes), static_cast<unsigned long long>(i.capacity),
      json_number(i.fp_rate).c_str(), i.stages, i.counter_bits, json_number(i.growth).c_str(),
      json_number(i.tightening).c_str(), unsigned{i.format_major}, unsigned{i.format_minor});
  if ((bloom_kind_caps(i.kind) & BLOOM_CAP_FORGETS) != 0)
    std::printf(
        ", \"window_ms\": %llu, \"window_k\": %u, \"window_l\": %u, \"slice_bits\": %llu, "
        "\"generation_capacity\": %llu",
        static_cast<unsigned long long>(i.window_ms), i.window_k, i.window_l,
        static_cast<unsigned long long>(i.slice_bits),
        static_cast<unsigned long long>(i.generation_capacity));
  std::printf("}\n");
}

void print_text(const bloom_info &i, uint64_t n) {
  std::printf("kind = %s, n = %s keys, p = %s\n", kind_label(i.kind).c_str(), format_count(n).c_str(),
              format_double(i.fp_rate).c_str());
  std::printf("m = %s bits (%s)\n", format_count(i.bits).c_str(), format_bytes(i.bytes).c_str());
  std::printf("bytes = %s\n", format_count(i.bytes).c_str());
  std::printf("k = %u hashes\n", i.hashes);
  std::printf("bits per key = %.2f\n", static_cast<double>(i.bits) / static_cast<double>(n));
  std::printf("memory per key = %.2f bits\n", 8.0 * static_cast<double>(i.bytes) / static_cast<double>(n));
  const unsigned caps = bloom_kind_caps(i.kind);
  if (i.kind == BLOOM_KIND_CLASSIC)
    std::printf(
        "P at this m and k = %s\n",
        format_double(classic_fp_rate(static_cast<double>(n), static_cast<double>(i.bits), i.hashes), 4)
            .c_str());
  if (i.counter_bits > 1) std::printf("counter bits = %u\n", i.counter_bits);
  if ((caps & BLOOM_CAP_GROWS) != 0)
    std::printf(
        "grows by stages: each new one holds %s times the keys at %s times the rate (sizes above: the "
        "first stage)\n",
        format_double(i.growth).c_str(), format_double(i.tightening).c_str());
  if ((caps & BLOOM_CAP_FORGETS) != 0)
    std::printf("window: %u generations of %s keys, a key set in %u slices of %s bits\n", i.window_l,
                format_count(i.generation_capacity).c_str(), i.window_k, format_count(i.slice_bits).c_str());
  if (i.flags != 0) std::printf("flags = %s\n", flags_text(i.flags).c_str());
}

int by_bits(const Args &args, uint64_t n) {
  if (args.has("kind") && parse_kind(*args.value("kind")) != BLOOM_KIND_CLASSIC)
    throw CliError("-m sizes a classic filter; for --kind " + *args.value("kind") + " give -p RATE");
  for (const char *name : {"hash", "growth", "tightening", "split-block"})
    if (args.has(name))
      throw CliError(std::string("--") + name + " goes with -p (the library sizes the filter)");
  const uint64_t m = parse_count(*args.value("bits"), "-m");
  if (m > BLOOM_MAX_BITS) throw CliError("-m is larger than the library's limit of 2^40 bits");
  // Checked before anything is printed: an error leaves stdout empty.
  const auto k_text = args.value("hashes");
  const uint32_t k = k_text ? parse_hashes(*k_text, "-k") : 0;
  const double ratio = static_cast<double>(m) / static_cast<double>(n);
  const double best_k_exact = ratio * kLn2;
  const auto best_k =
      static_cast<uint32_t>(std::llround(std::fmax(1.0, std::fmin(best_k_exact, BLOOM_MAX_HASHES))));
  const double p_best = classic_fp_rate(static_cast<double>(n), static_cast<double>(m), best_k);
  const double p_min = std::pow(0.5, best_k_exact);
  const double p_k = k_text ? classic_fp_rate(static_cast<double>(n), static_cast<double>(m), k) : 0;
  if (args.has("json")) {
    std::printf(
        "{\"kind\": \"classic\", \"bits\": %llu, \"hashes\": %u, \"bytes\": %llu, \"capacity\": %llu, "
        "\"expected_fp_rate\": %s, \"min_fp_rate\": %s",
        static_cast<unsigned long long>(m), best_k, static_cast<unsigned long long>(bytes_for(m)),
        static_cast<unsigned long long>(n), json_number(p_best).c_str(), json_number(p_min).c_str());
    if (k_text)
      std::printf(", \"given_hashes\": %u, \"given_hashes_fp_rate\": %s", k, json_number(p_k).c_str());
    std::printf("}\n");
    return kExitOk;
  }
  std::printf("n = %s keys, m = %s bits (%s), %.2f bits per key\n", format_count(n).c_str(),
              format_count(m).c_str(), format_bytes(bytes_for(m)).c_str(), ratio);
  const char *how = best_k_exact > BLOOM_MAX_HASHES ? "capped at the library's maximum of 64"
                    : best_k_exact < 1.0            ? "raised to 1"
                                                    : "rounded";
  std::printf("best k = %u hashes ((m/n) ln 2 = %.3f, %s)\n", best_k, best_k_exact, how);
  std::printf("P at best k = %s\n", format_double(p_best, 4).c_str());
  std::printf("P_min = 0.6185^(m/n) = %s\n", format_double(p_min, 4).c_str());
  if (k_text) std::printf("P at k = %u = %s\n", k, format_double(p_k, 4).c_str());
  return kExitOk;
}

int run(int argc, char **argv) {
  const Args args(concat(kOwnOptions, kFilterOptions), argc, argv, 2);
  if (args.help()) {
    print_help(kCalcCommand);
    return kExitOk;
  }
  if (!args.positional().empty()) throw CliError("unexpected argument '" + args.positional()[0] + "'");
  const auto n_text = args.value("capacity");
  if (!n_text) throw CliError("missing -n N: the number of keys (see bloom calc --help)");
  const uint64_t n = parse_count(*n_text, "-n");
  const bool by_rate = args.has("rate");
  if (by_rate == args.has("bits")) throw CliError("give exactly one of -p RATE or -m BITS");
  if (!by_rate) return by_bits(args, n);
  if (args.has("hashes")) throw CliError("-k goes with -m (with -p the best k is computed)");
  if (n == 0) throw CliError("-n must be at least 1");
  bloom_options o;
  bloom_options_init(&o);
  apply_filter_options(args, &o);
  const bloom_info info = sized_filter(o);
  if (args.has("json"))
    print_json(info);
  else
    print_text(info, n);
  return kExitOk;
}

}  // namespace

const Command kCalcCommand{"calc", "size a filter of any kind: n, p -> m, k, bytes; or n, m -> best k", kHelp,
                           run};

}  // namespace bloom_cli
