// SPDX-License-Identifier: Apache-2.0
// bloom dedup --checkpoint: when a checkpoint is due, how long a wait for
// input may last, and that a stop signal wakes a wait on a pipe.
#include "checkpoint.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <csignal>

#include "cli_error.hpp"

namespace bloom_cli {
namespace {

TEST(Checkpoint, ParsesCountsDurationsAndZero) {
  EXPECT_EQ(parse_checkpoint("1M").lines, 1000000u);
  EXPECT_EQ(parse_checkpoint("10s").ms, 10000u);
  EXPECT_EQ(parse_checkpoint("5min").ms, 300000u);
  const CheckpointEvery off = parse_checkpoint("0");
  EXPECT_EQ(off.lines, 0u);
  EXPECT_EQ(off.ms, 0u);
  EXPECT_THROW(parse_checkpoint("10m"), CliError);
  EXPECT_THROW(parse_checkpoint("soon"), CliError);
}

TEST(Checkpoint, DueAfterTheIntervalOnlyWithNewLines) {
  // No filter is saved here: due() and wait_ms() only.
  const Checkpointer every_100_lines(nullptr, "unused", {100, 0}, 0);
  EXPECT_FALSE(every_100_lines.due(0, 1000000));  // nothing new: never
  EXPECT_FALSE(every_100_lines.due(99, 1000000));
  EXPECT_TRUE(every_100_lines.due(100, 0));
  EXPECT_EQ(every_100_lines.wait_ms(50, 0), -1);  // no time interval: wait for input
  const Checkpointer every_10s(nullptr, "unused", {0, 10000}, 1000);
  EXPECT_FALSE(every_10s.due(5, 10999));
  EXPECT_TRUE(every_10s.due(5, 11000));
  EXPECT_FALSE(every_10s.due(0, 99999));
  EXPECT_EQ(every_10s.wait_ms(0, 5000), -1);    // nothing unsaved
  EXPECT_EQ(every_10s.wait_ms(5, 5000), 6000);  // the rest of the interval
  EXPECT_EQ(every_10s.wait_ms(5, 20000), 0);    // overdue
}

TEST(StopSignals, ASignalSetsTheFlagAndWakesAPoll) {
  StopSignals stop;
  EXPECT_EQ(stop.pending(), 0);
  ASSERT_EQ(::raise(SIGHUP), 0);  // handled: the test process goes on
  EXPECT_EQ(stop.pending(), SIGHUP);
  pollfd p{stop.wake_fd(), POLLIN, 0};
  EXPECT_EQ(::poll(&p, 1, 0), 1);
  stop.drain();
  EXPECT_EQ(::poll(&p, 1, 0), 0);
}

}  // namespace
}  // namespace bloom_cli
