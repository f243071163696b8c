// SPDX-License-Identifier: Apache-2.0
#include "format/save_path.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "error.hpp"

namespace bloom::core {

namespace {
constexpr int kMaxLinkHops = 40;       // Linux's limit (ELOOP) for a path's links
constexpr size_t kMaxNameBytes = 255;  // NAME_MAX on Linux, the BSDs and macOS
}  // namespace

std::string directory_of(const std::string &path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string save_target(const std::string &path) {
  std::string target = path;
  for (int hop = 0; hop <= kMaxLinkHops; ++hop) {
    struct stat st;
    if (::lstat(target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return target;
    // st_size is the link's length, except on a few pseudo file systems (0).
    std::vector<char> buf(static_cast<size_t>(st.st_size > 0 ? st.st_size : 255) + 1);
    ssize_t n;
    while ((n = ::readlink(target.c_str(), buf.data(), buf.size())) == static_cast<ssize_t>(buf.size()))
      buf.resize(buf.size() * 2);
    if (n <= 0)
      fail(Status::kIo,
           "cannot read the symbolic link '" + target + "': " + std::strerror(n < 0 ? errno : EINVAL));
    const std::string link(buf.data(), static_cast<size_t>(n));
    target = link.front() == '/' || target.find('/') == std::string::npos ? link
                                                                          : directory_of(target) + "/" + link;
  }
  fail(Status::kIo, "cannot save to '" + path + "': " + std::strerror(ELOOP));
}

std::string temp_name_for(const std::string &target, uint64_t n) {
  const std::string suffix = ".tmp." + std::to_string(::getpid()) + "." + std::to_string(n);
  const size_t slash = target.find_last_of('/');
  const size_t name_len = slash == std::string::npos ? target.size() : target.size() - slash - 1;
  if (name_len + suffix.size() <= kMaxNameBytes) return target + suffix;
  const size_t cut = name_len + suffix.size() - kMaxNameBytes;  // < name_len: the suffix is short
  return target.substr(0, target.size() - cut) + suffix;
}

long temp_name_owner(const std::string &target, const std::string &name) {
  // name = <prefix of target's file name>.tmp.<pid>.<n>
  const size_t n_dot = name.find_last_of('.');
  if (n_dot == std::string::npos || n_dot + 1 == name.size()) return 0;
  const size_t pid_dot = name.find_last_of('.', n_dot - 1);
  if (pid_dot == std::string::npos || pid_dot < 4 || name.compare(pid_dot - 4, 4, ".tmp") != 0) return 0;
  const auto digits = [&](size_t from, size_t to) {
    if (from >= to || to - from > 18) return false;
    for (size_t i = from; i < to; ++i)
      if (name[i] < '0' || name[i] > '9') return false;
    return true;
  };
  if (!digits(n_dot + 1, name.size()) || !digits(pid_dot + 1, n_dot)) return 0;
  const size_t slash = target.find_last_of('/');
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  const size_t prefix_len = pid_dot - 4;
  if (prefix_len == 0 || base.compare(0, prefix_len, name, 0, prefix_len) != 0) return 0;
  // The whole name, unless it was cut to fit (then it is exactly 255 bytes).
  if (prefix_len != base.size() && name.size() != kMaxNameBytes) return 0;
  return std::stol(name.substr(pid_dot + 1, n_dot - pid_dot - 1));
}

void remove_stale_temp_files(const std::string &target) {
  const std::string dir = directory_of(target);
  DIR *d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  const long self = static_cast<long>(::getpid());
  while (const struct dirent *e = ::readdir(d)) {
    const long pid = temp_name_owner(target, e->d_name);
    if (pid <= 0 || pid == self) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to tell
    ::unlinkat(::dirfd(d), e->d_name, 0);
  }
  ::closedir(d);
}

}  // namespace bloom::core
