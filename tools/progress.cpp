// SPDX-License-Identifier: Apache-2.0
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace bloom_cli {

Progress::Progress(std::string label, uint64_t total_bytes)
    : label_(std::move(label)), total_(total_bytes), enabled_(total_bytes >= kMinBytes && isatty(2) == 1) {}

void Progress::update(uint64_t done_bytes) {
  if (!enabled_) return;
  if (done_bytes > total_) done_bytes = total_;
  const int percent = static_cast<int>(done_bytes * 100 / total_);
  if (percent == shown_percent_) return;
  shown_percent_ = percent;
  constexpr int kWidth = 40;
  const int filled = percent * kWidth / 100;
  std::fprintf(stderr, "\r%s [%.*s%*s] %3d%%", label_.c_str(), filled,
               "########################################", kWidth - filled, "", percent);
  std::fflush(stderr);
}

void Progress::finish() {
  if (!enabled_ || shown_percent_ < 0) return;
  update(total_);
  std::fputc('\n', stderr);
  enabled_ = false;
}

}  // namespace bloom_cli
