// SPDX-License-Identifier: Apache-2.0
// query_answers.hpp -- answering keys, lines and sequence records against a
// filter, as `bloom query` prints them; shared with `bloom build
// --then-query`, seed 000's build-then-ask in one command.
#pragma once

#include <bloom/bloom.h>

#include <string_view>

#include "input_stream.hpp"
#include "key_reader.hpp"

namespace bloom_cli {

class Answerer {
 public:
  explicit Answerer(const bloom_filter *f) : filter_(f) {}

  bool maybe(std::string_view key);
  // '<key>\t<maybe|no>' on standard output.
  void print_key(std::string_view key);
  bool any_no() const { return any_no_; }

 private:
  const bloom_filter *filter_;
  bool any_no_ = false;
};

// One key per line until EOF or a line ':Q' (blank lines and a first-line
// "?P" header skipped); literal: every line is a key until EOF. With prompt,
// '> ' on stderr before each wait (a terminal).
void answer_lines(Answerer &a, InputStream &in, bool prompt, bool literal);
// FASTA/FASTQ records: maybe/no per record, or k-mer hits per read.
void answer_records(Answerer &a, InputStream &in, const KeyFormat &format);
// Answers the lines (or records) of source ('-' = standard input, with a
// prompt when it is a terminal), then flushes standard output.
void answer_source(Answerer &a, const std::string &source, const KeyFormat &format);

}  // namespace bloom_cli
