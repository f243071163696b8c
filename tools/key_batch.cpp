// SPDX-License-Identifier: Apache-2.0
#include "key_batch.hpp"

#include "cli_error.hpp"

namespace bloom_cli {

void KeyBatch::add(std::string_view key) {
  arena_.append(key);
  ends_.push_back(arena_.size());
  if (ends_.size() >= kBatchKeys) flush();
}

void KeyBatch::flush() {
  if (ends_.empty()) return;
  // Pointers are taken only now: arena_ may have moved while it grew.
  std::vector<const void *> keys(ends_.size());
  std::vector<size_t> lens(ends_.size());
  size_t begin = 0;
  for (size_t i = 0; i < ends_.size(); ++i) {
    keys[i] = arena_.data() + begin;
    lens[i] = ends_[i] - begin;
    begin = ends_[i];
  }
  const bloom_status s = bloom_add_batch(filter_, keys.data(), lens.data(), keys.size());
  if (s != BLOOM_OK) fail_library("cannot add keys", s);
  added_ += keys.size();
  arena_.clear();
  ends_.clear();
}

}  // namespace bloom_cli
