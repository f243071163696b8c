// SPDX-License-Identifier: Apache-2.0
#include "checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <limits>

#include "cli_error.hpp"
#include "filter_file.hpp"
#include "window_spec.hpp"

namespace bloom_cli {

namespace {

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP};
constexpr size_t kSignalCount = sizeof kStopSignals / sizeof kStopSignals[0];

volatile sig_atomic_t g_stop_signal = 0;
int g_wake_write = -1;  // set before the handlers are installed, never changed while they are
struct sigaction g_previous[kSignalCount];

// Only async-signal-safe work: a store and a write(2), errno kept.
extern "C" void on_stop_signal(int sig) {
  g_stop_signal = sig;
  const int saved = errno;
  if (g_wake_write >= 0) {
    const char byte = 1;
    (void)!::write(g_wake_write, &byte, 1);  // a full pipe is already readable
  }
  errno = saved;
}

}  // namespace

StopSignals::StopSignals() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) fail_errno("cannot create the pipe that signals stop");
  read_fd_ = fds[0];
  g_wake_write = fds[1];
  g_stop_signal = 0;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  // SA_RESTART: a write to a slow standard output resumes instead of
  // failing with EINTR (stdio would take that for an error). A read never
  // blocks unnoticed: the reader polls the pipe beside its input, and poll
  // itself is not restarted.
  sa.sa_flags = SA_RESTART;
  for (size_t i = 0; i < kSignalCount; ++i) sigaction(kStopSignals[i], &sa, &g_previous[i]);
}

StopSignals::~StopSignals() {
  for (size_t i = 0; i < kSignalCount; ++i) sigaction(kStopSignals[i], &g_previous[i], nullptr);
  ::close(g_wake_write);
  ::close(read_fd_);
  g_wake_write = -1;
}

int StopSignals::pending() const { return g_stop_signal; }

void StopSignals::drain() const {
  char buf[64];
  while (::read(read_fd_, buf, sizeof buf) > 0) {
  }
}

CheckpointEvery parse_checkpoint(std::string_view text) {
  // The same forms as --window: a count of lines or a duration.
  if (text == "0") return {};
  if (!text.empty() && text.back() == 'm')
    throw CliError("--checkpoint '" + std::string(text) +
                   "' is ambiguous: write 'min' for minutes or 'M' for millions of lines");
  WindowSpec w;
  try {
    w = parse_window(text);
  } catch (const CliError &) {
    throw CliError("--checkpoint '" + std::string(text) +
                   "' is neither a count of lines (1M) nor a duration (10s, 5min); 0 saves only on a stop "
                   "and at the end");
  }
  return {w.count, w.ms};
}

Checkpointer::Checkpointer(const bloom_filter *f, std::string path, CheckpointEvery every, uint64_t now_ms)
    : filter_(f), path_(std::move(path)), every_(every), saved_ms_(now_ms) {}

bool Checkpointer::due(uint64_t decided, uint64_t now_ms) const {
  if (decided == saved_lines_) return false;
  if (every_.lines != 0 && decided - saved_lines_ >= every_.lines) return true;
  return every_.ms != 0 && now_ms - saved_ms_ >= every_.ms;
}

void Checkpointer::save(uint64_t decided, uint64_t now_ms) {
  // The lines first: a saved state never remembers a line not passed on.
  flush_stdout("cannot write the output");
  save_filter(filter_, path_);
  saved_lines_ = decided;
  saved_ms_ = now_ms;
  ++saves_;
}

int Checkpointer::wait_ms(uint64_t decided, uint64_t now_ms) const {
  if (decided == saved_lines_ || every_.ms == 0) return -1;
  const uint64_t since = now_ms - saved_ms_;
  if (since >= every_.ms) return 0;
  const uint64_t left = every_.ms - since;
  return left > static_cast<uint64_t>(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max()
                                                                       : static_cast<int>(left);
}

}  // namespace bloom_cli
