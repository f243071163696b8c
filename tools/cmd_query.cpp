// SPDX-License-Identifier: Apache-2.0
// cmd_query.cpp -- `bloom query`: is each key maybe in the filter, or surely not?
//
// Answers are written as the keys are read, one line each, and stdout is
// flushed whenever the tool waits for more input, so `bloom query` works as a
// co-process in a pipeline and at a terminal prompt alike.
#include <cstdio>

#include "cli_error.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "filter_file.hpp"
#include "numbers.hpp"
#include "query_answers.hpp"

namespace bloom_cli {

namespace {

const char kHelp[] =
    "Usage: bloom query FILTER [KEY...] [--file QUERIES] [options]\n"
    "\n"
    "Print '<key>\\t<maybe|no>' for every key, in input order: the KEY arguments,\n"
    "then the lines of QUERIES; with neither, the lines of standard input (with a\n"
    "prompt when it is a terminal). A line ':Q' ends the queries; blank lines and\n"
    "a first line '?P' (a key file's rate header) are skipped. With --literal\n"
    "every line is a key as written, ':Q' and '?P' too, a blank line the empty\n"
    "key. CRLF and gzip input are accepted.\n"
    "\n"
    "Options:\n"
    "  --file QUERIES        read keys from this file ('-' = standard input)\n"
    "  -f, --fasta           queries are FASTA records: '<name>\\t<maybe|no>' per record\n"
    "  --fastq               queries are FASTQ records\n"
    "  --kmer K              with --fasta/--fastq: answer '<read name>\\t<hits>/<k-mers>'\n"
    "                        per read (use the K and strandedness the filter was built with)\n"
    "  --canonical           with --kmer: canonical k-mers (the default)\n"
    "  --no-canonical        with --kmer: k-mers as read\n"
    "  --literal             every line is a key (no ':Q', no '?P' header, blank\n"
    "                        lines are the empty key)\n"
    "\n"
    "Exit status: 0 every key (every k-mer) answered maybe; 1 some answered no; 2 error.\n"
    "\n"
    "Examples:\n"
    "  bloom query keys.bloom alice bob\n"
    "  printf 'alice\\ncarol\\n:Q\\n' | bloom query keys.bloom\n"
    "  bloom query genome.bloom --fastq --kmer 31 --file reads.fq.gz\n";

const std::vector<OptionSpec> kOwnOptions = {{"file", 0, true}};

int run(int argc, char **argv) {
  const Args args(concat(kOwnOptions, kKeyFormatOptions), argc, argv, 2);
  if (args.help()) {
    print_help(kQueryCommand);
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
  if (source) answer_source(answers, *source, format);
  flush_stdout("cannot write the answers");
  return answers.any_no() ? kExitSomeNo : kExitOk;
}

}  // namespace

const Command kQueryCommand{"query", "answer maybe/no for keys, reads or k-mers", kHelp, run};

}  // namespace bloom_cli
