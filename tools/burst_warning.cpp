// SPDX-License-Identifier: Apache-2.0
#include "burst_warning.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

#include "numbers.hpp"
#include "resume_check.hpp"

namespace bloom_cli {

BurstWarning::BurstWarning(uint64_t g, uint32_t l, uint64_t d, uint64_t window_ms, uint64_t n, double p,
                           bool event_time, bool replay)
    : g_(g),
      l_(l != 0 ? l : 1),
      d_(d),
      window_ms_(window_ms),
      n_(n),
      p_(p),
      event_time_(event_time),
      replay_(replay) {}

void BurstWarning::observe(uint64_t lines, uint64_t start_ms, uint64_t now_ms) {
  if (lines <= g_ || in_episode_) return;
  in_episode_ = true;
  ++episodes_;
  if (quiet_ || g_ == 0) return;
  // Lines a second so far in this generation (at least 1 ms has passed),
  // against what -n over the window allows.
  const uint64_t elapsed = now_ms > start_ms ? now_ms - start_ms : 1;
  const double rate = static_cast<double>(lines) * 1000.0 / static_cast<double>(elapsed);
  const double allowed = static_cast<double>(n_) * 1000.0 / static_cast<double>(window_ms_);
  // The -n whose generations would hold this one: g = ceil(n / l) >= lines.
  const uint64_t needed = lines > UINT64_MAX / l_ ? UINT64_MAX : lines * l_;
  std::string advice;
  if (replay_)
    advice =
        "; the input is a file read without --event-time, so the window's clock is the time of reading, not "
        "of "
        "the lines: to replay a log, give each line its time (MILLISECONDS<TAB>KEY) and --event-time";
  else if (!event_time_)
    advice = "; if these lines replay a log faster than it was written, give --event-time with their times";
  std::fprintf(stderr,
               "bloom dedup: warning: a burst: %s lines in %s ms of a %s ms generation%s (%s a second), more "
               "than the %s a generation that -n %s per %s allows (%s a second); until it passes and for one "
               "window after, more than a fraction %s of new lines may be dropped as repeats; raise -n to at "
               "least %s for bursts like it%s\n",
               format_count(lines).c_str(), format_count(elapsed).c_str(), format_count(d_).c_str(),
               event_time_ ? " by the lines' times" : "", format_count(static_cast<uint64_t>(rate)).c_str(),
               format_count(g_).c_str(), format_count(n_).c_str(), window_label(window_ms_, 0).c_str(),
               format_double(allowed, 3).c_str(), format_double(p_).c_str(), format_count(needed).c_str(),
               advice.c_str());
}

void BurstWarning::generation_ended(uint64_t lines) {
  if (lines <= g_) in_episode_ = false;
}

}  // namespace bloom_cli
