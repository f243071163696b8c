// SPDX-License-Identifier: Apache-2.0
#include "byte_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "cli_error.hpp"

namespace bloom_cli {

std::vector<unsigned char> read_file_bytes(const std::string &path) {
  const bool stdin_input = path == "-";
  std::FILE *f = stdin_input ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) fail_errno("cannot open '" + path + "'");
  std::vector<unsigned char> data;
  unsigned char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + n);
  const bool failed = std::ferror(f) != 0;
  if (!stdin_input) std::fclose(f);
  if (failed) fail_errno("cannot read '" + path + "'");
  return data;
}

namespace {

void write_all(int fd, const std::vector<unsigned char> &data, const std::string &what) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t w = ::write(fd, data.data() + done, data.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail_errno("cannot write " + what);
    done += static_cast<size_t>(w);
  }
}

}  // namespace

void write_file_bytes(const std::string &path, const std::vector<unsigned char> &data) {
  if (path == "-") {
    if (isatty(1) == 1) throw CliError("refusing to write a binary filter to a terminal (-o -): redirect it");
    write_all(1, data, "to standard output");
    return;
  }
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail_errno("cannot create '" + tmp + "'");
  try {
    write_all(fd, data, "'" + tmp + "'");
    if (::fsync(fd) != 0) fail_errno("cannot flush '" + tmp + "'");
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    fail_errno("cannot write '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    errno = e;
    fail_errno("cannot replace '" + path + "'");
  }
}

}  // namespace bloom_cli
