# SPDX-License-Identifier: Apache-2.0
"""Errors: one clear line on stderr, exit status 2; bad filter files are
refused with the library's message; help and version."""

import gzip
import os
import subprocess
import unittest

from cli_support import CliTestCase

COMMANDS = ("build", "query", "stats", "merge", "calc", "dedup")


class ErrorTest(CliTestCase):
    def good_filter(self):
        f = self.path("good.bloom")
        self.build("-o", f, input="a\nb\nc\n")
        return f

    def test_non_filter_file(self):
        p = self.run_bloom("query", self.data("not_a_filter.txt"), "key")
        self.assert_one_line_error(p, "not_a_filter.txt", "not a bloom filter")
        p = self.run_bloom("stats", self.data("not_a_filter.txt"))
        self.assert_one_line_error(p, "not_a_filter.txt", "not a bloom filter")

    def test_corrupt_payload_and_header(self):
        with open(self.good_filter(), "rb") as fh:
            good = fh.read()
        # A flipped bit in the payload (after the 128-byte header): checksum.
        bad = bytearray(good)
        bad[140] ^= 0x01
        f = self.write("payload.bloom", bytes(bad))
        self.assert_one_line_error(self.run_bloom("query", f, "a"), "payload.bloom", "checksum")
        bad = bytearray(good)
        bad[20] ^= 0x40
        f = self.write("header.bloom", bytes(bad))
        p = self.run_bloom("stats", f)
        self.assert_one_line_error(p, "header.bloom")
        f = self.write("short.bloom", good[:100])
        self.assert_one_line_error(self.run_bloom("query", f, "a"), "short.bloom")
        f = self.write("zero.bloom", b"")
        self.assert_one_line_error(self.run_bloom("query", f, "a"), "zero.bloom")

    def test_missing_files_and_directories(self):
        self.assert_one_line_error(self.run_bloom("stats", self.path("none.bloom")), "none.bloom")
        p = self.run_bloom("build", self.path("none.txt"), "-o", self.path("x.bloom"))
        self.assert_one_line_error(p, "none.txt", "No such file")
        p = self.run_bloom("build", self.tmp, "-o", self.path("x.bloom"))
        self.assert_one_line_error(p, "directory")
        p = self.run_bloom("build", "-o", os.path.join(self.tmp, "no", "dir", "x.bloom"), input="a\n")
        # Refused before the input is read (issue 21), so by the tool's own check.
        self.assert_one_line_error(p, "cannot write the filter", "does not exist")

    def test_bad_gzip(self):
        data = gzip.compress(b"".join(b"key%d\n" % i for i in range(20000)))
        f = self.write("trunc.gz", data[: len(data) // 2])
        self.assert_one_line_error(self.run_bloom("build", f, "-o", self.path("x.bloom")), "trunc.gz", "truncated gzip")
        bad = bytearray(data)
        bad[len(bad) // 2] ^= 0xFF
        bad[len(bad) // 2 + 1] ^= 0xFF
        f = self.write("corrupt.gz", bytes(bad))
        p = self.run_bloom("build", f, "-o", self.path("x.bloom"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("corrupt.gz", p.stderr)

    def test_usage_errors(self):
        self.assert_one_line_error(self.run_bloom("frobnicate"), "unknown command 'frobnicate'")
        self.assert_one_line_error(self.run_bloom("build", "--bogus"), "unknown option '--bogus'")
        self.assert_one_line_error(self.run_bloom("build", "-p"), "-p needs a value")
        self.assert_one_line_error(self.run_bloom("build", input="a\n"), "missing -o")
        self.assert_one_line_error(self.run_bloom("build", "-o", self.path("x"), "-p", "2", input="a\n"), "-p")
        self.assert_one_line_error(self.run_bloom("build", "-o", self.path("x"), "--kind", "cuckoo", input="a\n"),
                                   "unknown kind 'cuckoo'")
        self.assert_one_line_error(self.run_bloom("build", "-o", self.path("x"), "--hash", "md5", input="a\n"),
                                   "unknown hash 'md5'")
        self.assert_one_line_error(self.run_bloom("query"), "missing FILTER")
        self.assert_one_line_error(self.run_bloom("stats"), "FILTER")
        self.assert_one_line_error(self.run_bloom(), "no command given")

    def test_numbers_that_used_to_be_misread(self):
        out = self.path("x.bloom")
        # --hashes above 64 is refused, not wrapped modulo 2^32 (2^32 + 1 was k = 1).
        for k in ("65", "4294967296", "4294967297"):
            with self.subTest(hashes=k):
                self.assert_one_line_error(self.run_bloom("build", "-o", out, "--hashes", k, input="a\n"),
                                           "--hashes must be at most 64")
        # A seed is decimal or 0x hex: "010" is ten, not octal eight; no sign, no blanks.
        self.build("-o", out, "--seed", "010", "-q", input="a\n")
        self.assertEqual(self.stats(out)["seed"], 10)
        self.build("-o", out, "--seed", "0xff", "-q", input="a\n")
        self.assertEqual(self.stats(out)["seed"], 255)
        self.build("-o", out, "--seed", "18446744073709551615", "-q", input="a\n")
        self.assertEqual(self.stats(out)["seed"], 2**64 - 1)
        for seed in (" -1", "-1", "1e6", "0x", "18446744073709551616", "08x", " 5"):
            with self.subTest(seed=seed):
                self.assert_one_line_error(self.run_bloom("build", "-o", out, "--seed", seed, input="a\n"),
                                           "--seed expects a whole number")
        # Counts and rates are decimal: strtod's hex floats, inf and nan are refused.
        for count in ("0x10", "0X10", "0x1p4", "inf", "nan", "1e6 ", "+0x10"):
            with self.subTest(count=count):
                self.assert_one_line_error(self.run_bloom("build", "-o", out, "-n", count, input="a\n"),
                                           "-n expects a positive whole number")
        for rate in ("0x0.1", "0x1p-7", "0x1p-7%", "nan", "nan%"):
            with self.subTest(rate=rate):
                self.assert_one_line_error(self.run_bloom("build", "-o", out, "-p", rate, input="a\n"),
                                           "expects a rate")
        self.build("-o", out, "-n", "1e3", "-p", "1E-3", "-q", input="a\n")
        self.assertEqual(self.stats(out)["capacity"], 1000)
        # calc checks -k before it prints anything.
        self.assert_one_line_error(self.run_bloom("calc", "-n", "1e6", "-m", "8e6", "-k", "65"),
                                   "-k must be at most 64")

    @unittest.skipUnless(os.path.exists("/dev/full"), "needs /dev/full")
    def test_output_that_cannot_be_written_is_an_error(self):
        f = self.good_filter()
        commands = (["stats", f], ["stats", f, "--json"], ["calc", "-n", "1e6", "-p", "0.01"],
                    ["query", f, "a"], ["dedup", "-q"], ["--help"], ["--version"], ["help", "build"])
        for args in commands:
            with self.subTest(args=args[0]), open("/dev/full", "wb") as full:
                p = subprocess.run([self.bloom, *args], input=b"a\nb\n", stdout=full, stderr=subprocess.PIPE,
                                   timeout=60)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(b"No space left on device", p.stderr)

    def test_a_reader_that_goes_away_stops_endless_output(self):
        # Where SIGPIPE is ignored (as here: Python ignores it, and
        # restore_signals=False passes that on), a write to a pipe nobody
        # reads fails with EPIPE; query and dedup must stop on it, not read
        # their endless input on (`tail -f log | bloom dedup | head`).
        f = self.good_filter()
        for args in (["query", f], ["dedup", "-q"]):
            with self.subTest(args=args[0]):
                src = subprocess.Popen(["seq", "1", "inf"], stdout=subprocess.PIPE)
                p = subprocess.Popen([self.bloom, *args], stdin=src.stdout, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, restore_signals=False)
                src.stdout.close()
                try:
                    self.assertTrue(p.stdout.readline())
                    p.stdout.close()
                    p.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
                    self.fail(f"bloom {args[0]} kept running after its reader went away")
                finally:
                    src.kill()
                    src.wait()
                err = p.stderr.read()
                p.stderr.close()
                self.assertEqual(p.returncode, 2, err)
                self.assertIn(b"Broken pipe", err)

    def test_dedup_refuses_to_save_onto_its_own_output(self):
        p = self.run_bloom("dedup", "--save", "-", "-q", input="a\nb\na\n")
        self.assert_one_line_error(p, "--save -", "give a file name")

    def test_stats_json_parses_for_a_file_name_that_is_not_utf8(self):
        import json
        f = self.good_filter()
        odd = os.path.join(os.fsencode(self.tmp), b"bad\xffname-\xc3\xa9.bloom")
        os.link(f, odd)
        p = subprocess.run([self.bloom, "stats", odd, "--json"], capture_output=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        name = json.loads(p.stdout.decode("utf-8"))["file"]  # strict UTF-8, then strict JSON
        self.assertTrue(name.endswith("bad\ufffdname-\u00e9.bloom"), name)

    def test_library_refusals_are_printed(self):
        # Sizes the library refuses: its message is shown (m above 2^40).
        p = self.run_bloom("build", "-o", self.path("x"), "-n", "10^12", "-p", "1e-9", input="a\n")
        self.assert_one_line_error(p, "cannot create the filter", "2^40")

    def test_help_for_every_command(self):
        top = self.run_bloom("--help", check=0).stdout
        for command in COMMANDS:
            with self.subTest(command=command):
                self.assertIn(command, top)
                p = self.run_bloom(command, "--help", check=0)
                self.assertTrue(p.stdout.startswith(f"Usage: bloom {command}"), p.stdout)
                self.assertEqual(p.stdout, self.run_bloom("help", command, check=0).stdout)

    def test_version(self):
        out = self.run_bloom("--version", check=0).stdout
        self.assertRegex(out, r"^bloom \d+\.\d+\.\d+ \(library \d+\.\d+\.\d+\)\n$")

    def test_progress_bar_only_on_a_terminal(self):
        # 2,000,000 keys of 9 bytes = 18 MB, above the 16 MiB threshold.
        src = self.write("big.txt", b"".join(b"k%07d\n" % i for i in range(2000000)))
        f = self.path("big.bloom")
        p = self.build(src, "-o", f, "-q")
        self.assertEqual(p.stderr, "")  # stderr is a pipe here: no bar
        # Under script(1) stderr is a terminal: the bar reaches 100%.
        import subprocess
        cmd = f"'{self.bloom}' build '{src}' -o '{f}' -q"
        r = subprocess.run(["script", "-qec", cmd, "/dev/null"], capture_output=True, timeout=240)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn(b"100%", r.stdout)


if __name__ == "__main__":
    unittest.main()
