// SPDX-License-Identifier: Apache-2.0
// sequence_reader.hpp -- FASTA and FASTQ records, multi-line included.
//
// FASTA: a ">name description" line, then sequence lines up to the next ">".
// FASTQ: "@name", sequence lines up to a "+" line, then quality lines until
// they are as long as the sequence (a quality line may begin with "@", so the
// length, not the first character, ends the record). Blank lines between
// records are skipped; a FASTA ";" comment line is skipped.
#pragma once

#include <string>
#include <string_view>

#include "input_stream.hpp"

namespace bloom_cli {

enum class SequenceFormat { kFasta, kFastq };

struct SequenceRecord {
  std::string name;  // the header up to the first space or tab
  std::string seq;   // sequence lines joined, as written (case kept)
};

class SequenceReader {
 public:
  SequenceReader(LineReader &lines, SequenceFormat format) : lines_(lines), format_(format) {}
  // The next record; false at the end. Throws CliError ("<file>:<line>: ...")
  // on input that is not FASTA/FASTQ or a truncated FASTQ record.
  bool next(SequenceRecord &rec);

 private:
  bool next_fasta(SequenceRecord &rec);
  bool next_fastq(SequenceRecord &rec);
  [[noreturn]] void fail(const std::string &what) const;

  LineReader &lines_;
  SequenceFormat format_;
  std::string pending_header_;  // FASTA: the ">" line that ended the last record
  bool have_pending_ = false;
};

}  // namespace bloom_cli
