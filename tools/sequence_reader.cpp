// SPDX-License-Identifier: Apache-2.0
#include "sequence_reader.hpp"

#include "cli_error.hpp"

namespace bloom_cli {

namespace {

std::string name_of(std::string_view header) {
  header.remove_prefix(1);  // '>' or '@'
  const auto end = header.find_first_of(" \t");
  return std::string(header.substr(0, end));
}

bool blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

}  // namespace

void SequenceReader::fail(const std::string &what) const {
  throw CliError(lines_.name() + ":" + std::to_string(lines_.line_number()) + ": " + what);
}

bool SequenceReader::next(SequenceRecord &rec) {
  return format_ == SequenceFormat::kFasta ? next_fasta(rec) : next_fastq(rec);
}

bool SequenceReader::next_fasta(SequenceRecord &rec) {
  std::string_view line;
  if (!have_pending_) {
    for (;;) {
      if (!lines_.next(line)) return false;
      if (blank(line) || line[0] == ';') continue;
      if (line[0] != '>')
        fail("not FASTA: a record must begin with a '>' line (use --fastq for FASTQ, or neither for keys)");
      pending_header_.assign(line);
      break;
    }
  }
  have_pending_ = false;
  rec.name = name_of(pending_header_);
  rec.seq.clear();
  while (lines_.next(line)) {
    if (!line.empty() && line[0] == '>') {
      pending_header_.assign(line);
      have_pending_ = true;
      break;
    }
    if (blank(line) || line[0] == ';') continue;
    for (char c : line)
      if (c != ' ' && c != '\t') rec.seq += c;
  }
  return true;
}

bool SequenceReader::next_fastq(SequenceRecord &rec) {
  std::string_view line;
  for (;;) {
    if (!lines_.next(line)) return false;
    if (blank(line)) continue;
    if (line[0] != '@') fail("not FASTQ: a record must begin with an '@' line");
    break;
  }
  rec.name = name_of(line);
  rec.seq.clear();
  for (;;) {
    if (!lines_.next(line)) fail("truncated FASTQ record '" + rec.name + "': no '+' line");
    if (!line.empty() && line[0] == '+') break;
    rec.seq.append(line);
  }
  size_t quality = 0;
  while (quality < rec.seq.size()) {
    if (!lines_.next(line))
      fail("truncated FASTQ record '" + rec.name + "': " + std::to_string(quality) +
           " quality characters for " + std::to_string(rec.seq.size()) + " bases");
    quality += line.size();
  }
  if (quality != rec.seq.size())
    fail("FASTQ record '" + rec.name + "' has " + std::to_string(quality) + " quality characters for " +
         std::to_string(rec.seq.size()) + " bases");
  return true;
}

}  // namespace bloom_cli
