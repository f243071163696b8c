# SPDX-License-Identifier: Apache-2.0
"""bloom dedup --save on a stream that does not end: checkpoints every
--checkpoint, on SIGTERM, SIGINT and SIGHUP (exit status 128 + the signal),
and what a SIGKILL can cost; --resume refuses a state whose options differ
from those given."""

import os
import random
import signal
import subprocess
import threading
import sys
import time
import unittest

from cli_support import CliTestCase

# A count window far longer than any stream here, and a time window of an
# hour of the monotonic clock: every repeat below is inside the window.
WINDOWS = (("--window", "1M"), ("--window", "1h", "-n", "1e6"))


class StreamingDedup:
    """bloom dedup fed through a pipe that stays open: a writer thread sends
    lines (as many as the pipe takes), a reader thread collects the output."""

    def __init__(self, bloom, args, lines):
        self.p = subprocess.Popen([bloom, "dedup", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.out = []
        self.written = 0
        self.lines = lines
        self.done_writing = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._writer = threading.Thread(target=self._write, daemon=True)
        self._reader.start()
        self._writer.start()

    def _read(self):
        for raw in self.p.stdout:
            self.out.append(raw.decode().rstrip("\n"))

    def _write(self):
        try:
            for start in range(0, len(self.lines), 500):
                chunk = self.lines[start:start + 500]
                self.p.stdin.write(("\n".join(chunk) + "\n").encode())
                self.p.stdin.flush()
                self.written = start + len(chunk)
        except (BrokenPipeError, ValueError, OSError):
            pass  # the process stopped while lines were still coming
        self.done_writing.set()

    def wait_for_output(self, count, timeout=120):
        deadline = time.monotonic() + timeout
        while len(self.out) < count:
            if time.monotonic() > deadline or self.p.poll() is not None:
                raise AssertionError(f"only {len(self.out)} of {count} lines came out (exit {self.p.poll()}): "
                                     f"{self.p.stderr.read().decode() if self.p.poll() is not None else ''}")
            time.sleep(0.005)

    def stop(self, sig):
        self.p.send_signal(sig)
        rc = self.p.wait(timeout=120)
        self._reader.join(timeout=120)
        try:
            self.p.stdin.close()
        except OSError:
            pass
        self.stderr = self.p.stderr.read().decode()
        self.p.stderr.close()
        return rc


class CheckpointTest(CliTestCase):
    def ids(self, start, count):
        return [f"click-{i}" for i in range(start, start + count)]

    def resume(self, state, window, lines):
        p = self.run_bloom("dedup", *window, "--resume", state, "--save", state, "-q",
                           input="\n".join(lines) + "\n", check=0)
        return p.stdout.splitlines()

    def test_stop_signals_save_the_state_mid_stream(self):
        # The pipe stays open; the signal comes while lines are being read
        # (busy) or while the tool waits for more (idle). After --resume on
        # every line sent again, no line passed before passes again.
        rng = random.Random(34)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            for window in WINDOWS:
                for busy in (True, False):
                    with self.subTest(signal=sig.name, window=window, busy=busy):
                        state = self.path(f"{sig.name}-{len(window)}-{busy}.bloom")
                        sent = self.ids(0, 200000 if busy else 3000)
                        run = StreamingDedup(self.bloom, (*window, "--save", state), sent)
                        if busy:
                            run.wait_for_output(rng.randint(2000, 60000))
                        else:
                            run.done_writing.wait(60)
                            run.wait_for_output(len(sent) - 30)  # p = 0.01: a few are dropped
                            time.sleep(0.2)
                        rc = run.stop(sig)
                        self.assertEqual(rc, 128 + sig, run.stderr)
                        self.assertIn("saved", run.stderr)
                        first = run.out
                        self.assertEqual(len(first), len(set(first)), "a repeat passed in the first run")
                        again = self.resume(state, window, sent[:run.written] + self.ids(10**6, 1000))
                        repeats = set(again) & set(first)
                        self.assertEqual(len(repeats), 0, f"{len(repeats)} repeats passed after the stop")
                        self.assertGreaterEqual(len([x for x in again if x.startswith("click-1000")]), 960)

    def test_sigkill_costs_at_most_the_lines_since_the_last_checkpoint(self):
        # Killed at random points of a busy stream, with a checkpoint every
        # 2,000 lines: after --resume, the lines let through a second time are
        # those passed since the last checkpoint -- at most 2,000 plus the
        # 1,024 lines between checks and a batch of 1,024 not yet counted.
        rng = random.Random(3434)
        every = 2000
        bound = every + 2 * 1024
        for attempt in range(6):
            window = WINDOWS[attempt % 2]
            with self.subTest(attempt=attempt, window=window):
                state = self.path(f"kill-{attempt}.bloom")
                sent = self.ids(0, 300000)
                run = StreamingDedup(self.bloom, (*window, "--save", state, "--checkpoint", str(every)), sent)
                run.wait_for_output(rng.randint(1000, 150000))
                self.assertEqual(run.stop(signal.SIGKILL), -signal.SIGKILL)
                first = run.out
                again = self.resume(state, window, sent[:run.written] + self.ids(10**6, 1000))
                repeats = len(set(again) & set(first))
                print(f"SIGKILL after {len(first)} lines: {repeats} passed again", file=sys.stderr)
                self.assertLessEqual(repeats, bound, f"{repeats} lines passed twice; {len(first)} in the first run")
                # Whatever the state holds was passed on: new lines still pass.
                self.assertGreaterEqual(len([x for x in again if x.startswith("click-1000")]), 960)

    def test_time_checkpoint_while_the_input_is_idle(self):
        # Lines, then nothing more: the wait for input still checkpoints, so
        # a SIGKILL during the lull costs nothing.
        state = self.path("idle.bloom")
        sent = self.ids(0, 1000)
        run = StreamingDedup(self.bloom, ("--window", "1M", "--save", state, "--checkpoint", "100ms"), sent)
        run.done_writing.wait(60)
        run.wait_for_output(990)
        deadline = time.monotonic() + 60
        while not os.path.exists(state) and time.monotonic() < deadline:
            time.sleep(0.02)
        self.assertTrue(os.path.exists(state), "no checkpoint while the input was idle")
        run.stop(signal.SIGKILL)
        self.assertEqual(self.resume(state, ("--window", "1M"), sent), [])

    def test_checkpoint_options(self):
        for args, fragment in ((("--checkpoint", "10s"), "--save"),
                               (("--save", self.path("x.bloom"), "--checkpoint", "soon"), "--checkpoint"),
                               (("--save", self.path("x.bloom"), "--checkpoint", "10m"), "ambiguous")):
            with self.subTest(args=args):
                p = self.run_bloom("dedup", *args, input="a\n", check=2)
                self.assert_one_line_error(p, fragment)
        # 0: no periodic checkpoint, but still the one at the end of input.
        state = self.path("lines.bloom")
        self.run_bloom("dedup", "--save", state, "--checkpoint", "0", input="a\nb\n", check=0)
        self.assertTrue(os.path.exists(state))


class ResumeOptionsTest(CliTestCase):
    def test_options_given_must_match_the_saved_filter(self):
        state = self.path("w.bloom")
        self.run_bloom("dedup", "--window", "1h", "-n", "5000", "-p", "0.001", "--hash", "murmur3", "--seed", "7",
                       "--save", state, input="a\nb\n", check=0)
        base = ("--resume", state, "--window", "1h", "-n", "5000")
        for extra, fragment in ((("-p", "0.01"), "-p 0.001"),
                                (("--hash", "xxh3"), "--hash murmur3"),
                                (("--seed", "8"), "--seed 7")):
            with self.subTest(extra=extra):
                p = self.run_bloom("dedup", *base, *extra, input="c\n", check=2)
                self.assert_one_line_error(p, fragment, "must match")
        for window, fragment in ((("--window", "2h", "-n", "5000"), "--window 1h"),
                                 (("--window", "1h", "-n", "6000"), "-n 5000"),
                                 (("--window", "5000"), "--window 1h"),
                                 ((), "resume it with --window 1h -n 5000")):
            with self.subTest(window=window):
                p = self.run_bloom("dedup", "--resume", state, *window, input="c\n", check=2)
                self.assert_one_line_error(p, fragment)
        # Left out, the saved options are kept; given alike, they are accepted.
        p = self.run_bloom("dedup", *base, input="a\nc\n", check=0)
        self.assertEqual(p.stdout, "c\n")
        p = self.run_bloom("dedup", *base, "-p", "0.001", "--hash", "murmur3", "--seed", "7", input="b\nd\n", check=0)
        self.assertEqual(p.stdout, "d\n")

    def test_a_fixed_kind_keeps_its_options_too(self):
        state = self.path("c.bloom")
        self.run_bloom("dedup", "--kind", "classic", "-n", "1000", "--save", state, input="a\n", check=0)
        p = self.run_bloom("dedup", "--kind", "classic", "-n", "2000", "--resume", state, input="a\n", check=2)
        self.assert_one_line_error(p, "-n 1000")
        p = self.run_bloom("dedup", "--kind", "classic", "--resume", state, input="a\nb\n", check=0)
        self.assertEqual(p.stdout, "b\n")


if __name__ == "__main__":
    unittest.main()
