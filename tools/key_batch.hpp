// SPDX-License-Identifier: Apache-2.0
// key_batch.hpp -- collects keys and adds them with bloom_add_batch, which
// hashes in blocks and prefetches (faster than one bloom_add per key).
#pragma once

#include <bloom/bloom.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bloom_cli {

class KeyBatch {
 public:
  explicit KeyBatch(bloom_filter *f) : filter_(f) {}
  // Copies the key; adds the batch once it holds kBatchKeys keys.
  void add(std::string_view key);
  // Adds what is pending. Throws CliError with the library's message.
  void flush();
  uint64_t added() const { return added_; }

 private:
  static constexpr size_t kBatchKeys = 1024;

  bloom_filter *filter_;
  std::string arena_;
  std::vector<size_t> ends_;  // key i is arena_[ends_[i-1], ends_[i])
  uint64_t added_ = 0;
};

}  // namespace bloom_cli
