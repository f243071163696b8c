// SPDX-License-Identifier: Apache-2.0
// cmd_build.cpp -- `bloom build`: keys (or sequences, or k-mers) in, a filter
// file out.
//
// Without -n the capacity is the number of keys read: the inputs are read
// twice (count, then add). Standard input and pipes cannot be read twice, so
// they are first copied to an anonymous temporary file -- memory stays flat
// however large the input. Duplicate keys count toward the capacity, which errs on
// the side of a lower false-positive rate.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_error.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "filter_file.hpp"
#include "key_batch.hpp"
#include "numbers.hpp"
#include "parallel_adder.hpp"
#include "progress.hpp"
#include "query_answers.hpp"

namespace bloom_cli {

namespace {

const char kHelp[] =
    "Usage: bloom build [INPUT...] -o FILTER [options]\n"
    "       bloom build [INPUT...] [-o FILTER] --then-query QUERIES [options]\n"
    "\n"
    "Build a filter from keys, one per line (no INPUT or '-' = standard input).\n"
    "With --then-query, answer queries against it at once, as 'bloom query'\n"
    "does (one command for a key file and a query file, or typed queries).\n"
    "Key lines: a first line '?P' sets the false-positive rate to P percent\n"
    "('?1' = 1%) and is not a key; blank lines are skipped. With --literal every\n"
    "line is a key as written: '?5' and ':Q' are keys, a blank line is the empty\n"
    "key. CRLF line ends are accepted and gzip input is read as is.\n"
    "\n"
    "Options:\n"
    "  -o, --out FILTER      where to write the filter (replaced atomically; - = stdout)\n"
    "  -p, --rate RATE       false-positive rate, 0.01 or 1% (default: the ?P line, else 0.01)\n"
    "  -n, --capacity N      expected distinct keys (default: the number of keys read)\n"
    "  --kind KIND           @KINDS@\n"
    "                        (default classic)\n"
    "  --hash HASH           @HASHES@ (default xxh3)\n"
    "  --seed SEED           hash seed (default 0); filters merge only with equal seeds\n"
    "  --bits M              exact number of bits instead of sizing from -n and -p\n"
    "  --hashes K            exact number of hash functions (default: best for m and n)\n"
    "  -t, --threads N       hash keys on N threads (default: the CPUs available, for\n"
    "                        inputs of 2^20 keys or more); the file is the same for\n"
    "                        every N (scalable filters use 1 thread)\n"
    "  --growth G            scalable: capacity factor of each new stage (default 2)\n"
    "  --tightening R        scalable: error factor of each new stage, in (0, 1)\n"
    "                        (default 0.85)\n"
    "  --split-block         blocked: 32-byte blocks with k = 8 (faster single adds\n"
    "                        and queries, more memory; docs/choosing.md)\n"
    "  --then-query QUERIES  then print '<key>\\t<maybe|no>' for each line of QUERIES\n"
    "                        ('-' = standard input, with a prompt at a terminal);\n"
    "                        -o is optional then. Exit 1 if some key answered no\n"
    "  -f, --fasta           input is FASTA: each record's sequence is a key\n"
    "  --fastq               input is FASTQ: each record's sequence is a key\n"
    "  --kmer K              with --fasta/--fastq: every k-mer is a key (k-mers with\n"
    "                        bases other than ACGT are skipped; lowercase is read as uppercase)\n"
    "  --canonical           with --kmer: store the smaller of a k-mer and its reverse\n"
    "                        complement (the default)\n"
    "  --no-canonical        with --kmer: store k-mers as they are read\n"
    "  --literal             every line is a key (no '?P' header, no ':Q' in\n"
    "                        --then-query, blank lines are keys)\n"
    "  -q, --quiet           no summary on stderr\n"
    "\n"
    "Exit status: 0 success; 1 with --then-query, some key answered no; 3 there\n"
    "were more keys than -n and the filter's expected false-positive rate is above\n"
    "RATE (the file is written; a warning names the key that went past -n); 2 error.\n"
    "\n"
    "Examples:\n"
    "  bloom build samples/keys.txt -o keys.bloom\n"
    "  bloom build ids.txt.gz -o ids.bloom -p 0.001 -n 5000000\n"
    "  bloom build --fasta --kmer 31 genome.fa.gz -o genome.bloom\n"
    "  bloom build words.txt --then-query queries.txt\n"
    "  bloom build ids.txt --kind scalable -n 1000 --growth 2 --tightening 0.9 -o ids.bloom\n";

const std::vector<OptionSpec> kOwnOptions = {{"out", 'o', true},    {"bits", 0, true},
                                             {"hashes", 0, true},   {"threads", 't', true},
                                             {"quiet", 'q', false}, {"then-query", 0, true}};

// --threads: 1 to 1024 (a bound so a typo cannot start millions of threads);
// 0 when not given (the default is decided once the input's size is known).
unsigned parse_threads(const Args &args) {
  const auto v = args.value("threads");
  if (!v) return 0;
  const uint64_t n = parse_count(*v, "--threads");
  if (n < 1 || n > 1024) throw CliError("--threads must be 1 to 1024, not " + *v);
  return static_cast<unsigned>(n);
}

// The default thread count: the CPUs available, for inputs of at least 2^20
// keys (or 16 MiB when they are not counted first). Below that, starting
// threads and merging their filters cost more than they save (200,000 keys
// built in about half the time on 1 thread as on 2; docs/PERFORMANCE.md).
unsigned default_threads(uint64_t counted_keys, bool counted, uint64_t input_bytes) {
  const bool large = counted ? counted_keys >= (uint64_t{1} << 20) : input_bytes >= (uint64_t{16} << 20);
  return large ? available_cpus() : 1;
}

// How --threads shares the work (parallel_adder.hpp). "per-thread" is the
// default: it measured faster (docs/PERFORMANCE.md); BLOOM_BUILD_STRATEGY=
// shared selects the concurrent-flag filter, kept to repeat the measurement.
ParallelAdder::Strategy build_strategy() {
  const char *s = std::getenv("BLOOM_BUILD_STRATEGY");
  if (s == nullptr || *s == '\0' || std::strcmp(s, "per-thread") == 0)
    return ParallelAdder::Strategy::kPerThread;
  if (std::strcmp(s, "shared") == 0) return ParallelAdder::Strategy::kShared;
  throw CliError(std::string("BLOOM_BUILD_STRATEGY must be per-thread or shared, not '") + s + "'");
}

// The inputs of one build. Without -n they are read twice; an input that
// cannot be read twice (standard input, a pipe, a FIFO) is then first copied
// to an anonymous temporary file.
class Inputs {
 public:
  Inputs(std::vector<std::string> paths, bool twice) : paths_(std::move(paths)), spooled_(paths_.size(), -1) {
    for (size_t i = 0; i < paths_.size(); ++i) {
      const std::string &p = paths_[i];
      struct stat st {};
      if (p == "-") {
        if (twice) spooled_[i] = spool(0, "standard input");
      } else if (twice && stat(p.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) fail_errno("cannot open '" + p + "'");
        try {
          spooled_[i] = spool(fd, p);
        } catch (...) {
          ::close(fd);
          throw;
        }
        ::close(fd);
      }
    }
  }
  ~Inputs() {
    for (int fd : spooled_)
      if (fd >= 0) ::close(fd);
  }
  Inputs(const Inputs &) = delete;
  Inputs &operator=(const Inputs &) = delete;

