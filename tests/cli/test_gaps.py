# SPDX-License-Identifier: Apache-2.0
"""The tool's answers to issue 21's gaps: `remove` for counting filters,
--growth/--tightening for scalable ones, `build --then-query` (seed 000's
build-and-ask in one command), every output path checked before any input
is read, and a union that says when its rate went above p."""

import os
import subprocess
import unittest

from cli_support import CliTestCase, random_keys


class RemoveTest(CliTestCase):
    def counting(self, keys):
        f = self.path("c.bloom")
        self.build("-o", f, "--kind", "counting", "-n", "1000", "-p", "0.001",
                   input="\n".join(keys) + "\n")
        return f

    def test_removed_keys_answer_no_and_the_rest_stay(self):
        keys = random_keys(200, seed=1)
        f = self.counting(keys)
        p = self.run_bloom("remove", f, keys[0], keys[1], check=0)
        self.assertEqual(self.answers(p.stdout), [(keys[0], "removed"), (keys[1], "removed")])
        q = self.run_bloom("query", f, *keys[:2], check=1)
        self.assertEqual(self.answers(q.stdout), [(keys[0], "no"), (keys[1], "no")])
        # No false negative for what was not removed.
        self.run_bloom("query", f, "--file", self.write("rest.txt", "\n".join(keys[2:]) + "\n"), check=0)
        self.assertEqual(self.stats(f)["keys_added"], 198)

    def test_a_key_never_added_is_reported_and_left_alone(self):
        keys = random_keys(50, seed=2)
        f = self.counting(keys)
        before = open(f, "rb").read()
        p = self.run_bloom("remove", f, "never-added-key", check=1)
        self.assertEqual(self.answers(p.stdout), [("never-added-key", "not present")])
        self.assertEqual(open(f, "rb").read(), before)

    def test_keys_from_a_file_and_another_output(self):
        keys = random_keys(100, seed=3)
        f = self.counting(keys)
        out = self.path("out.bloom")
        self.run_bloom("remove", f, "--file", self.write("rm.txt", "\n".join(keys[:40]) + "\n"),
                       "-o", out, "-q", check=0)
        self.assertEqual(self.stats(out)["keys_added"], 60)
        self.assertEqual(self.stats(f)["keys_added"], 100)  # the input is untouched

    def test_only_counting_filters(self):
        f = self.path("classic.bloom")
        self.build("-o", f, input="a\nb\n")
        p = self.run_bloom("remove", f, "a", check=2)
        self.assert_one_line_error(p, "counting")


class SplitBlockOptionTest(CliTestCase):
    def test_split_block_reaches_the_filter(self):
        f = self.path("b.bloom")
        keys = random_keys(3000, seed=5)
        self.build("-o", f, "--kind", "blocked", "--split-block", "-n", "3000", "-p", "0.001",
                   input="\n".join(keys) + "\n")
        s = self.stats(f)
        self.assertEqual(s["hashes"], 8)
        self.assertEqual(s["format"], "1.4")
        self.assertIn("split-block", self.run_bloom("stats", f, check=0).stdout)
        self.run_bloom("query", f, "--file", self.write("k.txt", "\n".join(keys) + "\n"), check=0)

    def test_refused_for_other_kinds(self):
        p = self.run_bloom("build", "-o", self.path("x.bloom"), "--split-block", input="a\n", check=2)
        self.assert_one_line_error(p, "--split-block", "blocked")


class ScalableOptionsTest(CliTestCase):
    def test_growth_and_tightening_reach_the_filter(self):
        f = self.path("s.bloom")
        keys = random_keys(3000, seed=4)
        self.build("-o", f, "--kind", "scalable", "-n", "100", "--growth", "3", "--tightening", "0.9",
                   input="\n".join(keys) + "\n")
        s = self.stats(f)
        self.assertEqual(s["growth"], 3)
        self.assertEqual(s["tightening"], 0.9)
        self.run_bloom("query", f, "--file", self.write("k.txt", "\n".join(keys) + "\n"), check=0)

    def test_refused_for_other_kinds_and_bad_values(self):
        p = self.run_bloom("build", "-o", self.path("x.bloom"), "--growth", "2", input="a\n", check=2)
        self.assert_one_line_error(p, "--growth", "scalable")
        for value in ("0", "-1", "abc", "1e999", ""):
            p = self.run_bloom("build", "-o", self.path("x.bloom"), "--kind", "scalable", "--tightening", value,
                               input="a\n")
            self.assertEqual(p.returncode, 2, value)
        p = self.run_bloom("build", "-o", self.path("x.bloom"), "--kind", "scalable", "--tightening", "1.5",
                           input="a\n", check=2)
        self.assertIn("tightening", p.stderr)


