// SPDX-License-Identifier: Apache-2.0
// temp_dir.hpp -- a fresh private directory per test, removed with whatever
// the test left in it, and reading a file back whole.
#pragma once

#include <dirent.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace bloom::test {

class TempDir {
 public:
  TempDir() {
    std::string templ = ::testing::TempDir() + "bloom_test_XXXXXX";
    path_ = mkdtemp(templ.data()) != nullptr ? templ : "";
  }
  ~TempDir() {
    if (!path_.empty()) std::system(("rm -rf '" + path_ + "'").c_str());
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  // The names in the directory, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    if (DIR *d = opendir(path_.c_str())) {
      while (const dirent *e = readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.push_back(e->d_name);
      closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::string path_;
};

inline std::vector<unsigned char> read_all(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace bloom::test
