# SPDX-License-Identifier: Apache-2.0
"""bloom dedup --window: a count or time window (the window kind). Repeats
inside the window never pass; lines older than the window pass again; the
state survives --save / --resume; --event-time takes the clock from the
input, so time windows are tested deterministically."""

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

    def test_help_shows_seed_004(self):
        p = self.run_bloom("dedup", "--help")
        self.assertIn("--window 1h -n 36e6", p.stdout)
        self.assertIn("--resume", p.stdout)


if __name__ == "__main__":
    unittest.main()