class ThenQueryTest(CliTestCase):
    def test_build_and_answer_in_one_command(self):
        keys = random_keys(500, seed=5)
        others = random_keys(20, seed=6, prefix="zz")
        kf = self.write("keys.txt", "\n".join(keys) + "\n")
        qf = self.write("queries.txt", "\n".join(keys[:10] + others) + "\n")
        p = self.run_bloom("build", kf, "--then-query", qf, "-p", "0.0001", "-q", check=1)
        answers = self.answers(p.stdout)
        self.assertEqual(answers[:10], [(k, "maybe") for k in keys[:10]])
        self.assertEqual([k for k, _ in answers[10:]], others)
        self.assertFalse(os.listdir(self.tmp) != ["keys.txt", "queries.txt"], os.listdir(self.tmp))

    def test_queries_from_standard_input_and_a_saved_filter(self):
        keys = random_keys(100, seed=7)
        kf = self.write("keys.txt", "\n".join(keys) + "\n")
        out = self.path("k.bloom")
        p = self.run_bloom("build", kf, "-o", out, "--then-query", "-", "-q", input=keys[0] + "\n:Q\n", check=0)
        self.assertEqual(self.answers(p.stdout), [(keys[0], "maybe")])
        self.assertTrue(os.path.exists(out))

    def test_keys_and_queries_cannot_both_be_standard_input(self):
        p = self.run_bloom("build", "--then-query", "-", input="a\n", check=2)
        self.assert_one_line_error(p, "standard input")


class OutputPathTest(CliTestCase):
    """A bad output path is refused before a single line is read: a reader
    that never ends proves it (the tool would block on it otherwise)."""

    def refuses_before_reading(self, args, *fragments):
        # stdin stays open and empty: a tool that reads first blocks until the timeout.
        r, w = os.pipe()
        proc = subprocess.Popen([self.bloom, *args], stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.close(r)
        try:
            _, err = proc.communicate(timeout=20)
        finally:
            os.close(w)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        self.assertEqual(proc.returncode, 2, err)
        err = err.decode()
        for fragment in fragments:
            self.assertIn(fragment, err)

    def test_dedup_save_to_a_directory(self):
        self.refuses_before_reading(["dedup", "--save", self.tmp], "--save", "directory")

    def test_build_into_a_missing_directory(self):
        self.refuses_before_reading(["build", "-o", self.path("no/such/dir/f.bloom")], "does not exist")

    def test_build_onto_a_directory(self):
        self.refuses_before_reading(["build", "-o", self.tmp], "directory")

    def test_merge_onto_a_directory(self):
        a = self.path("a.bloom")
        self.build("-o", a, input="x\n")
        p = self.run_bloom("merge", a, a, "-o", self.tmp, check=2)
        self.assert_one_line_error(p, "directory")


class MergeRateTest(CliTestCase):
    def test_a_union_over_its_rate_says_so(self):
        # Two scalable halves with small first stages: stage-wise OR puts
        # twice the keys in each stage (issue 21: 0.127 for p = 0.01).
        halves = [random_keys(4000, seed=8, prefix="a"), random_keys(4000, seed=9, prefix="b")]
        files = []
        for i, keys in enumerate(halves):
            files.append(self.path(f"h{i}.bloom"))
            self.build("-o", files[-1], "--kind", "scalable", "-n", "400", "-p", "0.01",
                       input="\n".join(keys) + "\n")
        out = self.path("u.bloom")
        p = self.run_bloom("merge", *files, "-o", out, "-q", check=0)
        self.assertIn("warning", p.stderr)
        self.assertIn("above the p = 0.01", p.stderr)
        expected = self.stats(out)["expected_fp_rate"]
        self.assertGreater(expected, 0.01)
        # The warning's number is the truth: measured on fresh keys.
        probes = random_keys(20000, seed=10, prefix="q")
        q = self.run_bloom("query", out, "--file", self.write("q.txt", "\n".join(probes) + "\n"))
        measured = q.stdout.count("\tmaybe\n") / len(probes)
        self.assertGreater(measured, 0.01)
        self.assertLess(abs(measured - expected), 0.5 * expected)

    def test_a_union_within_its_rate_is_quiet(self):
        files = []
        for i in range(2):
            files.append(self.path(f"s{i}.bloom"))
            self.build("-o", files[-1], "-n", "10000", "-p", "0.01",
                       input="\n".join(random_keys(1000, seed=20 + i)) + "\n")
        p = self.run_bloom("merge", *files, "-o", self.path("m.bloom"), "-q", check=0)
        self.assertEqual(p.stderr, "")


if __name__ == "__main__":
    unittest.main()
