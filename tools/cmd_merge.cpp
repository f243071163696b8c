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
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  const auto out_path = args.value("out");
  if (!out_path) throw CliError("missing -o OUT: where to write the result (see bloom merge --help)");
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
  if (!args.has("quiet")) {
    const bloom_info info = filter_info(result.get());
    std::fprintf(stderr, "bloom merge: %zu filters -> %s (%s, m = %s bits, k = %u, fill %s)\n", inputs.size(),
                 out_path->c_str(), kind_label(info.kind).c_str(), format_count(info.bits).c_str(),
                 info.hashes, format_double(info.fill_ratio, 4).c_str());
  }
  return kExitOk;
}

}  // namespace

const Command kMergeCommand{"merge", "union (or --intersect) of filters with equal parameters", kHelp, run};

}  // namespace bloom_cli
