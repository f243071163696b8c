// SPDX-License-Identifier: Apache-2.0
// checkpoint.hpp -- `bloom dedup --save`: the state written while a stream
// runs, so a stop loses at most what came since the last checkpoint.
//
// A stream such as `tail -f clicks.log | bloom dedup ...` never ends: saving
// only at the end of input would never save. The state is written (by
// bloom_save: a new file, fsync'ed and renamed over the old one) every
// --checkpoint interval, when SIGTERM, SIGINT or SIGHUP arrives (then the
// command exits with 128 + the signal's number), and at the end of input.
//
// Order: everything decided is written to standard output before the
// state that remembers it is saved. So a checkpoint never holds a line that
// was not passed on (a stop cannot lose a line), and a SIGKILL or power cut
// costs at most the lines passed since the last complete checkpoint: they
// may be passed once more after --resume.
#pragma once

#include <bloom/bloom.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace bloom_cli {

// SIGTERM, SIGINT and SIGHUP set a flag and write a byte to a pipe
// (async-signal-safe, nothing else): the main loop checks the flag between
// lines, and a reader waiting on a pipe or terminal polls the pipe's read end
// beside its input, so a signal that arrives while it waits, or just
// before, still wakes it.
// One object at a time; the destructor restores the previous handlers.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals &) = delete;
  StopSignals &operator=(const StopSignals &) = delete;

  // The signal that asked to stop, or 0.
  int pending() const;
  // Readable once a signal arrived (poll it; drain() empties it).
  int wake_fd() const { return read_fd_; }
  void drain() const;

 private:
  int read_fd_ = -1;
};

// Thrown out of a wait for input when a stop signal arrived.
struct StopRequested {
  int signal;
};

// --checkpoint: a count of lines ("1M") or a duration ("10s", "5min");
// "0" checkpoints only on a stop signal and at the end of input.
struct CheckpointEvery {
  uint64_t lines = 0;
  uint64_t ms = 0;
};
inline constexpr uint64_t kDefaultCheckpointMs = 10000;
CheckpointEvery parse_checkpoint(std::string_view text);

// When to save, and the save. Callers pass the number of lines decided so
// far (those whose answers were written); a checkpoint is due when lines
// were decided since the last one and the interval has passed.
class Checkpointer {
 public:
  Checkpointer(const bloom_filter *f, std::string path, CheckpointEvery every, uint64_t now_ms);

  bool due(uint64_t decided, uint64_t now_ms) const;
  // Flushes standard output, then saves the filter (throws CliError).
  void save(uint64_t decided, uint64_t now_ms);
  // How long a wait for input may last before the next checkpoint is due
  // (poll's timeout: -1 = no time limit, nothing unsaved or no time interval).
  int wait_ms(uint64_t decided, uint64_t now_ms) const;
  uint64_t saves() const { return saves_; }

 private:
  const bloom_filter *filter_;
  std::string path_;
  CheckpointEvery every_;
  uint64_t saved_lines_ = 0;
  uint64_t saved_ms_;
  uint64_t saves_ = 0;
};

}  // namespace bloom_cli
