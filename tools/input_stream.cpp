// SPDX-License-Identifier: Apache-2.0
#include "input_stream.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli_error.hpp"

namespace bloom_cli {

namespace {

constexpr size_t kRawBufferBytes = 1 << 16;

}  // namespace

std::unique_ptr<InputStream> InputStream::open(const std::string &path) {
  if (path == "-") return std::make_unique<InputStream>(0, "standard input");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail_errno("cannot open '" + path + "'");
  return std::make_unique<InputStream>(fd, path);
}

InputStream::InputStream(int fd, std::string name) : fd_(fd), name_(std::move(name)), raw_(kRawBufferBytes) {
  struct stat st {};
  if (fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (fd_ != 0) ::close(fd_);
      fd_ = -1;
      throw CliError("'" + name_ + "' is a directory, not a file");
    }
    if (S_ISREG(st.st_mode)) raw_size_ = static_cast<uint64_t>(st.st_size);
    regular_ = S_ISREG(st.st_mode);
  }
}

InputStream::~InputStream() {
  if (zs_ready_) inflateEnd(&zs_);
  if (fd_ > 0) ::close(fd_);
}

void InputStream::wait_readable() {
  for (;;) {
    const int timeout = tick_();
    pollfd fds[2] = {{fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    const int n = ::poll(fds, wake_fd_ >= 0 ? 2 : 1, timeout);
    if (n < 0 && errno != EINTR) fail_errno("cannot wait for '" + name_ + "'");
    // Readable, at its end, or in error: read() says which.
    if (n > 0 && fds[0].revents != 0) return;
  }
}

size_t InputStream::read_raw(char *dst, size_t cap) {
  if (tick_ && !regular_) wait_readable();
  for (;;) {
    const ssize_t n = ::read(fd_, dst, cap);
    if (n >= 0) {
      raw_offset_ += static_cast<uint64_t>(n);
      if (n == 0) raw_eof_ = true;
      return static_cast<size_t>(n);
    }
    if (errno != EINTR) fail_errno("cannot read '" + name_ + "'");
  }
}

// Appends what one read() gives to the raw buffer; false at the end.
bool InputStream::fill_raw() {
  if (raw_pos_ == raw_end_) raw_pos_ = raw_end_ = 0;
  if (raw_eof_ || raw_end_ == raw_.size()) return false;
  const size_t n = read_raw(reinterpret_cast<char *>(raw_.data()) + raw_end_, raw_.size() - raw_end_);
  raw_end_ += n;
  return n > 0;
}

size_t InputStream::read(char *dst, size_t cap) {
  if (cap == 0) return 0;
  if (!detected_) {
    fill_raw();
    // One byte that is not 0x1f settles it without waiting for a second
    // (a terminal may deliver a lone "\n").
    if (raw_end_ - raw_pos_ == 1 && raw_[raw_pos_] == 0x1f) fill_raw();
    gzip_ = raw_end_ - raw_pos_ >= 2 && raw_[raw_pos_] == 0x1f && raw_[raw_pos_ + 1] == 0x8b;
    detected_ = true;
  }
  if (gzip_) return read_gzip(dst, cap);
  if (raw_pos_ < raw_end_) {
    const size_t n = std::min(cap, raw_end_ - raw_pos_);
    std::memcpy(dst, raw_.data() + raw_pos_, n);
    raw_pos_ += n;
    return n;
  }
  if (raw_eof_) return 0;
  return read_raw(dst, cap);
}

size_t InputStream::read_gzip(char *dst, size_t cap) {
  if (!zs_ready_) {
    if (inflateInit2(&zs_, 15 + 16) != Z_OK)
      throw CliError("cannot start gzip decompression (out of memory)");
    zs_ready_ = true;
  }
  for (;;) {
    if (member_done_) {
      // The end of a member: the input ends here, or another member follows.
      if (raw_pos_ == raw_end_ && !fill_raw()) return 0;
      inflateReset(&zs_);
      member_done_ = false;
    }
    if (raw_pos_ == raw_end_) fill_raw();
    zs_.next_in = raw_.data() + raw_pos_;
    zs_.avail_in = static_cast<uInt>(raw_end_ - raw_pos_);
    zs_.next_out = reinterpret_cast<Bytef *>(dst);
    zs_.avail_out = static_cast<uInt>(std::min<size_t>(cap, 1u << 30));
    const uInt out_before = zs_.avail_out;
    const int ret = inflate(&zs_, Z_NO_FLUSH);
    raw_pos_ = raw_end_ - zs_.avail_in;
    const size_t produced = out_before - zs_.avail_out;
    if (ret == Z_STREAM_END) {
      member_done_ = true;
      if (produced > 0) return produced;
      continue;
    }
    if (ret == Z_OK || ret == Z_BUF_ERROR) {
      if (produced > 0) return produced;
      if (raw_eof_ && raw_pos_ == raw_end_)
        throw CliError("'" + name_ + "': truncated gzip data (the stream ends inside a member)");
      continue;
    }
    throw CliError("'" + name_ + "': corrupt gzip data (" + (zs_.msg != nullptr ? zs_.msg : zError(ret)) +
                   ")");
  }
}

bool LineReader::next(std::string_view &line) {
  if (carry_returned_) {
    carry_.clear();
    carry_returned_ = false;
  }
  for (;;) {
    if (pos_ < end_) {
      const char *start = buf_.data() + pos_;
      const auto *nl = static_cast<const char *>(std::memchr(start, '\n', end_ - pos_));
      if (nl != nullptr) {
        pos_ = static_cast<size_t>(nl - buf_.data()) + 1;
        if (carry_.empty()) {
          line = std::string_view(start, static_cast<size_t>(nl - start));
        } else {
          carry_.append(start, static_cast<size_t>(nl - start));
          carry_returned_ = true;
          line = carry_;
        }
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        ++line_number_;
        return true;
      }
      carry_.append(start, end_ - pos_);
      pos_ = end_ = 0;
    }
    if (eof_) {
      if (carry_.empty()) return false;
      carry_returned_ = true;
      line = carry_;
      if (line.back() == '\r') line.remove_suffix(1);
      ++line_number_;
      return true;
    }
    if (before_read_) before_read_();
    const size_t n = in_.read(buf_.data(), buf_.size());
    if (n == 0) eof_ = true;
    pos_ = 0;
    end_ = n;
  }
}

int spool(int fd, const std::string &name) {
  std::FILE *tmp = std::tmpfile();
  if (tmp == nullptr) fail_errno("cannot create a temporary file to hold '" + name + "'");
  const int copy = ::dup(fileno(tmp));
  std::fclose(tmp);  // the file has no name; copy keeps it alive
  if (copy < 0) fail_errno("cannot create a temporary file to hold '" + name + "'");
  std::vector<char> buf(kRawBufferBytes);
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int saved = errno;
      ::close(copy);
      errno = saved;
      fail_errno("cannot read '" + name + "'");
    }
    if (n == 0) break;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(copy, buf.data() + done, static_cast<size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        const int saved = errno;
        ::close(copy);
        errno = saved;
        fail_errno("cannot write the temporary copy of '" + name + "'");
      }
      done += w;
    }
  }
  return copy;
}

}  // namespace bloom_cli
