// SPDX-License-Identifier: Apache-2.0
// cmd_merge.cpp -- `bloom merge`: the union (or intersection) of filters that
// share every parameter.
#include <cstdio>
#include <vector>

#include "args.hpp"
#include "cli_error.hpp"
#include "commands.hpp"
#include "filter_file.hpp"
#include "numbers.hpp"

namespace bloom_cli {

namespace {

const char kHelp[] =
    "Usage: bloom merge A B [C...] -o OUT [--intersect]\n"
    "\n"
    "Write the union of filters A, B, ... to OUT: it answers maybe for every key\n"
    "of any of them. The filters must agree on kind, hash, seed, m, k and probe\n"
    "scheme (build them with the same -n, -p, --kind, --hash and --seed); the error\n"
    "names the first parameter that differs.\n"
    "\n"
    "Options:\n"
    "  -o, --out OUT   where to write the result (may be an input; - = stdout)\n"
    "  --intersect     the intersection instead: maybe only for keys added to all\n"
    "  -q, --quiet     no summary on stderr\n"
    "\n"
    "Example:\n"
    "  bloom merge monday.bloom tuesday.bloom -o week.bloom\n";

const std::vector<OptionSpec> kOptions = {{"out", 'o', true}, {"intersect", 0, false}, {"quiet", 'q', false}};

int run(int argc, char **argv) {
  const Args args(kOptions, argc, argv, 2);
  if (args.help()) {
    print_help(kMergeCommand);
    return kExitOk;
  }
  const auto out_path = args.value("out");
  if (!out_path) throw CliError("missing -o OUT: where to write the result (see bloom merge --help)");
  check_output_path(*out_path, "-o");
  const auto &inputs = args.positional();
  if (inputs.size() < 2) throw CliError("expected at least two filter files to merge");
  const bool intersect = args.has("intersect");

  FilterPtr result = load_filter(inputs[0]);
  for (size_t i = 1; i < inputs.size(); ++i) {
    const FilterPtr other = open_filter_readonly(inputs[i]);
    const bloom_status s =
        intersect ? bloom_intersect(result.get(), other.get()) : bloom_merge(result.get(), other.get());
    if (s != BLOOM_OK)
      fail_library("cannot " + std::string(intersect ? "intersect '" : "merge '") + inputs[i] + "' with '" +
                       inputs[0] + "'",
                   s);
  }
  save_filter(result.get(), *out_path);
  const bloom_info info = filter_info(result.get());
  if (!args.has("quiet"))
    std::fprintf(
        stderr, "bloom merge: %zu filters -> %s (%s, m = %s bits, k = %u, fill %s, expected rate %s)\n",
        inputs.size(), out_path->c_str(), kind_label(info.kind).c_str(), format_count(info.bits).c_str(),
        info.hashes, format_double(info.fill_ratio, 4).c_str(), format_double(info.expected_fp_rate).c_str());
  // A union holds the keys of all its inputs in arrays sized for one of
  // them: two halves of 1.2 M words merged as scalable filters of 120,000
  // first-stage keys answered 0.127 for p = 0.01. Said even with --quiet.
  if (!intersect && info.fp_rate > 0 && info.expected_fp_rate > info.fp_rate)
    std::fprintf(stderr,
                 "bloom merge: warning: the union's expected false-positive rate %s is above the p = %s its "
                 "inputs were sized for (%.1fx): the inputs together hold more keys than one filter's "
                 "capacity; build one filter from all the keys, or size the inputs for the total\n",
                 format_double(info.expected_fp_rate).c_str(), format_double(info.fp_rate).c_str(),
                 info.expected_fp_rate / info.fp_rate);
  return kExitOk;
}

}  // namespace

const Command kMergeCommand{"merge", "union (or --intersect) of filters with equal parameters", kHelp, run};

}  // namespace bloom_cli
