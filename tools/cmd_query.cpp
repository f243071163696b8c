// cmd_query.cpp -- `bloom query`: is each key maybe in the filter, or surely not?
//
// Answers are written as the keys are read, one line each, and stdout is
// flushed whenever the tool waits for more input, so `bloom query` works as a
// co-process in a pipeline and at a terminal prompt alike.
#include <unistd.h>

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
    "Usage: bloom query FILTER [KEY...] [--file QUERIES] [options]\n"
    "\n"
    "Print '<key>\\t<maybe|no>' for every key, in input order: the KEY arguments,\n"
    "then the lines of QUERIES; with neither, the lines of standard input (with a\n"
    "prompt when it is a terminal). A line ':Q' ends the queries. Blank lines are\n"
    "skipped; CRLF and gzip input are accepted.\n"
    "\n"
    "Options:\n"
    "  --file QUERIES        read keys from this file ('-' = standard input)\n"
    "  -f, --fasta           queries are FASTA records: '<name>\\t<maybe|no>' per record\n"
    "  --fastq               queries are FASTQ records\n"
    "  --kmer K              with --fasta/--fastq: answer '<read name>\\t<hits>/<k-mers>'\n"
    "                        per read (use the K and strandedness the filter was built with)\n"
    "  --canonical           with --kmer: canonical k-mers (the default)\n"
    "  --no-canonical        with --kmer: k-mers as read\n"
    "\n"
    "Exit status: 0 every key (every k-mer) answered maybe; 1 some answered no; 2 error.\n"
    "\n"
    "Examples:\n"
    "  bloom query keys.bloom alice bob\n"
    "  printf 'alice\\ncarol\\n:Q\\n' | bloom query keys.bloom\n"
    "  bloom query genome.bloom --fastq --kmer 31 --file reads.fq.gz\n";

const std::vector<OptionSpec> kOwnOptions = {{"file", 0, true}};

const char kWriteError[] = "cannot write the answers";

class Answerer {
 public:
  explicit Answerer(const bloom_filter *f) : filter_(f) {}

  bool maybe(std::string_view key) {
    const int r = bloom_query(filter_, key.data(), key.size());
    if (r < 0) fail_library("query failed", r);
    if (r == 0) any_no_ = true;
    return r == 1;
  }
  void print_key(std::string_view key) {
    const bool m = maybe(key);
    std::fwrite(key.data(), 1, key.size(), stdout);
    std::fputs(m ? "\tmaybe\n" : "\tno\n", stdout);
    check_stdout(kWriteError);
  }
  void note_no() { any_no_ = true; }
  bool any_no() const { return any_no_; }

 private:
  const bloom_filter *filter_;
  bool any_no_ = false;
};

void answer_lines(Answerer &a, InputStream &in, bool prompt) {
  LineReader lines(in);
  lines.before_read([prompt] {
    flush_stdout(kWriteError);
    if (prompt) {
      std::fputs("> ", stderr);
      std::fflush(stderr);
    }
  });
  std::string_view line;
  while (lines.next(line)) {
    if (line == ":Q") return;
    if (line.empty()) continue;
    // A key file's "?P" rate header is not a key (build reads it so), so a
    // file queried as it was built answers no "no" for its header line.
    // Typed at a terminal, "?1" is a question like any other.
    if (!prompt && lines.line_number() == 1 && rate_header(line)) continue;
    a.print_key(line);
  }
  if (prompt) std::fputc('\n', stderr);  // end the prompt line Ctrl-D left open
}

void answer_records(Answerer &a, InputStream &in, const KeyFormat &format) {
  LineReader lines(in);
  lines.before_read([] { flush_stdout(kWriteError); });
  SequenceReader records(
      lines, format.kind == KeyFormat::Kind::kFasta ? SequenceFormat::kFasta : SequenceFormat::kFastq);
  KmerScanner kmers(format.kmer, format.canonical);
  SequenceRecord rec;
  while (records.next(rec)) {
    std::fwrite(rec.name.data(), 1, rec.name.size(), stdout);
    if (format.kmer == 0) {
      std::fputs(a.maybe(upper_sequence(rec.seq)) ? "\tmaybe\n" : "\tno\n", stdout);
      continue;
    }
    uint64_t hits = 0, total = 0;
    kmers.scan(rec.seq, [&](std::string_view kmer) {
      ++total;
      hits += a.maybe(kmer) ? 1 : 0;
    });
    std::printf("\t%llu/%llu\n", static_cast<unsigned long long>(hits),
                static_cast<unsigned long long>(total));
    check_stdout(kWriteError);
  }
}

int run(int argc, char **argv) {
  const Args args(concat(kOwnOptions, kKeyFormatOptions), argc, argv, 2);
  if (args.help()) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  const auto &pos = args.positional();
  if (pos.empty()) throw CliError("missing FILTER: the filter file to query (see bloom query --help)");
  const KeyFormat format = parse_key_format(args);
  const FilterPtr filter = open_filter_readonly(pos[0]);
  Answerer answers(filter.get());

  const std::vector<std::string> keys(pos.begin() + 1, pos.end());
  if (format.sequences() && !keys.empty())
    throw CliError("with --fasta/--fastq, give the reads with --file or on standard input, not as arguments");
  for (const auto &k : keys) answers.print_key(k);

  std::optional<std::string> source = args.value("file");
  if (!source && keys.empty()) source = "-";
  if (source) {
    auto in = InputStream::open(*source);
    if (format.sequences()) {
      answer_records(answers, *in, format);
    } else {
      const bool prompt = *source == "-" && isatty(0) == 1;
      if (prompt) std::fputs("Type a key per line; :Q quits.\n", stderr);
      answer_lines(answers, *in, prompt);
    }
  }
  flush_stdout(kWriteError);
  return answers.any_no() ? kExitSomeNo : kExitOk;
}

}  // namespace

const Command kQueryCommand{"query", "answer maybe/no for keys, reads or k-mers", kHelp, run};

}  // namespace bloom_cli
