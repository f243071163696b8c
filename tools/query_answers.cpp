// SPDX-License-Identifier: Apache-2.0
#include "query_answers.hpp"

#include <unistd.h>

#include <cstdio>

#include "cli_error.hpp"
#include "kmer.hpp"
#include "sequence_reader.hpp"

namespace bloom_cli {

namespace {

const char kWriteError[] = "cannot write the answers";

}  // namespace

bool Answerer::maybe(std::string_view key) {
  const int r = bloom_query(filter_, key.data(), key.size());
  if (r < 0) fail_library("query failed", r);
  if (r == 0) any_no_ = true;
  return r == 1;
}

void Answerer::print_key(std::string_view key) {
  const bool m = maybe(key);
  std::fwrite(key.data(), 1, key.size(), stdout);
  std::fputs(m ? "\tmaybe\n" : "\tno\n", stdout);
  check_stdout(kWriteError);
}

void answer_lines(Answerer &a, InputStream &in, bool prompt, bool literal) {
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
    if (literal) {
      a.print_key(line);
      continue;
    }
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

void answer_source(Answerer &a, const std::string &source, const KeyFormat &format) {
  auto in = InputStream::open(source);
  if (format.sequences()) {
    answer_records(a, *in, format);
  } else {
    const bool prompt = source == "-" && isatty(0) == 1;
    if (prompt)
      std::fputs(format.literal ? "Type a key per line; Ctrl-D quits.\n" : "Type a key per line; :Q quits.\n",
                 stderr);
    answer_lines(a, *in, prompt, format.literal);
  }
  flush_stdout(kWriteError);
}

}  // namespace bloom_cli
