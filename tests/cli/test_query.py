# SPDX-License-Identifier: Apache-2.0
"""bloom query: answers in input order, :Q, exit statuses, files and stdin."""

import subprocess
import unittest

from cli_support import CliTestCase


class QueryTest(CliTestCase):
    def setUp(self):
        super().setUp()
        self.filter = self.path("k.bloom")
        # p = 10^-6 so that "other"-style absent keys answer no (a false
        # positive for one fixed key has probability 10^-6).
        self.build("-o", self.filter, "-p", "0.000001", input="key\nalpha\nbeta\n")

    def test_piped_quit_ends_the_session(self):
        # Issue 5 acceptance: key / other / :Q / key answers exactly 2 lines.
        p = self.run_bloom("query", self.filter, input="key\nother\n:Q\nkey\n")
        self.assertEqual(p.stdout, "key\tmaybe\nother\tno\n")
        self.assertEqual(p.returncode, 1)  # "other" answered no
        self.assertEqual(p.stderr, "")     # no prompt when stdin is not a terminal

    def test_exit_status_zero_when_all_maybe(self):
        p = self.run_bloom("query", self.filter, "key", "alpha", check=0)
        self.assertEqual(p.stdout, "key\tmaybe\nalpha\tmaybe\n")

    def test_exit_status_one_when_some_no(self):
        p = self.run_bloom("query", self.filter, "alpha", "nothere", "beta", check=1)
        self.assertEqual(self.answers(p.stdout), [("alpha", "maybe"), ("nothere", "no"), ("beta", "maybe")])

    def test_exit_status_two_on_error(self):
        p = self.run_bloom("query", self.path("missing.bloom"), "key")
        self.assert_one_line_error(p, "missing.bloom")

    def test_keys_then_query_file_in_order(self):
        q = self.write("q.txt", "beta\r\n\r\nzzz\r\nkey\r\n")
        p = self.run_bloom("query", self.filter, "alpha", "--file", q, check=1)
        self.assertEqual(self.answers(p.stdout),
                         [("alpha", "maybe"), ("beta", "maybe"), ("zzz", "no"), ("key", "maybe")])

    def test_a_key_file_queried_as_it_was_built_answers_every_key(self):
        # Its "?P" first line is a header to build, so not a key to query:
        # answering "?0.1\tno" would read as a false negative.
        keys = self.write("keys.txt", "?0.1\nkey\nalpha\n")
        f = self.path("h.bloom")
        self.build(keys, "-o", f, "-q")
        for source in (["--file", keys], ["--file", "-"], []):  # a file, then standard input twice
            with self.subTest(source=" ".join(source)):
                p = self.run_bloom("query", f, *source, input="?0.1\nkey\nalpha\n", check=0)
                self.assertEqual(p.stdout, "key\tmaybe\nalpha\tmaybe\n")
        # Only a first line that is a rate header is skipped.
        p = self.run_bloom("query", f, "--file", self.write("q.txt", "key\n?0.1\n"), check=1)
        self.assertEqual(self.answers(p.stdout), [("key", "maybe"), ("?0.1", "no")])
        p = self.run_bloom("query", f, "--file", self.write("q2.txt", "?what\n"), check=1)
        self.assertEqual(self.answers(p.stdout), [("?what", "no")])

    def test_quit_line_in_query_file(self):
        q = self.write("q.txt", "alpha\n:Q\nnothere\n")
        p = self.run_bloom("query", self.filter, "--file", q, check=0)
        self.assertEqual(p.stdout, "alpha\tmaybe\n")

    def test_stdin_as_dash_file(self):
        p = self.run_bloom("query", self.filter, "--file", "-", input="beta\n", check=0)
        self.assertEqual(p.stdout, "beta\tmaybe\n")

    def test_answers_arrive_before_the_input_ends(self):
        # A co-process: each answer must be readable before stdin is closed.
        proc = subprocess.Popen([self.bloom, "query", self.filter], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            proc.stdin.write(b"alpha\n")
            proc.stdin.flush()
            self.assertEqual(proc.stdout.readline(), b"alpha\tmaybe\n")
            proc.stdin.write(b"nothere\n")
            proc.stdin.flush()
            self.assertEqual(proc.stdout.readline(), b"nothere\tno\n")
            proc.stdin.close()
            self.assertEqual(proc.wait(timeout=30), 1)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stdout.close()
            proc.stderr.close()

    def test_prompt_only_on_a_terminal(self):
        # Under script(1) standard input and stderr are a terminal: a hint and
        # a "> " prompt appear (on stderr); piped, stderr stays empty (above).
        cmd = f"'{self.bloom}' query '{self.filter}'"
        r = subprocess.run(["script", "-qec", cmd, "/dev/null"], input=b"alpha\nnothere\n:Q\n",
                           capture_output=True, timeout=60)
        out = r.stdout.replace(b"\r", b"")
        self.assertIn(b"Type a key per line; :Q quits.", out)
        self.assertIn(b"> ", out)
        self.assertIn(b"alpha\tmaybe\n", out)
        self.assertIn(b"nothere\tno\n", out)

    def test_no_keys_added_never_a_false_negative(self):
        keys = [f"user-{i}" for i in range(5000)]
        f = self.path("many.bloom")
        self.build("-o", f, input="\n".join(keys))
        p = self.run_bloom("query", f, input="\n".join(keys) + "\n", check=0)
        self.assertEqual(p.stdout.count("\tmaybe\n"), 5000)


if __name__ == "__main__":
    unittest.main()
