// SPDX-License-Identifier: Apache-2.0
// input_stream.hpp -- bytes and lines from a file or standard input, gzip or
// plain (detected from the first two bytes, 1f 8b), read as they arrive.
//
// zlib's gzread() would be shorter, but it blocks until its buffer is full,
// which breaks an interactive query on a terminal and a dedup in the middle
// of a pipe; here every read() returns what is available and inflate() is
// fed by hand (concatenated gzip members, as `cat a.gz b.gz`, are followed).
#pragma once

#include <zlib.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace bloom_cli {

class InputStream {
 public:
  // Opens path; "-" is standard input. Throws CliError when it cannot.
  static std::unique_ptr<InputStream> open(const std::string &path);
  // Takes ownership of fd (closed by the destructor unless it is 0).
  InputStream(int fd, std::string name);
  ~InputStream();
  InputStream(const InputStream &) = delete;
  InputStream &operator=(const InputStream &) = delete;

  // Reads up to cap decompressed bytes; 0 only at the end of the input.
  // Throws CliError on a read error or corrupt/truncated gzip data.
  size_t read(char *dst, size_t cap);

  const std::string &name() const { return name_; }
  // Waiting for input that is not a regular file (a pipe, a terminal):
  // poll it together with wake_fd. tick() runs before each wait, and again
  // when wake_fd is readable or the wait timed out; it returns the next
  // wait's timeout in milliseconds (-1: none) and may throw to abandon the
  // read (a stop signal), so a long wait still checkpoints and stops.
  void wait_with(int wake_fd, std::function<int()> tick) {
    wake_fd_ = wake_fd;
    tick_ = std::move(tick);
  }
  // Raw (compressed) bytes consumed so far, and the raw size when the input
  // is a regular file (0 otherwise): for the progress bar.
  uint64_t raw_offset() const { return raw_offset_; }
  uint64_t raw_size() const { return raw_size_; }

 private:
  size_t read_raw(char *dst, size_t cap);
  void wait_readable();
  bool fill_raw();
  size_t read_gzip(char *dst, size_t cap);

  int fd_;
  std::string name_;
  uint64_t raw_offset_ = 0;
  uint64_t raw_size_ = 0;
  bool regular_ = false;
  int wake_fd_ = -1;
  std::function<int()> tick_;
  bool detected_ = false;
  bool gzip_ = false;
  bool raw_eof_ = false;
  bool member_done_ = false;  // inflate reached the end of a gzip member
  std::vector<unsigned char> raw_;
  size_t raw_pos_ = 0, raw_end_ = 0;
  z_stream zs_{};
  bool zs_ready_ = false;
};

// Lines of an InputStream without their "\n" or "\r\n".
class LineReader {
 public:
  explicit LineReader(InputStream &in) : in_(in), buf_(1 << 16) {}
  // The next line, valid until the next call; false at the end. A last line
  // without a newline is still a line.
  bool next(std::string_view &line);
  uint64_t line_number() const { return line_number_; }
  const std::string &name() const { return in_.name(); }
  const InputStream &stream() const { return in_; }
  // Called before every read of the underlying input (each 64 KiB, or each
  // time a pipe or terminal has to be waited on): progress bars and flushing
  // output that answers what was read so far.
  void before_read(std::function<void()> hook) { before_read_ = std::move(hook); }

 private:
  InputStream &in_;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  std::string carry_;  // a line that spans reads
  bool carry_returned_ = false;
  uint64_t line_number_ = 0;
  std::function<void()> before_read_;
};

// Copies everything readable from fd (standard input, a pipe, a FIFO, a
// /dev/fd/N of process substitution) into an anonymous temporary file and
// returns the file's descriptor, so a command can read the same input twice
// (count, then add) with memory that does not grow with the input. name is
// for error messages; fd is not closed.
int spool(int fd, const std::string &name);

}  // namespace bloom_cli
