// SPDX-License-Identifier: Apache-2.0
// Line, gzip, key-file and FASTA/FASTQ readers over real files.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli_error.hpp"
#include "input_stream.hpp"
#include "key_reader.hpp"
#include "sequence_reader.hpp"

namespace bloom_cli {
namespace {

class TempFile {
 public:
  explicit TempFile(const std::string &bytes) {
    char name[] = "/tmp/bloom-cli-unit-XXXXXX";
    const int fd = mkstemp(name);
    EXPECT_GE(fd, 0);
    path_ = name;
    EXPECT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    close(fd);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

std::string gzip_bytes(const std::string &text) {
  std::vector<unsigned char> out(compressBound(static_cast<uLong>(text.size())) + 64);
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  const size_t n = out.size() - zs.avail_out;
  deflateEnd(&zs);
  return std::string(reinterpret_cast<char *>(out.data()), n);
}

std::vector<std::string> lines_of(const std::string &bytes) {
  TempFile f(bytes);
  auto in = InputStream::open(f.path());
  LineReader r(*in);
  std::vector<std::string> out;
  std::string_view line;
  while (r.next(line)) out.emplace_back(line);
  return out;
}

std::vector<std::string> keys_of(const std::string &bytes, KeyFormat format,
                                 std::optional<double> *rate = nullptr) {
  TempFile f(bytes);
  auto in = InputStream::open(f.path());
  KeyReader r(*in, format);
  if (rate != nullptr) *rate = r.header_rate();
  std::vector<std::string> out;
  r.for_each([&](std::string_view k) { out.emplace_back(k); });
  return out;
}

TEST(LineReader, LfCrlfAndNoFinalNewline) {
  EXPECT_EQ(lines_of("a\nb\r\n\nc"), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(lines_of(""), std::vector<std::string>{});
  EXPECT_EQ(lines_of("\n"), std::vector<std::string>{""});
}

TEST(LineReader, LinesLongerThanTheBuffer) {
  const std::string long_line(200000, 'x');  // the buffer is 64 KiB
  EXPECT_EQ(lines_of(long_line + "\nshort\n" + long_line),
            (std::vector<std::string>{long_line, "short", long_line}));
}

TEST(InputStream, GzipIsTransparentIncludingConcatenatedMembers) {
  std::string text;
  for (int i = 0; i < 50000; ++i) text += "key" + std::to_string(i) + "\n";
  const auto plain = lines_of(text);
  EXPECT_EQ(lines_of(gzip_bytes(text)), plain);
  const size_t half = text.find('\n', text.size() / 2) + 1;
  EXPECT_EQ(lines_of(gzip_bytes(text.substr(0, half)) + gzip_bytes(text.substr(half))), plain);
}

TEST(InputStream, TruncatedAndCorruptGzipThrow) {
  std::string text;
  for (int i = 0; i < 50000; ++i) text += "key" + std::to_string(i) + "\n";
  const std::string gz = gzip_bytes(text);
  EXPECT_THROW(lines_of(gz.substr(0, gz.size() / 2)), CliError);
  EXPECT_THROW(lines_of(gz.substr(0, gz.size() - 4)), CliError);  // the trailer's length field is cut
  std::string bad = gz;
  bad[3] = static_cast<char>(0xE0);  // reserved FLG bits: an invalid header
  EXPECT_THROW(lines_of(bad), CliError);
}

TEST(InputStream, MissingFileAndDirectoryThrow) {
  EXPECT_THROW(InputStream::open("/nonexistent/bloom-cli-unit"), CliError);
  EXPECT_THROW(InputStream::open("/tmp"), CliError);
}

TEST(KeyReader, RateHeaderIsNotAKey) {
  std::optional<double> rate;
  EXPECT_EQ(keys_of("?5\nx\n\ny\r\n", KeyFormat{}, &rate), (std::vector<std::string>{"x", "y"}));
  ASSERT_TRUE(rate.has_value());
  EXPECT_DOUBLE_EQ(*rate, 0.05);
  EXPECT_EQ(keys_of("x\n?5\n", KeyFormat{}, &rate), (std::vector<std::string>{"x", "?5"}));  // only line 1
  EXPECT_FALSE(rate.has_value());
  EXPECT_THROW(keys_of("?zero\nx\n", KeyFormat{}), CliError);
}

TEST(KeyReader, KmersOfFastaAndCountAgree) {
  KeyFormat f;
  f.kind = KeyFormat::Kind::kFasta;
  f.kmer = 3;
  const std::string fasta = ">a\nACGT\nAC\n>b\nNNN\n";  // ACGTAC: 4 k-mers; NNN: none
  const auto keys = keys_of(fasta, f);
  EXPECT_EQ(keys.size(), 4u);
  TempFile tf(fasta);
  auto in = InputStream::open(tf.path());
  EXPECT_EQ(KeyReader(*in, f).count(), 4u);
}

std::vector<SequenceRecord> records_of(const std::string &text, SequenceFormat format) {
  TempFile f(text);
  auto in = InputStream::open(f.path());
  LineReader lines(*in);
  SequenceReader r(lines, format);
  std::vector<SequenceRecord> out;
  SequenceRecord rec;
  while (r.next(rec)) out.push_back(rec);
  return out;
}

TEST(SequenceReader, FastaMultiLineWithComments) {
  const auto recs = records_of("\n;comment\n>r1 desc\nAC\ngt\n\n>r2\tx\n>r3\nN\n", SequenceFormat::kFasta);
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].name, "r1");
  EXPECT_EQ(recs[0].seq, "ACgt");
  EXPECT_EQ(recs[1].name, "r2");
  EXPECT_EQ(recs[1].seq, "");
  EXPECT_EQ(recs[2].seq, "N");
  EXPECT_THROW(records_of("ACGT\n", SequenceFormat::kFasta), CliError);
}

TEST(SequenceReader, FastqQualityLengthEndsTheRecord) {
  const auto recs = records_of("@r1\nAC\nGT\n+\n@@\n@@\n@r2\nA\n+r2\n!\n", SequenceFormat::kFastq);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].seq, "ACGT");
  EXPECT_EQ(recs[1].name, "r2");
  EXPECT_THROW(records_of("@r\nACGT\n+\nII\n", SequenceFormat::kFastq), CliError);      // short quality
  EXPECT_THROW(records_of("@r\nACGT\n+\nIIIIII\n", SequenceFormat::kFastq), CliError);  // long quality
  EXPECT_THROW(records_of("@r\nACGT\n", SequenceFormat::kFastq), CliError);             // no '+'
  EXPECT_THROW(records_of(">r\nACGT\n", SequenceFormat::kFastq), CliError);
}

}  // namespace
}  // namespace bloom_cli
