// SPDX-License-Identifier: Apache-2.0
#include "key_reader.hpp"

#include "cli_error.hpp"
#include "numbers.hpp"

namespace bloom_cli {

std::optional<double> rate_header(std::string_view line) {
  double rate = 0;
  if (line.empty() || line[0] != '?' || !parse_percent(line.substr(1), &rate)) return std::nullopt;
  return rate;
}

KeyReader::KeyReader(InputStream &in, const KeyFormat &format)
    : lines_(in), format_(format), kmers_(format.kmer, format.canonical) {
  if (format_.sequences()) {
    records_ = std::make_unique<SequenceReader>(
        lines_, format_.kind == KeyFormat::Kind::kFasta ? SequenceFormat::kFasta : SequenceFormat::kFastq);
    return;
  }
  std::string_view line;
  if (!lines_.next(line)) return;
  if (format_.literal) {
    first_key_ = std::string(line);
    return;
  }
  if (!line.empty() && line[0] == '?') {
    header_rate_ = rate_header(line);
    if (!header_rate_)
      throw CliError(lines_.name() + ":1: '" + std::string(line) +
                     "' is not a rate header: expected ?P with 0 < P < 100 percent, e.g. ?1 (with --literal "
                     "every line is a key)");
    return;
  }
  if (!line.empty()) first_key_ = std::string(line);
}

uint64_t KeyReader::for_each(const std::function<void(std::string_view)> &on_key) {
  uint64_t n = 0;
  if (!format_.sequences()) {
    if (first_key_) {
      on_key(*first_key_);
      ++n;
    }
    std::string_view line;
    while (lines_.next(line)) {
      if (line.empty() && !format_.literal) continue;
      on_key(line);
      ++n;
    }
    return n;
  }
  SequenceRecord rec;
  while (records_->next(rec)) {
    if (format_.kmer == 0) {
      if (rec.seq.empty()) continue;
      on_key(upper_sequence(rec.seq));
      ++n;
      continue;
    }
    kmers_.scan(rec.seq, [&](std::string_view kmer) {
      on_key(kmer);
      ++n;
    });
  }
  return n;
}

uint64_t KeyReader::count() {
  if (format_.sequences() && format_.kmer != 0) {
    uint64_t n = 0;
    SequenceRecord rec;
    while (records_->next(rec)) n += kmers_.count(rec.seq);
    return n;
  }
  return for_each([](std::string_view) {});
}

}  // namespace bloom_cli
