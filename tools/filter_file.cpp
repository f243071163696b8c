#include "filter_file.hpp"

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

void save_filter(const bloom_filter *f, const std::string &path) {
  const bloom_status s = bloom_save(f, path.c_str());
  if (s != BLOOM_OK) fail_library("cannot write filter '" + path + "'", s);
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
