// SPDX-License-Identifier: Apache-2.0
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
        fail(Status::kIo, describe_errno("cannot write", path_, errno));
      }
      if (n == 0) fail(Status::kIo, "cannot write '" + path_ + "': no progress");
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
    if (len > left_) fail(Status::kFormat, "truncated: the file ends inside the filter");
    auto *p = static_cast<unsigned char *>(out);
    size_t want = len;
    while (want > 0) {
      const ssize_t n = ::read(fd_, p, want);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail(Status::kIo, describe_errno("cannot read", path_, errno));
      }
      if (n == 0) fail(Status::kFormat, "truncated: '" + path_ + "' shrank while being read");
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
  if (fd < 0) fail(Status::kIo, describe_errno("cannot open", path, errno));
  Fd guard(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) fail(Status::kIo, describe_errno("cannot stat", path, errno));
  if (!S_ISREG(st.st_mode)) fail(Status::kIo, "'" + path + "' is not a regular file");
  *size = static_cast<uint64_t>(st.st_size);
  // Back to blocking reads (regular files ignore the flag, but be exact).
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return guard.release();
}

std::atomic<uint64_t> g_temp_counter{0};

// An unnamed file in dir (O_TMPFILE): if the process dies before it is
// linked, the kernel frees it and nothing is left behind. -1 where the
// kernel or the file system lacks it.
int open_unnamed_in(const char *dir) {
#ifdef O_TMPFILE
  return ::open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
#else
  (void)dir;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

// Gives an unnamed file a name: by its descriptor where allowed
// (AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH), else through /proc.
int link_unnamed_as(int fd, const char *name) {
#ifdef AT_EMPTY_PATH
  if (::linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0) return 0;
  if (errno == EEXIST) return -1;
#endif
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  return ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name, AT_SYMLINK_FOLLOW);
}

// The first free <target>.tmp.<pid>.<n> that create(name) succeeds on; empty
// with errno set when create fails otherwise than EEXIST, or 100 names were
// taken (EEXIST).
template <typename Create>
std::string claim_temp_name(const std::string &target, Create &&create) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = temp_name_for(target, g_temp_counter.fetch_add(1));
    if (create(name.c_str()) == 0) return name;
    if (errno != EEXIST) return {};
  }
  return {};
}

// Writes f's image into the new file fd and fsyncs it. A replaced file's
// owner and group carry over where allowed: both as root, else the group
// when it is one of ours (a failed fchown changes neither, so the group is
// tried alone). Then its permission bits (after the chown, which may clear
// set-id bits): a 0600 filter must not come back world-readable.
void write_new_file(const Filter &f, int fd, const std::string &path, const struct stat *replaced) {
  if (replaced != nullptr) {
    if (::fchown(fd, replaced->st_uid, replaced->st_gid) != 0 &&
        ::fchown(fd, static_cast<uid_t>(-1), replaced->st_gid) != 0) {
      // Neither allowed: the new file stays ours, as any new file would be.
    }
    if (::fchmod(fd, replaced->st_mode & 07777) != 0)
      fail(Status::kIo, describe_errno("cannot set the permissions of the new", path, errno));
  }
  FdSink sink(fd, path);
  serialize(f, sink);
  if (file_ops().fsync(fd) != 0) fail(Status::kIo, describe_errno("cannot fsync", path, errno));
}

// What a non-regular file is, for the message refusing to replace it.
const char *file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Closes the written file (named temp) and renames it over target; on
// failure the temporary name is removed.
void move_into_place(Fd &file, const std::string &temp, const std::string &target, const std::string &path) {
  try {
    if (file.close_now() != 0) fail(Status::kIo, describe_errno("cannot close", path, errno));
    if (file_ops().rename(temp.c_str(), target.c_str()) != 0)
      fail(Status::kIo, describe_errno("cannot rename the temporary file onto", path, errno));
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

// The save through an unnamed file: written and fsync'ed before it gets its
// temporary name, so a kill leaves a temporary file only in the moment
// between link and rename. False, with nothing left behind, when the file
// system cannot make unnamed files or the process cannot link them.
bool save_through_unnamed_file(const Filter &f, const std::string &path, const std::string &target,
                               const struct stat *replaced) {
  const int fd = file_ops().open_unnamed(directory_of(target).c_str());
  if (fd < 0) return false;
  Fd file(fd);
  write_new_file(f, fd, path, replaced);
  const std::string temp =
      claim_temp_name(target, [fd](const char *name) { return file_ops().link_unnamed(fd, name); });
  if (temp.empty()) return false;
  move_into_place(file, temp, target, path);
  return true;
}

}  // namespace

FileOps &file_ops() {
  static FileOps ops{::write, ::fsync, ::rename, open_unnamed_in, link_unnamed_as};
  return ops;
}

void save_file(const Filter &f, const char *path_c) {
  const std::string path(path_c);
  if (path.empty()) fail(Status::kInvalidArg, "path is empty");
  const std::string target = save_target(path);
  struct stat old;
  const bool exists = ::stat(target.c_str(), &old) == 0;
  // The rename would put a regular file where a device, FIFO or socket was
  // (as root, `-o /dev/null` would replace the system's /dev/null), and
  // fails on a directory with a message about the temporary file.
  if (exists && !S_ISREG(old.st_mode))
    fail(Status::kIo,
         "'" + path + "' is " + file_type_name(old.st_mode) +
             "; bloom_save replaces only regular files (it renames a new file over the old one)");
  const struct stat *replaced = exists ? &old : nullptr;
  remove_stale_temp_files(target);
  if (save_through_unnamed_file(f, path, target, replaced)) return;

  // A named temporary file from the start: O_EXCL on a fresh name; 0666 lets
  // the umask decide the mode of a new file, as for any newly created file.
  int fd = -1;
  const std::string temp = claim_temp_name(target, [&fd](const char *name) {
    fd = ::open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    return fd < 0 ? -1 : 0;
  });
  if (temp.empty()) fail(Status::kIo, describe_errno("cannot create a temporary file for", path, errno));
  Fd file(fd);
  try {
    write_new_file(f, fd, path, replaced);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  move_into_place(file, temp, target, path);
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
  if (size == 0) fail(Status::kFormat, "'" + path + "' is empty");
  void *base = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, file.get(), 0);
  if (base == MAP_FAILED) fail(Status::kIo, describe_errno("cannot map", path, errno));
  std::shared_ptr<const void> mapping(base, [size](const void *p) { ::munmap(const_cast<void *>(p), size); });
  MemorySource src(base, size);
  std::unique_ptr<Filter> f = deserialize(src, size, true);
  f->set_backing(std::move(mapping));
  return f;
}

}  // namespace bloom::core
