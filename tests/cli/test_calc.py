# SPDX-License-Identifier: Apache-2.0
"""bloom calc against the seeds' formulas, computed here independently."""

import math
import re
import unittest

from cli_support import CliTestCase

LN2 = math.log(2)


def count(text):
    return int(text.replace(",", ""))


class CalcTest(CliTestCase):
    def check_rate(self, n, p):
        out = self.run_bloom("calc", "-n", str(n), "-p", str(p), check=0).stdout
        m_expected = math.ceil(n * abs(math.log(p)) / LN2 ** 2)
        k_expected = round(m_expected / n * LN2)
        m = re.search(r"^m = ([\d,]+) bits \(([\d.]+ [KMG]?B)\)$", out, re.M)
        self.assertIsNotNone(m, out)
        self.assertEqual(count(m.group(1)), m_expected)
        if m_expected >= 8e6:  # sizes of a megabyte and more are shown in MB
            self.assertEqual(m.group(2), f"{math.ceil(m_expected / 8) / 1e6:.2f} MB")
        self.assertEqual(int(re.search(r"^k = (\d+) hashes$", out, re.M).group(1)), k_expected)
        return out, m_expected, k_expected

    def test_seed_values_p_0_0001(self):
        out, m, k = self.check_rate(1000000, 0.0001)
        # The acceptance numbers of issue 5, stated literally as well.
        self.assertIn("m = 19,170,117 bits (2.40 MB)", out)
        self.assertEqual((m, k), (19170117, 13))

    def test_seed_values_p_0_01(self):
        out, m, k = self.check_rate(1000000, 0.01)
        self.assertEqual((m, k), (9585059, 7))
        self.assertIn("(1.20 MB)", out)

    def test_same_m_as_build_creates(self):
        out, m, k = self.check_rate(1000, 0.02)
        f = self.path("k.bloom")
        self.build("-o", f, "-n", "1000", "-p", "0.02", input="x\n")
        info = self.stats(f)
        self.assertEqual((info["bits"], info["hashes"]), (m, k))

    def test_bits_give_best_k_and_its_rate(self):
        n, m = 1000000, 8000000
        out = self.run_bloom("calc", "-n", "10^6", "-m", "8e6", check=0).stdout
        k = round(m / n * LN2)  # 5.545 -> 6
        p = (1 - math.exp(-k * n / m)) ** k
        self.assertEqual(int(re.search(r"^best k = (\d+) hashes", out, re.M).group(1)), k)
        got = float(re.search(r"^P at best k = (\S+)$", out, re.M).group(1))
        self.assertAlmostEqual(got, p, delta=p * 1e-3)  # printed to 4 significant digits
        out = self.run_bloom("calc", "-n", "1000000", "-m", "8000000", "-k", "3", check=0).stdout
        got = float(re.search(r"^P at k = 3 = (\S+)$", out, re.M).group(1))
        p3 = (1 - math.exp(-3 * n / m)) ** 3
        self.assertAlmostEqual(got, p3, delta=p3 * 1e-3)

    def test_bad_arguments(self):
        self.assert_one_line_error(self.run_bloom("calc", "-p", "0.01"), "-n")
        self.assert_one_line_error(self.run_bloom("calc", "-n", "100"), "-p", "-m")
        self.assert_one_line_error(self.run_bloom("calc", "-n", "100", "-p", "1.5"), "-p")
        self.assert_one_line_error(self.run_bloom("calc", "-n", "0", "-p", "0.1"), "-n")
        self.assert_one_line_error(self.run_bloom("calc", "-n", "ten", "-p", "0.1"), "ten")
        self.assert_one_line_error(self.run_bloom("calc", "-n", "10", "-p", "0.1", "-m", "100"), "exactly one")


def info_members():
    """The member names of bloom_info, from the header."""
    import os
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "bloom", "bloom.h")
    text = open(header, encoding="utf-8").read()
    body = text[text.index("typedef struct bloom_info {"):text.index("} bloom_info;")]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    return set(re.findall(r"\b([a-z_0-9]+);", body))


class CalcKindTest(CliTestCase):
    """--kind: the filter build creates, whatever the kind; --json with the
    field names (and values) of stats --json."""

    def kinds(self):
        kinds = self.run_bloom("--list", "kinds", check=0).stdout.split()
        self.assertIn("window", kinds)
        return kinds

    def calc_json(self, *args):
        import json
        return json.loads(self.run_bloom("calc", *args, "--json", check=0).stdout)

    def check_same_as_build(self, *options):
        calc = self.calc_json("-n", "5000", "-p", "0.001", *options)
        f = self.path("empty.bloom")
        self.build("-n", "5000", "-p", "0.001", *options, "-o", f, "-q", input="")
        stats = self.stats(f)
        members = info_members() | {"format"}
        for key, value in calc.items():
            # A field stats lacks must still be bloom_info's member name.
            self.assertIn(key, members, f"calc --json field {key} is not a bloom_info member")
            if key in stats:
                self.assertEqual(value, stats[key], f"{key} for {options}")
        self.assertGreater(len(set(calc) & set(stats)), 10)
        return calc

    def test_every_kind_matches_build(self):
        sizes = {}
        for kind in self.kinds():
            with self.subTest(kind=kind):
                sizes[kind] = self.check_same_as_build("--kind", kind)["bytes"]
        # What a user asks calc for: the memory of each kind at one (n, p).
        self.assertGreater(sizes["counting"], 3 * sizes["classic"])
        self.assertGreater(sizes["blocked"], sizes["classic"])

    def test_kind_options(self):
        self.check_same_as_build("--kind", "scalable", "--growth", "4", "--tightening", "0.5")
        calc = self.check_same_as_build("--kind", "blocked", "--split-block")
        self.assertEqual((calc["flags"], calc["hashes"]), ("split-block", 8))
        self.check_same_as_build("--hash", "redisbloom")

    def test_blocked_text(self):
        out = self.run_bloom("calc", "-n", "1e6", "-p", "1e-4", "--kind", "blocked", check=0).stdout
        calc = self.calc_json("-n", "1e6", "-p", "1e-4", "--kind", "blocked")
        self.assertIn("kind = blocked, n = 1,000,000 keys, p = 0.0001", out)
        self.assertEqual(count(re.search(r"^m = ([\d,]+) bits", out, re.M).group(1)), calc["bits"])
        self.assertEqual(count(re.search(r"^bytes = ([\d,]+)$", out, re.M).group(1)), calc["bytes"])

    def test_window_fields(self):
        calc = self.calc_json("-n", "1e6", "-p", "1e-4", "--kind", "window")
        self.assertEqual(calc["bits"], (calc["window_k"] + calc["window_l"]) * calc["slice_bits"])

    def test_bits_mode_is_classic_only(self):
        p = self.run_bloom("calc", "-n", "1e6", "-m", "8e6", "--kind", "blocked")
        self.assert_one_line_error(p, "-m sizes a classic filter")
        calc = self.calc_json("-n", "1e6", "-m", "8e6")
        self.assertEqual((calc["bits"], calc["hashes"], calc["capacity"]), (8000000, 6, 1000000))

    def test_unknown_kind_lists_the_library_kinds(self):
        p = self.run_bloom("calc", "-n", "10", "-p", "0.1", "--kind", "nope")
        self.assert_one_line_error(p, ", ".join(self.kinds()))


if __name__ == "__main__":
    unittest.main()
