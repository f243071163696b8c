#include "format/save_path.hpp"

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
      fail(BLOOM_E_IO,
           "cannot read the symbolic link '" + target + "': " + std::strerror(n < 0 ? errno : EINVAL));
    const std::string link(buf.data(), static_cast<size_t>(n));
    target = link.front() == '/' || target.find('/') == std::string::npos ? link
                                                                          : directory_of(target) + "/" + link;
  }
  fail(BLOOM_E_IO, "cannot save to '" + path + "': " + std::strerror(ELOOP));
}

std::string temp_name_for(const std::string &target, uint64_t n) {
  const std::string suffix = ".tmp." + std::to_string(::getpid()) + "." + std::to_string(n);
  const size_t slash = target.find_last_of('/');
  const size_t name_len = slash == std::string::npos ? target.size() : target.size() - slash - 1;
  if (name_len + suffix.size() <= kMaxNameBytes) return target + suffix;
  const size_t cut = name_len + suffix.size() - kMaxNameBytes;  // < name_len: the suffix is short
  return target.substr(0, target.size() - cut) + suffix;
}

}  // namespace bloom::core
