# SPDX-License-Identifier: Apache-2.0
"""bloom merge: the union finds every key of every input; mismatched filters
are refused with the name of the parameter that differs."""

import unittest

from cli_support import CliTestCase, random_keys


class MergeTest(CliTestCase):
    def build_keys(self, name, keys, *extra):
        f = self.path(name)
        self.build("-o", f, "-n", "20000", "-p", "0.001", *extra, input="\n".join(keys) + "\n")
        return f

    def test_union_finds_all_keys(self):
        a_keys = random_keys(5000, seed=10, prefix="a")
        b_keys = random_keys(5000, seed=11, prefix="b")
        a = self.build_keys("a.bloom", a_keys)
        b = self.build_keys("b.bloom", b_keys)
        out = self.path("ab.bloom")
        self.run_bloom("merge", a, b, "-o", out, check=0)
        p = self.run_bloom("query", out, input="\n".join(a_keys + b_keys) + "\n", check=0)
        self.assertEqual(p.stdout.count("\tmaybe\n"), 10000)
        self.assertEqual(self.stats(out)["keys_added"], 10000)
        self.assertEqual(self.stats(out)["format"], "1.2")

    def test_stats_reports_the_file_format(self):
        # A blocked filter is written as format 1.1 (its in-line layout 2).
        f = self.build_keys("blocked.bloom", ["x", "y"], "--kind", "blocked")
        self.assertEqual(self.stats(f)["format"], "1.1")
        self.assertIn("file format        1.1", self.run_bloom("stats", f, check=0).stdout)

    def test_intersect_keeps_common_keys(self):
        common = random_keys(1000, seed=12, prefix="c")
        a = self.build_keys("a.bloom", common + random_keys(1000, seed=13, prefix="x"))
        b = self.build_keys("b.bloom", common + random_keys(1000, seed=14, prefix="y"))
        out = self.path("i.bloom")
        self.run_bloom("merge", "--intersect", a, b, "-o", out, check=0)
        p = self.run_bloom("query", out, input="\n".join(common) + "\n", check=0)
        self.assertEqual(p.stdout.count("\tmaybe\n"), 1000)

    def test_mismatches_name_the_parameter(self):
        keys = ["k1", "k2"]
        base = self.build_keys("base.bloom", keys)
        cases = [
            (("--seed", "7"), "seed"),
            (("--hash", "fnv1a"), "hash"),
            (("-p", "0.01"), "bits (m)"),  # same n, other p: another m
        ]
        for extra, parameter in cases:
            with self.subTest(parameter=parameter):
                other = self.build_keys("other.bloom", keys, *extra)
                out = self.path("out.bloom")
                p = self.run_bloom("merge", base, other, "-o", out)
                self.assert_one_line_error(p, parameter, "differs", "other.bloom")
                with self.assertRaises(FileNotFoundError):
                    open(out, "rb")  # nothing written on failure

    def test_merge_needs_two_filters_and_an_output(self):
        a = self.build_keys("a.bloom", ["x"])
        self.assert_one_line_error(self.run_bloom("merge", a, "-o", self.path("o.bloom")), "at least two")
        self.assert_one_line_error(self.run_bloom("merge", a, a), "-o")
        p = self.run_bloom("merge", a, self.data("not_a_filter.txt"), "-o", self.path("o.bloom"))
        self.assert_one_line_error(p, "not_a_filter.txt", "not a bloom filter")


if __name__ == "__main__":
    unittest.main()
