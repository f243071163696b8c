// SPDX-License-Identifier: Apache-2.0
// progress.hpp -- a progress bar on stderr, only when stderr is a terminal
// and the input is large enough to be worth watching; silent otherwise, so
// pipes and logs never see it.
#pragma once

#include <cstdint>
#include <string>

namespace bloom_cli {

class Progress {
 public:
  // Inputs smaller than this finish in well under a second: no bar.
  static constexpr uint64_t kMinBytes = 16u << 20;  // 16 MiB

  Progress(std::string label, uint64_t total_bytes);
  ~Progress() { finish(); }
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  // Redraws when the whole percentage changes (at most 100 redraws).
  void update(uint64_t done_bytes);
  // Completes the bar and ends its line.
  void finish();
  bool enabled() const { return enabled_; }

 private:
  std::string label_;
  uint64_t total_;
  bool enabled_;
  int shown_percent_ = -1;
};

}  // namespace bloom_cli
