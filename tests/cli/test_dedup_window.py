# SPDX-License-Identifier: Apache-2.0
"""bloom dedup --window: a count or time window (the window kind). Repeats
inside the window never pass; lines older than the window pass again; the
state survives --save / --resume; --event-time takes the clock from the
input, so time windows are tested deterministically."""

import subprocess
import threading
import unittest

from cli_support import CliTestCase
from test_dedup import DedupChecks, stream_with_repeats


class CountWindowChecksTest(DedupChecks, CliTestCase):
    # The shared checks, with a window far longer than their streams.
    kind_args = ("--window", "1M")
    capacity_args = ()


class WindowTest(CliTestCase):
    def dedup(self, text, *args, check=0):
        return self.run_bloom("dedup", *args, input=text, check=check)

    def test_count_window_forgets_what_is_older(self):
        # 300 distinct ids, then the first 100 again: with a window of 100
        # they were forgotten (at most one generation late, W/l = 5 lines),
        # so they pass again; the last 30 of those, repeated right away (30
        # lines later), never pass.
        ids = [f"id-{i}" for i in range(300)]
        again = ids[:100]
        recent = again[-30:]
        p = self.dedup("\n".join(ids + again + recent) + "\n", "--window", "100", "-p", "0.001")
        out = p.stdout.splitlines()
        self.assertEqual(out[:300], ids)
        # Forgotten: from (l + 1) g = 124 lines on a line fades, and is gone
        # (bar false positives) after (l + k) g = 152; these are 200-300 old.
        self.assertGreaterEqual(len(out[300:]), 95)
        self.assertEqual(len(out[300:]), len(set(out[300:])), "a line repeated inside the window passed")

    def test_event_time_window(self):
        # 10 ids a second for 30 s through a 10 s window: each id repeats 5 s
        # later (inside the window: dropped) and 20 s later (forgotten:
        # passed, false positives aside).
        lines = []
        for t in range(0, 30000, 100):
            i = t // 100
            lines.append(f"{t}\tid-{i}")
            if t >= 5000:
                lines.append(f"{t}\tid-{i - 50}")
            if t >= 20000:
                lines.append(f"{t}\tid-{i - 200}")
        p = self.dedup("\n".join(lines) + "\n", "--window", "10s", "-n", "200", "-p", "0.001", "--event-time")
        ages = []
        for line in p.stdout.splitlines():
            t, key = line.split("\t")
            ages.append(int(t) // 100 - int(key[3:]))
        self.assertNotIn(50, ages, "a repeat inside the window passed")
        self.assertEqual(ages.count(0), 300)  # every first sighting (p = 0.001: none dropped here)
        self.assertGreaterEqual(ages.count(200), 95)  # 100 forgotten repeats

    def test_save_and_resume(self):
        f = self.path("w.bloom")
        self.dedup("a\nb\n", "--window", "1000", "--save", f, "--resume", f)
        p = self.dedup("b\nc\na\n", "--window", "1000", "--save", f, "--resume", f)
        self.assertEqual(p.stdout, "c\n")
        p = self.dedup("c\n", "--window", "2000", "--resume", f, check=2)
        self.assert_one_line_error(p, "--resume")

    def test_window_arguments(self):
        for args, fragment in ((("--window", "10m"), "ambiguous"),
                               (("--window", "1h"), "-n"),
                               (("--window", "10M", "-n", "5"), "count window"),
                               (("--window", "xyz"), "neither"),
                               (("--kind", "window"), "--window"),
                               (("--kind", "classic", "--window", "5"), "--kind"),
                               (("--event-time",), "time window")):
            with self.subTest(args=args):
                p = self.dedup("a\n", *args, check=2)
                self.assert_one_line_error(p, fragment)

    def stamped(self, seconds, bursts=()):
        """10 ids a second (100 ms apart) for seconds, and at each (t_ms, n)
        of bursts n more ids stamped t_ms."""
        lines = []
        for t in range(0, seconds * 1000, 100):
            lines.append(f"{t}\tid-{t}")
            for at, n in bursts:
                if at == t:
                    lines += [f"{t}\tburst-{t}-{i}" for i in range(n)]
        return "\n".join(lines) + "\n"

    def burst_warnings(self, stderr):
        return [line for line in stderr.splitlines() if "warning: a burst" in line]

    def test_burst_warning_once_per_episode(self):
        # -n 200 per 10 s holds 10 lines a second; 500 lines at one moment
        # overflow their generation: one warning per burst, with the rate,
        # and none for the steady stream around them.
        args = ("--window", "10s", "-n", "200", "-p", "0.01", "--event-time")
        p = self.dedup(self.stamped(60), *args)
        self.assertEqual(self.burst_warnings(p.stderr), [], p.stderr)
        p = self.dedup(self.stamped(60, [(30000, 500)]), *args)
        warnings = self.burst_warnings(p.stderr)
        self.assertEqual(len(warnings), 1, p.stderr)
        self.assertIn("a second", warnings[0])
        self.assertIn("by the lines' times", warnings[0])
        self.assertNotIn("give each line its time", warnings[0])
        # Two bursts far apart are two episodes.
        p = self.dedup(self.stamped(60, [(15000, 500), (45000, 500)]), *args)
        self.assertEqual(len(self.burst_warnings(p.stderr)), 2, p.stderr)

    def test_burst_warning_comes_when_it_happens(self):
        # The input stays open after the burst: the warning is on stderr
        # before the end of input, not only at the end.
        proc = subprocess.Popen([self.bloom, "dedup", "--window", "10s", "-n", "200", "--event-time"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        proc.stdin.write(self.stamped(20, [(10000, 500)]).encode())
        proc.stdin.flush()
        got = []
        reader = threading.Thread(target=lambda: got.append(proc.stderr.readline().decode()), daemon=True)
        reader.start()
        reader.join(120)
        still_running = proc.poll() is None
        proc.stdin.close()
        proc.wait(120)
        proc.stderr.close()
        self.assertTrue(still_running)
        self.assertEqual(len(got), 1)
        self.assertIn("warning: a burst", got[0])

    def test_a_replayed_file_without_event_time_names_event_time(self):
        # A time window over a file read in a moment of the monotonic
        # clock: the warning says a replay needs --event-time.
        path = self.write("ids.txt", "".join(f"id-{i}\n" for i in range(5000)))
        p = self.run_bloom("dedup", path, "--window", "1h", "-n", "1000", check=0)
        warnings = self.burst_warnings(p.stderr)
        self.assertEqual(len(warnings), 1, p.stderr)
        self.assertIn("--event-time", warnings[0])
        self.assertIn("raise -n to at least", warnings[0])

    def test_stats_reports_the_window_state(self):
        # Every window member of bloom_info, in text and --json.
        f = self.path("t.bloom")
        # 10 lines a second for 400 s; at -p 0.01 an hour is l = 24
        # generations of 150 s: the third began at 300 s with 1,000 lines.
        self.dedup(self.stamped(400), "--window", "1h", "-n", "40000", "--event-time", "--save", f)
        w = self.stats(f)["window"]
        self.assertEqual(w["window_ms"], 3600000)
        self.assertGreater(w["k"], 0)
        self.assertEqual(w["l"], 24)
        self.assertEqual(w["generation_capacity"], -(-40000 // w["l"]))
        self.assertEqual(w["generation_ms"], 150000)
        self.assertEqual(w["generation"], 2)
        self.assertEqual(w["generation_keys"], 1000)
        self.assertEqual(w["slice_bits"] % 64, 0)
        self.assertGreaterEqual(w["clock_ms"], 300000)
        self.assertEqual(w["generation_start_ms"], 300000)
        text = self.run_bloom("stats", f, check=0).stdout
        for label in ("window", "slices (k + l)", "generation size", "generation ", "clock (ms)",
                      "generation start"):
            self.assertIn(label, text)
        self.assertIn(f"{w['k']} + {w['l']}", text)
        # A count window has no clock; other kinds have no "window".
        self.dedup("a\n", "--window", "100", "--save", f)
        self.assertEqual(self.stats(f)["window"]["window_ms"], 0)
        self.assertNotIn("clock", self.run_bloom("stats", f, check=0).stdout)
        self.dedup("a\n", "--kind", "classic", "--save", self.path("c.bloom"))
        self.assertNotIn("window", self.stats(self.path("c.bloom")))

    def test_help_shows_seed_004(self):
        p = self.run_bloom("dedup", "--help")
        self.assertIn("--window 1h -n 36e6", p.stdout)
        self.assertIn("--resume", p.stdout)


if __name__ == "__main__":
    unittest.main()
