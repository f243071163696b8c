// SPDX-License-Identifier: Apache-2.0
#include "filter_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

#include "cli_error.hpp"

namespace bloom_cli {

FilterPtr load_filter(const std::string &path) {
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_load(path.c_str(), &f);
  if (s != BLOOM_OK) fail_library("cannot read filter '" + path + "'", s);
  return FilterPtr(f);
}

FilterPtr open_filter_readonly(const std::string &path) {
  bloom_filter *f = nullptr;
  const bloom_status s = bloom_map(path.c_str(), &f);
  if (s == BLOOM_OK) return FilterPtr(f);
  // Hosts or kinds that cannot be mapped are read into memory instead; any
  // other failure (missing file, corrupt data) is the same for both calls.
  if (s == BLOOM_E_UNSUPPORTED) return load_filter(path);
  fail_library("cannot read filter '" + path + "'", s);
}

namespace {

// "-o -": the file image on standard output (bloom_serialize), for pipes such
// as `bloom build ... -o - | ssh host 'cat > keys.bloom'`.
void write_to_stdout(const bloom_filter *f) {
  if (isatty(1) == 1) throw CliError("refusing to write a binary filter to a terminal (-o -): redirect it");
  size_t size = 0;
  bloom_status s = bloom_serialized_size(f, &size);
  if (s != BLOOM_OK) fail_library("cannot serialize the filter", s);
  std::vector<char> image(size);
  size_t written = 0;
  s = bloom_serialize(f, image.data(), image.size(), &written);
  if (s != BLOOM_OK) fail_library("cannot serialize the filter", s);
  if (std::fwrite(image.data(), 1, written, stdout) != written || std::fflush(stdout) != 0)
    fail_errno("cannot write the filter to standard output");
}

}  // namespace

void save_filter(const bloom_filter *f, const std::string &path) {
  if (path == "-") return write_to_stdout(f);
  const bloom_status s = bloom_save(f, path.c_str());
  if (s != BLOOM_OK) fail_library("cannot write filter '" + path + "'", s);
}

void check_output_path(const std::string &path, const std::string &option) {
  if (path == "-") return;
  const std::string where = option + " '" + path + "'";
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw CliError("cannot write the filter to " + where + ": " +
                   (S_ISDIR(st.st_mode) ? "it is a directory" : "it is not a regular file"));
  // bloom_save writes a temporary file beside the target and renames it.
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw CliError("cannot write the filter to " + where + ": directory '" + dir + "' does not exist");
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw CliError("cannot write the filter to " + where + ": directory '" + dir + "' is not writable");
}

bloom_info filter_info(const bloom_filter *f) {
  bloom_info info{};
  info.struct_size = sizeof info;
  const bloom_status s = bloom_get_info(f, &info);
  if (s != BLOOM_OK) fail_library("cannot describe the filter", s);
  return info;
}

std::string kind_label(int kind) {
  const char *name = bloom_kind_name(kind);
  return name != nullptr ? name : "kind " + std::to_string(kind);
}

std::string hash_label(int hash) {
  const char *name = bloom_hash_name(hash);
  return name != nullptr ? name : "hash " + std::to_string(hash);
}

}  // namespace bloom_cli
