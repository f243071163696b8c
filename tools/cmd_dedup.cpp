// cmd_dedup.cpp -- `bloom dedup`: pass each line the first time it is seen.
//
// Seed 004's job: a stream of message IDs where a few arrive twice. A line
// is dropped when the filter says it may have been seen (bloom_test_and_add),
// so a false positive drops a new line (at most a fraction p of them) while a
// repeat is never let through twice. The default kind is scalable: the
// stream's length is unknown, and a scalable filter adds stages as it grows
// so memory follows the stream while the compound rate stays under p.
#include <cstdio>

#include "cli_error.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "filter_file.hpp"
#include "numbers.hpp"

namespace bloom_cli {

namespace {

// The kind used without --kind.
constexpr int kDefaultDedupKind = BLOOM_KIND_SCALABLE;
// A scalable filter's first stage: small, since it grows by stages.
constexpr uint64_t kDefaultScalableFirstStage = 100000;

const char kHelp[] =
    "Usage: bloom dedup [INPUT...] [-p RATE] [-n CAPACITY] [options]\n"
    "\n"
    "Copy lines from INPUT (default: standard input) to standard output, each\n"
    "the first time it is seen; repeats are dropped. A new line is wrongly\n"
    "dropped with probability at most RATE; a repeat is never let through.\n"
    "Counts go to stderr at the end. '\\r\\n' line ends are written as '\\n'.\n"
    "\n"
    "Options:\n"
    "  -p, --rate RATE       false-positive rate, 0.001 or 0.1% (default 0.01)\n"
    "  -n, --capacity N      scalable: the first stage's capacity (default 100,000);\n"
    "                        other kinds: the expected distinct lines (default 1,000,000)\n"
    "  --kind KIND           scalable (default: memory grows with the stream), or a\n"
    "                        fixed-size kind: classic, partitioned, blocked, counting\n"
    "  --hash HASH           xxh3 (default), murmur3, fnv1a\n"
    "  --seed SEED           hash seed (default 0)\n"
    "  --growth G            scalable: capacity factor of each new stage (default 2)\n"
    "  --tightening R        scalable: error factor of each new stage (default 0.85)\n"
    "  --save FILTER         write the filter of seen lines at the end\n"
    "  -q, --quiet           no counts on stderr\n"
    "\n"
    "Example:\n"
    "  tail -f clicks.log | cut -f1 | bloom dedup -p 0.001 > unique-ids.txt\n";

const std::vector<OptionSpec> kOwnOptions = {{"save", 0, true}, {"quiet", 'q', false}};

const char kWriteError[] = "cannot write the output";

int run(int argc, char **argv) {
  const Args args(concat(kOwnOptions, kFilterOptions), argc, argv, 2);
  if (args.help()) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  bloom_options o;
  bloom_options_init(&o);
  o.kind = kDefaultDedupKind;
  apply_filter_options(args, &o);
  // save_filter takes '-' for stdout, which here carries the lines.
  if (auto save = args.value("save"); save && *save == "-")
    throw CliError(
        "--save - would write the filter into the de-duplicated lines on standard output; "
        "give a file name");
  if (auto save = args.value("save")) check_output_path(*save, "--save");
  if (o.kind == BLOOM_KIND_SCALABLE && !args.has("capacity")) o.capacity = kDefaultScalableFirstStage;
  bloom_filter *raw = nullptr;
  const bloom_status s = bloom_create(&o, &raw);
  if (s != BLOOM_OK) fail_library("cannot create the filter", s);
  const FilterPtr filter(raw);

  std::vector<std::string> inputs = args.positional();
  if (inputs.empty()) inputs.push_back("-");
  uint64_t read = 0, passed = 0;
  for (const auto &path : inputs) {
    auto in = InputStream::open(path);
    LineReader lines(*in);
    // Whatever has passed is written before waiting for more input.
    lines.before_read([] { flush_stdout(kWriteError); });
    std::string_view line;
    while (lines.next(line)) {
      ++read;
      const int seen = bloom_test_and_add(filter.get(), line.data(), line.size());
      if (seen < 0)
        fail_library("cannot add line " + std::to_string(lines.line_number()) + " of '" + in->name() + "'",
                     seen);
      if (seen == 1) continue;
      ++passed;
      std::fwrite(line.data(), 1, line.size(), stdout);
      std::fputc('\n', stdout);
      check_stdout(kWriteError);
    }
  }
  flush_stdout(kWriteError);
  if (auto save = args.value("save")) save_filter(filter.get(), *save);
  if (!args.has("quiet")) {
    const bloom_info info = filter_info(filter.get());
    std::fprintf(stderr, "bloom dedup: %s lines read, %s passed, %s dropped (%s, %s, %u stage%s)\n",
                 format_count(read).c_str(), format_count(passed).c_str(),
                 format_count(read - passed).c_str(), kind_label(info.kind).c_str(),
                 format_bytes(info.bytes).c_str(), info.stages, info.stages == 1 ? "" : "s");
    if (info.kind != BLOOM_KIND_SCALABLE && passed > info.capacity)
      std::fprintf(stderr,
                   "bloom dedup: warning: %s distinct lines exceed the capacity of %s: past it, more than a "
                   "fraction %s of new lines may be dropped as repeats; raise -n or use the scalable kind\n",
                   format_count(passed).c_str(), format_count(info.capacity).c_str(),
                   format_double(info.fp_rate).c_str());
  }
  return kExitOk;
}

}  // namespace

const Command kDedupCommand{"dedup", "pass stdin lines to stdout the first time they are seen", kHelp, run};

}  // namespace bloom_cli
