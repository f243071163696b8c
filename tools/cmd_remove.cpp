// SPDX-License-Identifier: Apache-2.0
// cmd_remove.cpp -- `bloom remove`: take keys back out of a counting filter.
//
// The filter is read, each key removed once, and the result written back
// (atomically, in place unless -o says elsewhere). A key that was never
// added is reported and left alone: removing it anyway would decrement the
// counters of other keys and could turn a member into a false negative.
#include <cstdio>

#include "cli_error.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "filter_file.hpp"
#include "key_reader.hpp"
#include "numbers.hpp"

namespace bloom_cli {

namespace {

const char kHelp[] =
    "Usage: bloom remove FILTER [KEY...] [--file KEYS] [-o OUT] [options]\n"
    "\n"
    "Remove keys from a counting filter (built with --kind counting): the KEY\n"
    "arguments, then the lines of KEYS ('-' = standard input). Prints\n"
    "'<key>\\tremoved' or '<key>\\tnot present' for each key, then writes the\n"
    "filter back to FILTER (or to OUT), replacing it atomically.\n"
    "\n"
    "A key answers 'not present' when the filter says it was never added; it is\n"
    "left alone, since removing it would lower other keys' counters. Removing a\n"
    "key that was added once makes it (most likely) answer 'no' again; a key\n"
    "added twice needs two removes. A counter that saturated (15 with 4-bit\n"
    "counters) stays stuck, so no other key becomes a false negative.\n"
    "\n"
    "Options:\n"
    "  --file KEYS           read keys from this file, one per line ('-' = standard input;\n"
    "                        blank lines are skipped)\n"
    "  --literal             every line of KEYS is a key, a blank line the empty key\n"
    "  -o, --out OUT         write the result here instead of over FILTER\n"
    "  -q, --quiet           print nothing per key\n"
    "\n"
    "Exit status: 0 every key was removed; 1 some were not present; 2 error.\n"
    "\n"
    "Examples:\n"
    "  bloom build sessions.txt --kind counting -o live.bloom\n"
    "  bloom remove live.bloom session-42\n"
    "  bloom remove live.bloom --file expired.txt -q\n";

const std::vector<OptionSpec> kOptions = {
    {"file", 0, true}, {"out", 'o', true}, {"quiet", 'q', false}, {"literal", 0, false}};

const char kWriteError[] = "cannot write the answers";

class Remover {
 public:
  Remover(bloom_filter *f, bool quiet) : filter_(f), quiet_(quiet) {}

  void remove(std::string_view key) {
    const bloom_status s = bloom_remove(filter_, key.data(), key.size());
    if (s != BLOOM_OK && s != BLOOM_E_NOT_PRESENT) fail_library("cannot remove a key", s);
    if (s == BLOOM_OK)
      ++removed_;
    else
      ++absent_;
    if (quiet_) return;
    std::fwrite(key.data(), 1, key.size(), stdout);
    std::fputs(s == BLOOM_OK ? "\tremoved\n" : "\tnot present\n", stdout);
    check_stdout(kWriteError);
  }
  uint64_t removed() const { return removed_; }
  uint64_t absent() const { return absent_; }

 private:
  bloom_filter *filter_;
  bool quiet_;
  uint64_t removed_ = 0, absent_ = 0;
};

int run(int argc, char **argv) {
  const Args args(kOptions, argc, argv, 2);
  if (args.help()) {
    print_help(kRemoveCommand);
    return kExitOk;
  }
  const auto &pos = args.positional();
  if (pos.empty())
    throw CliError("missing FILTER: the counting filter to remove keys from (see bloom remove --help)");
  const std::string out = args.value("out").value_or(pos[0]);
  check_output_path(out, args.has("out") ? "-o" : "FILTER");
  const std::vector<std::string> keys(pos.begin() + 1, pos.end());
  const auto file = args.value("file");
  if (keys.empty() && !file) throw CliError("no keys to remove: give KEY arguments or --file KEYS");

  const FilterPtr filter = load_filter(pos[0]);
  const int kind = filter_info(filter.get()).kind;  // one pass over the counters
  if ((bloom_kind_caps(kind) & BLOOM_CAP_REMOVE) == 0)
    throw CliError("'" + pos[0] + "' is a " + kind_label(kind) + " filter: only " +
                   kind_names(BLOOM_CAP_REMOVE) + " filters (--kind) can remove keys");
  Remover remover(filter.get(), args.has("quiet"));
  for (const auto &k : keys) remover.remove(k);
  if (file) {
    auto in = InputStream::open(*file);
    LineReader lines(*in);
    std::string_view line;
    const bool literal = args.has("literal");
    while (lines.next(line))
      if (literal || !line.empty()) remover.remove(line);
  }
  flush_stdout(kWriteError);
  save_filter(filter.get(), out);
  if (!args.has("quiet"))
    std::fprintf(stderr, "bloom remove: %s removed, %s not present -> %s\n",
                 format_count(remover.removed()).c_str(), format_count(remover.absent()).c_str(),
                 out.c_str());
  return remover.absent() > 0 ? kExitSomeNo : kExitOk;
}

}  // namespace

const Command kRemoveCommand{"remove", "remove keys from a counting filter", kHelp, run};

}  // namespace bloom_cli
