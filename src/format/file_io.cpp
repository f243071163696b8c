#include "format/file_io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "error.hpp"
#include "format/byte_stream.hpp"
#include "format/memory_stream.hpp"
#include "format/save_path.hpp"
#include "format/serializer.hpp"

namespace bloom::core {

namespace {

std::string describe_errno(const std::string &what, const std::string &path, int err) {
  return what + " '" + path + "': " + std::strerror(err);
}

// Closes a descriptor on scope exit unless released.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  // Closes now, reporting the result (a failed close can lose written data).
  int close_now() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

class FdSink final : public ByteSink {
 public:
  FdSink(int fd, const std::string &path) : fd_(fd), path_(path) {}
  void write(const void *data, size_t len) override {
    const auto *p = static_cast<const unsigned char *>(data);
    while (len > 0) {
      const ssize_t n = file_ops().write(fd_, p, len);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail(BLOOM_E_IO, describe_errno("cannot write", path_, errno));
      }
      if (n == 0) fail(BLOOM_E_IO, "cannot write '" + path_ + "': no progress");
      p += n;
      len -= static_cast<size_t>(n);
    }
  }

 private:
  int fd_;
  const std::string &path_;
};

class FdSource final : public ByteSource {
 public:
  FdSource(int fd, uint64_t size, const std::string &path) : fd_(fd), left_(size), path_(path) {}
  void read(void *out, size_t len) override {
    if (len > left_) fail(BLOOM_E_FORMAT, "truncated: the file ends inside the filter");
    auto *p = static_cast<unsigned char *>(out);
    size_t want = len;
    while (want > 0) {
      const ssize_t n = ::read(fd_, p, want);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail(BLOOM_E_IO, describe_errno("cannot read", path_, errno));
      }
      if (n == 0) fail(BLOOM_E_FORMAT, "truncated: '" + path_ + "' shrank while being read");
      p += n;
      want -= static_cast<size_t>(n);
    }
    left_ -= len;
  }
  const void *borrow(size_t) override { return nullptr; }
  uint64_t remaining() const override { return left_; }

 private:
  int fd_;
  uint64_t left_;
  const std::string &path_;
};

// Opens path for reading without blocking on FIFOs and insists on a regular
// file; returns the descriptor and its size.
int open_regular(const std::string &path, uint64_t *size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) fail(BLOOM_E_IO, describe_errno("cannot open", path, errno));
  Fd guard(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) fail(BLOOM_E_IO, describe_errno("cannot stat", path, errno));
  if (!S_ISREG(st.st_mode)) fail(BLOOM_E_IO, "'" + path + "' is not a regular file");
  *size = static_cast<uint64_t>(st.st_size);
  // Back to blocking reads (regular files ignore the flag, but be exact).
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return guard.release();
}

std::atomic<uint64_t> g_temp_counter{0};

}  // namespace

FileOps &file_ops() {
  static FileOps ops{::write, ::fsync, ::rename};
  return ops;
}

void save_file(const Filter &f, const char *path_c) {
  const std::string path(path_c);
  if (path.empty()) fail(BLOOM_E_INVALID_ARG, "path is empty");
  const std::string target = save_target(path);
  struct stat old;
  const bool replacing = ::stat(target.c_str(), &old) == 0 && S_ISREG(old.st_mode);
  // O_EXCL on a fresh name; 0666 lets the umask decide the mode of a new
  // file, as for any newly created file.
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = temp_name_for(target, g_temp_counter.fetch_add(1));
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST)
      fail(BLOOM_E_IO, describe_errno("cannot create a temporary file for", path, errno));
  }
  if (fd < 0) fail(BLOOM_E_IO, "cannot create a temporary file for '" + path + "'");

  Fd file(fd);
  try {
    if (replacing) {
      // The replaced file's owner and group carry over where allowed: both
      // as root, else the group when it is one of ours (a failed fchown
      // changes neither, so the group is tried alone). Then its permission
      // bits (after the chown, which may clear set-id bits): a 0600 filter
      // must not come back world-readable.
      if (::fchown(fd, old.st_uid, old.st_gid) != 0 && ::fchown(fd, static_cast<uid_t>(-1), old.st_gid) != 0) {
        // Neither allowed: the new file stays ours, as any new file would be.
      }
      if (::fchmod(fd, old.st_mode & 07777) != 0)
        fail(BLOOM_E_IO, describe_errno("cannot set the permissions of the new", path, errno));
    }
    FdSink sink(fd, path);
    serialize(f, sink);
    if (file_ops().fsync(fd) != 0) fail(BLOOM_E_IO, describe_errno("cannot fsync", path, errno));
    if (file.close_now() != 0) fail(BLOOM_E_IO, describe_errno("cannot close", path, errno));
    if (file_ops().rename(temp.c_str(), target.c_str()) != 0)
      fail(BLOOM_E_IO, describe_errno("cannot rename the temporary file onto", path, errno));
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  // The rename is durable once the directory entry is on disk. A failure
  // here leaves the new file in place, so it is not reported as a failed save.
  const int dir = ::open(directory_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    file_ops().fsync(dir);
    ::close(dir);
  }
}

std::unique_ptr<Filter> load_file(const char *path_c) {
  const std::string path(path_c);
  uint64_t size = 0;
  Fd file(open_regular(path, &size));
  FdSource src(file.get(), size, path);
  return deserialize(src, size, false);
}

std::unique_ptr<Filter> map_file(const char *path_c) {
  const std::string path(path_c);
  uint64_t size = 0;
  Fd file(open_regular(path, &size));
  if (size == 0) fail(BLOOM_E_FORMAT, "'" + path + "' is empty");
  void *base = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, file.get(), 0);
  if (base == MAP_FAILED) fail(BLOOM_E_IO, describe_errno("cannot map", path, errno));
  std::shared_ptr<const void> mapping(base, [size](const void *p) { ::munmap(const_cast<void *>(p), size); });
  MemorySource src(base, size);
  std::unique_ptr<Filter> f = deserialize(src, size, true);
  f->set_backing(std::move(mapping));
  return f;
}

}  // namespace bloom::core
