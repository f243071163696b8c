# SPDX-License-Identifier: Apache-2.0
"""--literal: every line is a key as written (no '?P' rate header, no ':Q',
blank lines are the empty key), for build, query, build --then-query,
remove and dedup; and the default conventions beside it."""

import unittest

from cli_support import CliTestCase

SPECIAL = "?id=5\n:Q\nplain\n"


class LiteralTest(CliTestCase):
    def test_build_and_query_take_every_line_as_a_key(self):
        keys = self.write("keys.txt", SPECIAL)
        f = self.path("k.bloom")
        self.build("--literal", keys, "-o", f, "-q")
        self.assertEqual(self.stats(f)["keys_added"], 3)
        p = self.run_bloom("query", "--literal", f, "--file", keys, check=0)
        self.assertEqual(self.answers(p.stdout), [("?id=5", "maybe"), (":Q", "maybe"), ("plain", "maybe")])
        # From standard input too: ':Q' does not end the queries.
        p = self.run_bloom("query", "--literal", f, input=":Q\nplain\n", check=0)
        self.assertEqual(self.answers(p.stdout), [(":Q", "maybe"), ("plain", "maybe")])

    def test_default_refuses_a_url_first_line_and_names_literal(self):
        keys = self.write("keys.txt", SPECIAL)
        p = self.run_bloom("build", keys, "-o", self.path("k.bloom"))
        self.assert_one_line_error(p, "'?id=5' is not a rate header", "--literal")

    def test_rate_header_line_is_a_key_with_literal(self):
        keys = self.write("keys.txt", "?5\nalpha\n")
        f = self.path("k.bloom")
        self.build("--literal", keys, "-o", f, "-q")
        info = self.stats(f)
        self.assertEqual(info["keys_added"], 2)
        self.assertAlmostEqual(info["fp_rate"], 0.01)  # not 5%: the line is a key
        p = self.run_bloom("query", "--literal", f, "--file", keys, check=0)
        self.assertEqual(self.answers(p.stdout), [("?5", "maybe"), ("alpha", "maybe")])
        # Without --literal the same file's first line is a header: 1 key, p = 5%.
        g = self.path("h.bloom")
        self.build(keys, "-o", g, "-q")
        self.assertEqual((self.stats(g)["keys_added"], self.stats(g)["fp_rate"]), (1, 0.05))

    def test_default_query_stops_at_colon_q(self):
        f = self.path("k.bloom")
        self.build("--literal", "-o", f, "-q", input=SPECIAL)
        p = self.run_bloom("query", f, input="plain\n:Q\n?id=5\n", check=0)
        self.assertEqual(self.answers(p.stdout), [("plain", "maybe")])

    def test_blank_line_is_the_empty_key(self):
        f = self.path("k.bloom")
        self.build("--literal", "-o", f, "-q", input="a\n\nb\n")
        self.assertEqual(self.stats(f)["keys_added"], 3)
        g = self.path("d.bloom")
        self.build("-o", g, "-q", input="a\n\nb\n")
        self.assertEqual(self.stats(g)["keys_added"], 2)

    def test_then_query_is_literal_too(self):
        keys = self.write("keys.txt", SPECIAL)
        p = self.run_bloom("build", "--literal", keys, "--then-query", "-", "-q", input=":Q\nplain\nnope\n", check=1)
        self.assertEqual(self.answers(p.stdout), [(":Q", "maybe"), ("plain", "maybe"), ("nope", "no")])

    def test_remove_literal(self):
        f = self.path("c.bloom")
        self.build("--literal", "--kind", "counting", "-o", f, "-q", input=SPECIAL)
        keys = self.write("gone.txt", SPECIAL)
        p = self.run_bloom("remove", f, "--literal", "--file", keys, check=0)
        self.assertEqual(self.answers(p.stdout), [("?id=5", "removed"), (":Q", "removed"), ("plain", "removed")])
        self.assertEqual(self.stats(f)["keys_added"], 0)

    def test_dedup_accepts_literal_and_reads_lines_as_written(self):
        p = self.run_bloom("dedup", "--literal", "-p", "1e-6", input="?id=5\n:Q\n:Q\nplain\n?id=5\n", check=0)
        self.assertEqual(p.stdout, "?id=5\n:Q\nplain\n")

    def test_literal_refuses_sequences(self):
        p = self.run_bloom("build", "--literal", "--fasta", "-o", self.path("x.bloom"), input=">a\nACGT\n")
        self.assert_one_line_error(p, "--literal applies to keys one per line")


if __name__ == "__main__":
    unittest.main()
