// SPDX-License-Identifier: Apache-2.0
// key_reader.hpp -- the keys of one input: lines of a key file, or FASTA/FASTQ
// sequences, or their k-mers. build and query read keys through this.
//
// Key files: one key per line, "\n" or "\r\n"; blank lines are skipped. A
// first line "?P" gives the false-positive rate in percent (the original
// tool's convention: "?1" = 1%); it is a header, not a key. With --literal
// (KeyFormat::literal) every line is a key as written, the empty one too:
// keys that are arbitrary bytes must not change meaning by their content.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "input_stream.hpp"
#include "kmer.hpp"
#include "sequence_reader.hpp"

namespace bloom_cli {

struct KeyFormat {
  enum class Kind { kLines, kFasta, kFastq };
  Kind kind = Kind::kLines;
  unsigned kmer = 0;  // 0: whole lines / whole sequences are the keys
  bool canonical = true;
  bool literal = false;  // --literal: no "?P" header, no ":Q", blank lines are keys

  bool sequences() const { return kind != Kind::kLines; }
};

// The rate, as a fraction, of a key file's "?P" header line (0 < P < 100);
// nothing when line is not one.
std::optional<double> rate_header(std::string_view line);

class KeyReader {
 public:
  // Reads the first line of a key file at once, to see whether it is "?P".
  KeyReader(InputStream &in, const KeyFormat &format);

  // The rate of a "?P" first line, as a fraction.
  std::optional<double> header_rate() const { return header_rate_; }

  // See LineReader::before_read.
  void before_read(std::function<void()> hook) { lines_.before_read(std::move(hook)); }

  // Calls on_key for every key, in input order; returns how many there were.
  uint64_t for_each(const std::function<void(std::string_view)> &on_key);
  // The number of keys for_each would give, without building k-mer strings.
  uint64_t count();

 private:
  LineReader lines_;
  KeyFormat format_;
  std::optional<double> header_rate_;
  std::optional<std::string> first_key_;  // line 1 when it is a key
  std::unique_ptr<SequenceReader> records_;
  KmerScanner kmers_;
};

}  // namespace bloom_cli