  size_t size() const { return paths_.size(); }

  std::unique_ptr<InputStream> open(size_t i) const {
    const int fd = spooled_[i];
    if (fd < 0) return InputStream::open(paths_[i]);
    const std::string name = paths_[i] == "-" ? "standard input" : paths_[i];
    if (lseek(fd, 0, SEEK_SET) != 0) fail_errno("cannot rewind the copy of '" + name + "'");
    const int copy = ::dup(fd);
    if (copy < 0) fail_errno("cannot reopen the copy of '" + name + "'");
    return std::make_unique<InputStream>(copy, name);
  }

  // Bytes of all regular (or copied) inputs, for the progress bar.
  uint64_t total_bytes() const {
    uint64_t total = 0;
    for (size_t i = 0; i < paths_.size(); ++i) {
      struct stat st {};
      const bool ok = spooled_[i] >= 0 ? fstat(spooled_[i], &st) == 0
                                       : paths_[i] != "-" && stat(paths_[i].c_str(), &st) == 0;
      if (ok && S_ISREG(st.st_mode)) total += static_cast<uint64_t>(st.st_size);
    }
    return total;
  }

 private:
  std::vector<std::string> paths_;
  std::vector<int> spooled_;
};

// After the keys: a filter given more keys than its capacity is over it when
// its expected false-positive rate (the one `bloom stats` shows) exceeds the
// rate asked for; keys past -n that were all repeats leave it within.
int check_capacity(const bloom_filter *f, uint64_t added, bool watched, bool quiet) {
  const bloom_info info = filter_info(f);
  if (!watched || added <= info.capacity || info.fp_rate <= 0) return kExitOk;
  if (info.expected_fp_rate <= info.fp_rate) {
    if (!quiet)
      std::fprintf(
          stderr,
          "bloom build: %s keys for a capacity of %s, but the expected false-positive rate %s is within "
          "p = %s: the keys past the capacity were mostly repeats\n",
          format_count(added).c_str(), format_count(info.capacity).c_str(),
          format_double(info.expected_fp_rate, 4).c_str(), format_double(info.fp_rate).c_str());
    return kExitOk;
  }
  const std::string distinct =
      std::isfinite(info.estimated_keys)
          ? "about " + format_count(static_cast<uint64_t>(std::llround(info.estimated_keys))) +
                " distinct, estimated from the fill"
          : "every bit set, so the distinct count is unknown";
  std::fprintf(
      stderr,
      "bloom build: warning: %s keys (%s) in a filter sized for %s: its expected false-positive rate is "
      "%s, not the p = %s asked for; build without -n (the capacity is then the number of keys read) "
      "or raise -n; exit status 3\n",
      format_count(added).c_str(), distinct.c_str(), format_count(info.capacity).c_str(),
      format_double(info.expected_fp_rate, 4).c_str(), format_double(info.fp_rate).c_str());
  return kExitOverCapacity;
}

int run(int argc, char **argv) {
  const Args args(concat(concat(kOwnOptions, kFilterOptions), kKeyFormatOptions), argc, argv, 2);
  if (args.help()) {
    print_help(kBuildCommand);
    return kExitOk;
  }
  const auto out_path = args.value("out");
  const auto then_query = args.value("then-query");
  if (!out_path && !then_query)
    throw CliError("missing -o FILTER: where to write the filter (see bloom build --help)");
  if (out_path) check_output_path(*out_path, "-o");
  if (then_query && out_path && *out_path == "-")
    throw CliError("-o - and --then-query would both write to standard output; give -o a file name");
  const KeyFormat format = parse_key_format(args);

  bloom_options o;
  bloom_options_init(&o);
  apply_filter_options(args, &o);
  if (auto v = args.value("bits")) o.bits = parse_count(*v, "--bits");
  if (auto v = args.value("hashes")) o.hashes = parse_hashes(*v, "--hashes");
  const unsigned threads_option = parse_threads(args);
  const ParallelAdder::Strategy strategy = build_strategy();
  const bool rate_given = args.has("rate");
  const bool need_count = !args.has("capacity");

  std::vector<std::string> paths = args.positional();
  if (paths.empty()) paths.push_back("-");
  int stdin_uses = 0;
  for (const auto &p : paths) stdin_uses += p == "-";
  if (stdin_uses > 1) throw CliError("standard input ('-') can be given only once");
  if (then_query && *then_query == "-" && stdin_uses > 0)
    throw CliError("the keys come from standard input; give --then-query a file, or the keys a file");
  if (stdin_uses == 1 && isatty(0) == 1)
    std::fputs("bloom build: reading keys from the terminal, one per line; end with Ctrl-D\n", stderr);
  const Inputs inputs(paths, need_count);
  const uint64_t total_bytes = inputs.total_bytes();

  // The first input's "?P" line sets the rate (unless -p does); the same
  // line in later inputs is a header too, but cannot change the filter.
  std::optional<double> header_rate;
  bool warned_header = false;
  auto note_header = [&](size_t index, const KeyReader &r, const std::string &name) {
    if (!r.header_rate()) return;
    if (index == 0) {
      header_rate = r.header_rate();
    } else if (!warned_header && r.header_rate() != header_rate) {
      std::fprintf(stderr,
                   "bloom build: warning: the '?P' line of '%s' is ignored: the rate comes from -p or the "
                   "first input\n",
                   name.c_str());
      warned_header = true;
    }
  };

  // Runs one pass over every input, with a progress bar over all of them.
  auto each_input = [&](const char *label,
                        const std::function<void(size_t, KeyReader &, InputStream &)> &body) {
    Progress bar(label, total_bytes);
    uint64_t done = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto in = inputs.open(i);
      KeyReader reader(*in, format);
      InputStream *stream = in.get();
      reader.before_read([&bar, &done, stream] { bar.update(done + stream->raw_offset()); });
      body(i, reader, *in);
      done += in->raw_offset();
    }
  };

