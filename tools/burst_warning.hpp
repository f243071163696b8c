// SPDX-License-Identifier: Apache-2.0
// burst_warning.hpp -- `bloom dedup --window` with a time window: say so on
// stderr when a generation takes more lines than -n allows, as it happens.
//
// A time window never forgets early (that would let repeats through), so a
// generation that takes more than g = ceil(n / l) lines fills its slices
// past the design and raises the rate of new lines dropped, during the
// burst and for a whole window after it, while its keys are remembered. The
// warning comes once per episode (until a generation ends within g again),
// with the arrival rate the burst implies, so a burst in the middle of a
// stream is seen when it happens, not only if it is still on at the end.
#pragma once

#include <cstdint>

namespace bloom_cli {

class BurstWarning {
 public:
  // g lines a generation of d ms, l generations a window of window_ms and
  // capacity n.
  // event_time: the clock is the lines' stamps; replay: the input is a
  // regular file read without --event-time (the likely cause of a burst).
  BurstWarning(uint64_t g, uint32_t l, uint64_t d, uint64_t window_ms, uint64_t n, double p, bool event_time,
               bool replay);

  // The generation that began at start_ms now holds lines lines (the clock
  // reads now_ms); warns when it is the first overflow of an episode.
  void observe(uint64_t lines, uint64_t start_ms, uint64_t now_ms);
  // The generation ended holding lines lines: within g ends the episode.
  void generation_ended(uint64_t lines);
  void set_quiet(bool quiet) { quiet_ = quiet; }
  uint64_t episodes() const { return episodes_; }

 private:
  uint64_t g_, l_, d_, window_ms_, n_;
  double p_;
  bool event_time_, replay_;
  bool quiet_ = false;
  bool in_episode_ = false;
  uint64_t episodes_ = 0;
};

}  // namespace bloom_cli
