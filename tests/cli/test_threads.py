# SPDX-License-Identifier: Apache-2.0
"""bloom build --threads N: the file is byte for byte the single-thread
one, for every kind, both ways of sharing the work, any N and any input."""

import gzip
import os
import unittest

from cli_support import CliTestCase, random_keys

KINDS = ("classic", "partitioned", "blocked", "counting", "scalable")


class ThreadsTest(CliTestCase):
    def setUp(self):
        super().setUp()
        # 30,000 keys: several 8192-key chunks per thread, and repeats
        # (keys_added counts them, and counting filters count them twice).
        keys = random_keys(25000, seed=31)
        self.keys = self.write("keys.txt", "\n".join(keys + keys[:5000]) + "\n")

    def built(self, name, *args, env=None):
        out = self.path(name)
        old = dict(os.environ)
        try:
            os.environ.update(env or {})
            self.build(*args, "-o", out, "-q")
        finally:
            os.environ.clear()
            os.environ.update(old)
        with open(out, "rb") as f:
            return f.read()

    def test_every_kind_and_thread_count_writes_the_single_thread_bytes(self):
        for kind in KINDS:
            one = self.built(f"{kind}-1.bloom", self.keys, "--kind", kind, "--threads", "1")
            for strategy in ("per-thread", "shared"):
                for threads in ("2", "3", "8"):
                    with self.subTest(kind=kind, strategy=strategy, threads=threads):
                        many = self.built(f"{kind}-{strategy}-{threads}.bloom", self.keys, "--kind", kind,
                                          "-t", threads, env={"BLOOM_BUILD_STRATEGY": strategy})
                        self.assertEqual(many, one)
            with self.subTest(kind=kind, threads="default"):
                self.assertEqual(self.built(f"{kind}-d.bloom", self.keys, "--kind", kind), one)
        stats = self.stats(self.path("classic-per-thread-3.bloom"))
        self.assertEqual(stats["keys_added"], 30000)

    def test_inputs_rates_and_capacities(self):
        gz = self.path("keys.txt.gz")
        with open(self.keys, "rb") as src, gzip.open(gz, "wb") as dst:
            dst.write(src.read())
        other = self.write("other.txt", "?5\n" + "\n".join(random_keys(9000, seed=32)) + "\n")
        cases = [("two inputs, gzip", [gz, other]),
                 ("explicit -n and -p", [self.keys, "-n", "100000", "-p", "0.001"]),
                 ("header rate", [other]),
                 ("seed and hash", [self.keys, "--seed", "7", "--hash", "murmur3"])]
        for name, args in cases:
            with self.subTest(case=name):
                self.assertEqual(self.built("2.bloom", *args, "--threads", "2"),
                                 self.built("1.bloom", *args, "--threads", "1"))

    def test_standard_input_and_an_empty_input(self):
        with open(self.keys, "rb") as f:
            data = f.read()
        for content in (data, b""):
            with self.subTest(bytes=len(content)):
                outs = []
                for threads in ("1", "2"):
                    out = self.path(f"stdin-{threads}.bloom")
                    self.run_bloom("build", "-o", out, "-q", "--threads", threads, input=content, check=0)
                    with open(out, "rb") as f:
                        outs.append(f.read())
                self.assertEqual(outs[0], outs[1])

    def test_kmers(self):
        fasta = self.write("g.fa", ">a\n" + "ACGTTGCAAGGCTTAACCGGTTAAGGCCTTAA" * 400 + "\n>b\nACGTNACGTACGTACGT\n")
        self.assertEqual(self.built("k2.bloom", "--fasta", "--kmer", "21", fasta, "--threads", "2"),
                         self.built("k1.bloom", "--fasta", "--kmer", "21", fasta, "--threads", "1"))

    def test_bad_thread_counts_are_refused(self):
        for bad in ("0", "1025", "two", "-1", ""):
            with self.subTest(threads=bad):
                p = self.run_bloom("build", self.keys, "-o", self.path("x.bloom"), "--threads", bad)
                self.assert_one_line_error(p, "--threads")
        self.assertFalse(os.path.exists(self.path("x.bloom")))

    def test_an_unknown_strategy_is_refused(self):
        os.environ["BLOOM_BUILD_STRATEGY"] = "magic"
        try:
            p = self.run_bloom("build", self.keys, "-o", self.path("x.bloom"), "--threads", "2")
        finally:
            del os.environ["BLOOM_BUILD_STRATEGY"]
        self.assert_one_line_error(p, "BLOOM_BUILD_STRATEGY", "magic")


if __name__ == "__main__":
    unittest.main()