  uint64_t counted = 0;
  if (need_count) {
    each_input("counting keys", [&](size_t i, KeyReader &r, InputStream &in) {
      note_header(i, r, in.name());
      counted += r.count();
    });
  }

  FilterPtr filter;
  auto create = [&] {
    if (!rate_given && header_rate) o.fp_rate = *header_rate;
    if (need_count) o.capacity = counted > 0 ? counted : 1;  // an empty input still gives a valid filter
    bloom_filter *f = nullptr;
    const bloom_status s = bloom_create(&o, &f);
    if (s != BLOOM_OK) fail_library("cannot create the filter", s);
    filter.reset(f);
  };
  if (need_count) create();

  // One thread adds through KeyBatch; more cut the keys into chunks for
  // worker threads whose filters are merged, which takes a kind that merges
  // and does not grow (a growing filter's stages depend on the order of its
  // keys, so it always takes one thread).
  std::unique_ptr<KeyBatch> batch;
  std::unique_ptr<ParallelAdder> parallel;
  auto start_adding = [&] {
    const unsigned threads =
        threads_option > 0 ? threads_option : default_threads(counted, need_count, total_bytes);
    const unsigned caps = bloom_kind_caps(o.kind);
    if (threads > 1 && (caps & BLOOM_CAP_MERGE) != 0 && (caps & BLOOM_CAP_GROWS) == 0)
      parallel = std::make_unique<ParallelAdder>(filter.get(), o, threads, strategy);
    else
      batch = std::make_unique<KeyBatch>(filter.get());
  };
  if (filter) start_adding();
  // With -n a fixed-size filter can be given more keys than it holds at its
  // rate: the key that goes past -n is named at once (said even with --quiet).
  const bool watch_capacity = !need_count && o.bits == 0 && has_fixed_capacity(o.kind);
  uint64_t keys_read = 0;
  auto watch = [&] {
    if (++keys_read != o.capacity + 1 || !watch_capacity) return;
    std::fprintf(
        stderr,
        "bloom build: warning: key %s is past the capacity of %s (-n): if the keys are distinct, the "
        "false-positive rate will be above %s (checked at the end)\n",
        format_count(keys_read).c_str(), format_count(o.capacity).c_str(), format_double(o.fp_rate).c_str());
  };
  each_input("adding keys", [&](size_t i, KeyReader &r, InputStream &in) {
    if (!need_count) note_header(i, r, in.name());
    if (!filter) {
      create();
      start_adding();
    }
    if (parallel)
      r.for_each([&](std::string_view key) {
        watch();
        parallel->add(key);
      });
    else
      r.for_each([&](std::string_view key) {
        watch();
        batch->add(key);
      });
  });
  if (parallel)
    parallel->finish();
  else
    batch->flush();
  const uint64_t added = parallel ? parallel->added() : batch->added();
  if (need_count && added != counted)
    throw CliError("the input changed while it was read: " + format_count(counted) + " keys counted, then " +
                   format_count(added) + " read");
  if (out_path) save_filter(filter.get(), *out_path);

  if (!args.has("quiet")) {
    const bloom_info info = filter_info(filter.get());
    std::fprintf(stderr, "bloom build: %s keys -> %s (%s, m = %s bits, k = %u, %s",
                 format_count(added).c_str(), out_path ? out_path->c_str() : "memory",
                 kind_label(info.kind).c_str(), format_count(info.bits).c_str(), info.hashes,
                 format_bytes(info.bytes).c_str());
    if (info.fp_rate > 0)
      std::fprintf(stderr, ", sized for %s keys at p = %s", format_count(info.capacity).c_str(),
                   format_double(info.fp_rate).c_str());
    std::fprintf(stderr, ")\n");
  }
  const int capacity_status = check_capacity(filter.get(), added, watch_capacity, args.has("quiet"));
  if (then_query) {
    Answerer answers(filter.get());
    KeyFormat queries;
    queries.literal = format.literal;
    answer_source(answers, *then_query, queries);
    if (capacity_status != kExitOk) return capacity_status;
    return answers.any_no() ? kExitSomeNo : kExitOk;
  }
  return capacity_status;
}

}  // namespace

const Command kBuildCommand{"build", "build a filter from keys, FASTA/FASTQ sequences or k-mers", kHelp, run};

}  // namespace bloom_cli
