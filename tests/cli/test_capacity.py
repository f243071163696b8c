# SPDX-License-Identifier: Apache-2.0
"""A fixed-size filter given more keys than its capacity (-n): build and
dedup say so at the key or line that goes past it, report the filter's true
numbers at the end, and exit with status 3 (never a silent 0)."""

import re
import unittest

from cli_support import CliTestCase


def number(text):
    return float(text.replace(",", ""))


class DedupCapacityTest(CliTestCase):
    def test_100000_distinct_lines_in_a_filter_for_1000(self):
        # The check: either >= 99% of 100,000 distinct lines pass, or the
        # exit status is not 0. A full classic filter of 1,000 passes a few
        # thousand, so it must exit non-zero (3) and say so.
        lines = "".join(f"{i}\n" for i in range(100000))
        p = self.run_bloom("dedup", "--kind", "classic", "-n", "1000", input=lines)
        passed = len(p.stdout.splitlines())
        self.assertTrue(passed >= 99000 or p.returncode != 0, f"{passed} passed, exit {p.returncode}")
        self.assertEqual(p.returncode, 3, p.stderr)
        # At the moment: line 1,001 is the first line past the capacity (all distinct).
        self.assertIn("line 1,001 takes the filter past its capacity of 1,000 distinct lines", p.stderr)
        # At the end: the distinct lines held are exactly the lines that passed.
        m = re.search(r"holds ([\d,]+) distinct lines, [\d.]+x its capacity of 1,000: "
                      r"its false-positive rate is now ([\d.e+-]+)", p.stderr)
        self.assertIsNotNone(m, p.stderr)
        self.assertEqual(number(m.group(1)), passed)
        self.assertGreater(number(m.group(2)), 0.01)

    def test_quiet_still_warns(self):
        lines = "".join(f"{i}\n" for i in range(100))
        p = self.run_bloom("dedup", "--kind", "classic", "-n", "10", "-q", input=lines, check=3)
        self.assertIn("past its capacity", p.stderr)

    def test_repeats_do_not_count_toward_the_capacity(self):
        # 50 distinct lines, each 20 times: 1,000 lines, never past -n 100.
        lines = "".join(f"{i % 50}\n" for i in range(1000))
        p = self.run_bloom("dedup", "--kind", "classic", "-n", "100", "-p", "1e-6", input=lines, check=0)
        self.assertEqual(len(p.stdout.splitlines()), 50)
        self.assertNotIn("capacity", p.stderr)

    def test_resumed_full_filter_warns_at_the_start(self):
        f = self.path("seen.bloom")
        self.run_bloom("dedup", "--kind", "classic", "-n", "2", "--save", f, input="a\nb\nc\n", check=3)
        p = self.run_bloom("dedup", "--kind", "classic", "-n", "2", "--resume", f, input="a\n", check=3)
        self.assertIn("the resumed filter already holds 3 distinct lines, past its capacity of 2", p.stderr)

    def test_scalable_default_grows_and_exits_0(self):
        lines = "".join(f"{i}\n" for i in range(20000))
        p = self.run_bloom("dedup", "-n", "1000", input=lines, check=0)
        self.assertGreaterEqual(len(p.stdout.splitlines()), 19800)


class BuildCapacityTest(CliTestCase):
    def test_warning_agrees_with_stats(self):
        f = self.path("w.bloom")
        keys = "".join(f"word{i}\n" for i in range(100000))
        p = self.run_bloom("build", "-n", "1000", "-o", f, input=keys, check=3)
        self.assertIn("key 1,001 is past the capacity of 1,000", p.stderr)
        m = re.search(r"expected false-positive rate is ([\d.e+-]+), not the p = 0.01", p.stderr)
        self.assertIsNotNone(m, p.stderr)
        info = self.stats(f)  # the file is written all the same
        self.assertEqual(info["keys_added"], 100000)
        self.assertAlmostEqual(number(m.group(1)), info["expected_fp_rate"], places=3)

    def test_moderate_overflow_reports_the_estimate(self):
        f = self.path("w.bloom")
        keys = "".join(f"word{i}\n" for i in range(3000))
        p = self.run_bloom("build", "-n", "1000", "-o", f, "-q", input=keys, check=3)
        m = re.search(r"3,000 keys \(about ([\d,]+) distinct, estimated from the fill\).*"
                      r"expected false-positive rate is ([\d.e+-]+)", p.stderr)
        self.assertIsNotNone(m, p.stderr)
        info = self.stats(f)
        self.assertAlmostEqual(number(m.group(1)), round(info["estimated_keys"]))
        self.assertAlmostEqual(number(m.group(2)) / info["expected_fp_rate"], 1, places=3)

    def test_repeats_past_the_capacity_stay_within_p(self):
        # 2,000 keys, 500 distinct, -n 1000: past -n by count, within p by fill.
        f = self.path("r.bloom")
        keys = "".join(f"k{i % 500}\n" for i in range(2000))
        p = self.run_bloom("build", "-n", "1000", "-o", f, input=keys, check=0)
        self.assertIn("the keys past the capacity were mostly repeats", p.stderr)
        self.assertLess(self.stats(f)["expected_fp_rate"], 0.01)

    def test_without_n_the_capacity_is_the_keys_read(self):
        f = self.path("c.bloom")
        keys = "".join(f"k{i}\n" for i in range(5000))
        p = self.run_bloom("build", "-o", f, input=keys, check=0)
        self.assertNotIn("capacity", p.stderr.replace("sized for", ""))

    def test_growing_kind_is_not_over_capacity(self):
        f = self.path("s.bloom")
        keys = "".join(f"k{i}\n" for i in range(5000))
        self.run_bloom("build", "--kind", "scalable", "-n", "100", "-o", f, input=keys, check=0)

    def test_then_query_over_capacity_exits_3(self):
        keys = self.write("k.txt", "".join(f"k{i}\n" for i in range(500)))
        p = self.run_bloom("build", keys, "-n", "10", "--then-query", "-", input="k1\nk2\n", check=3)
        self.assertEqual(len(p.stdout.splitlines()), 2)


if __name__ == "__main__":
    unittest.main()
