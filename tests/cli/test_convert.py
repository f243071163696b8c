# SPDX-License-Identifier: Apache-2.0
"""bloom convert: other libraries' filter files to bloom files and back,
byte for byte; a filter built with another library's hash exports to what
that library writes; wrong formats are refused with one line."""

import os
import unittest

from cli_support import CliTestCase

HERE = os.path.dirname(os.path.abspath(__file__))
PARQUET = os.path.join(HERE, "..", "interop", "parquet", "bloom_filter.xxhash.bin")


class ConvertTest(CliTestCase):
    def test_parquet_round_trip(self):
        out = self.path("p.bloom")
        self.run_bloom("convert", "--from", "parquet", PARQUET, "-o", out, "-q", check=0)
        p = self.run_bloom("query", out, "hello", "parquet", "bloom", "filter", check=0)
        self.assertEqual([a for _, a in self.answers(p.stdout)], ["maybe"] * 4)
        stats = self.stats(out)
        self.assertEqual(stats["hash"], "parquet")
        back = self.path("p.bin")
        self.run_bloom("convert", "--to", "parquet", out, "-o", back, "-q", check=0)
        with open(PARQUET, "rb") as a, open(back, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_parquet_file_column(self):
        data = os.path.join(HERE, "..", "interop", "parquet", "data_index_bloom_encoding_stats.parquet")
        out = self.path("c.bloom")
        self.run_bloom("convert", "--from", "parquet", "--column", "String", data, "-o", out, "-q", check=0)
        p = self.run_bloom("query", out, "Hello", "today", check=0)
        self.assertEqual([a for _, a in self.answers(p.stdout)], ["maybe"] * 2)
        p = self.run_bloom("convert", "--from", "parquet", "--column", "Other", data, "-o", out)
        self.assert_one_line_error(p, "no column 'Other'", "columns: String")

    def test_build_with_a_foreign_hash_exports(self):
        # Guava 31.1: create(stringFunnel(UTF_8), 10, 0.01) + "hello",
        # "parquet", "ключ", then writeTo.
        f = self.path("g.bloom")
        self.build("-o", f, "-n", "10", "-p", "0.01", "--hash", "guava", input="hello\nparquet\nключ\n")
        out = self.path("g.bin")
        self.run_bloom("convert", "--to", "guava", f, "-o", out, "-q", check=0)
        with open(out, "rb") as g:
            self.assertEqual(g.read().hex(), "01070000000200140082090040848060006012102009")

    def test_refusals(self):
        f = self.path("x.bloom")
        self.build("-o", f, "-n", "10", input="a\n")
        p = self.run_bloom("convert", "--to", "guava", f, "-o", self.path("x.bin"))
        self.assert_one_line_error(p, "guava hash")
        p = self.run_bloom("convert", "--from", "guava", PARQUET, "-o", self.path("y.bloom"))
        self.assert_one_line_error(p, "not a Guava filter")
        self.assertFalse(os.path.exists(self.path("y.bloom")))
        p = self.run_bloom("convert", "--from", "avro", PARQUET, "-o", self.path("y.bloom"))
        self.assert_one_line_error(p, "unknown format")
        p = self.run_bloom("convert", "--from", "guava", "--to", "guava", PARQUET, "-o", self.path("y.bloom"))
        self.assert_one_line_error(p, "exactly one")


if __name__ == "__main__":
    unittest.main()
