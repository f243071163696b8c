# SPDX-License-Identifier: Apache-2.0
"""FASTA/FASTQ input: multi-line records, lowercase and N bases, k-mers
(canonical by default), per-read query lines, gzip."""

import gzip
import unittest

from cli_support import CliTestCase


class SequenceTest(CliTestCase):
    def test_kmer_count_on_a_known_sequence(self):
        # data/reads.fa, k = 5, counted by hand:
        #   read1 = ACGTACGTAC + gtNacgtAC = ACGTACGTACGT N ACGTAC (case ignored)
        #           12 valid bases -> 12-5+1 = 8 k-mers; then 6 -> 2; the N breaks both: 10
        #   read2 = aaaacccc + ggggtttt: 16 bases -> 12
        #   read3 = NNNNNNNN: 0
        f = self.path("k.bloom")
        self.build("--fasta", "--kmer", "5", self.data("reads.fa"), "-o", f)
        self.assertEqual(self.stats(f)["keys_added"], 10 + 12 + 0)
        p = self.run_bloom("query", f, "--fasta", "--kmer", "5", "--file", self.data("reads.fa"), check=0)
        self.assertEqual(p.stdout, "read1\t10/10\nread2\t12/12\nread3\t0/0\n")

    def test_canonical_kmers_match_the_reverse_complement(self):
        f = self.path("c.bloom")
        # AACCG (k = 5) has reverse complement CGGTT.
        self.build("--fasta", "--kmer", "5", "-p", "0.000001", "-o", f, input=">x\nAACCG\n")
        p = self.run_bloom("query", f, "--fasta", "--kmer", "5", input=">rc\ncggtt\n", check=0)
        self.assertEqual(p.stdout, "rc\t1/1\n")
        # the stored key is the smaller string, so querying it as a plain key works
        self.run_bloom("query", f, "AACCG", check=0)
        # --no-canonical stores k-mers as read: the reverse complement is absent
        g = self.path("n.bloom")
        self.build("--fasta", "--kmer", "5", "--no-canonical", "-p", "0.000001", "-o", g, input=">x\nAACCG\n")
        p = self.run_bloom("query", g, "--fasta", "--kmer", "5", "--no-canonical", input=">rc\nCGGTT\n", check=1)
        self.assertEqual(p.stdout, "rc\t0/1\n")
        p = self.run_bloom("query", g, "--fasta", "--kmer", "5", "--no-canonical", input=">fw\nAACCG\n", check=0)
        self.assertEqual(p.stdout, "fw\t1/1\n")

    def test_whole_fasta_records_as_keys(self):
        f = self.path("s.bloom")
        self.build("-f", self.data("reads.fa"), "-o", f, "-p", "0.000001")
        # read3 (all N) is a key too: whole sequences are not filtered for ACGT
        self.assertEqual(self.stats(f)["keys_added"], 3)
        # lines are joined and case is ignored
        self.run_bloom("query", f, "ACGTACGTACGTNACGTAC", "AAAACCCCGGGGTTTT", check=0)
        p = self.run_bloom("query", f, "--fasta", "--file", self.data("reads.fa"), check=0)
        self.assertEqual(p.stdout, "read1\tmaybe\nread2\tmaybe\nread3\tmaybe\n")
        p = self.run_bloom("query", f, "--fasta", input=">new\nACGT\n", check=1)
        self.assertEqual(p.stdout, "new\tno\n")

    def test_fastq_multiline_with_at_sign_quality_line(self):
        # r1: ACGTN + acgt = 9 bases, 9 quality characters over two lines, the
        # second beginning with '@'. k = 3: ACGT -> 2 k-mers, ACGT -> 2: 4.
        # r2: GGGG -> 2 k-mers. 6 in all.
        f = self.path("q.bloom")
        self.build("--fastq", "--kmer", "3", self.data("reads.fq"), "-o", f)
        self.assertEqual(self.stats(f)["keys_added"], 6)
        p = self.run_bloom("query", f, "--fastq", "--kmer", "3", "--file", self.data("reads.fq"), check=0)
        self.assertEqual(p.stdout, "r1\t4/4\nr2\t2/2\n")

    def test_gzip_fasta(self):
        gz = self.write("reads.fa.gz", gzip.compress(open(self.data("reads.fa"), "rb").read()))
        f = self.path("g.bloom")
        self.build("--fasta", "--kmer", "5", gz, "-o", f)
        self.assertEqual(self.stats(f)["keys_added"], 22)
        p = self.run_bloom("query", f, "--fasta", "--kmer", "5", "--file", gz, check=0)
        self.assertEqual(p.stdout, "read1\t10/10\nread2\t12/12\nread3\t0/0\n")

    def test_kmer31_build_and_per_read_query(self):
        # Issue 5 acceptance: --fasta --kmer 31 build, per-read query lines.
        import random
        rng = random.Random(31)
        genome = "".join(rng.choice("ACGT") for _ in range(5000))
        fasta = ">chr\n" + "\n".join(genome[i:i + 60] for i in range(0, len(genome), 60)) + "\n"
        f = self.path("genome.bloom")
        self.build("--fasta", "--kmer", "31", "-o", f, "-p", "0.0001", input=fasta)
        self.assertEqual(self.stats(f)["keys_added"], 5000 - 31 + 1)
        inside = genome[100:250]                       # 150 bases: 120 k-mers, all present
        outside = "".join(rng.choice("ACGT") for _ in range(150))
        rc = inside[::-1].translate(str.maketrans("ACGT", "TGCA"))
        reads = f">in\n{inside}\n>out\n{outside}\n>rc\n{rc.lower()}\n"
        p = self.run_bloom("query", f, "--fasta", "--kmer", "31", input=reads, check=1)
        lines = p.stdout.splitlines()
        self.assertEqual(lines[0], "in\t120/120")
        self.assertEqual(lines[2], "rc\t120/120")
        name, frac = lines[1].split("\t")
        hits, total = map(int, frac.split("/"))
        self.assertEqual((name, total), ("out", 120))
        # p = 10^-4 per k-mer: more than 5 false hits out of 120 would be absurd
        self.assertLessEqual(hits, 5)

    def test_not_fasta_and_truncated_fastq_are_errors(self):
        p = self.run_bloom("build", "--fasta", self.data("keys_rate5.txt"), "-o", self.path("x.bloom"))
        self.assert_one_line_error(p, "keys_rate5.txt:1", "not FASTA")
        bad = self.write("bad.fq", "@r\nACGT\n+\nII\n")
        p = self.run_bloom("build", "--fastq", bad, "-o", self.path("x.bloom"))
        self.assert_one_line_error(p, "bad.fq", "truncated FASTQ")
        p = self.run_bloom("build", "--kmer", "5", "-o", self.path("x.bloom"), input="ACGT\n")
        self.assert_one_line_error(p, "--kmer needs --fasta or --fastq")


if __name__ == "__main__":
    unittest.main()
