# SPDX-License-Identifier: Apache-2.0
"""Shared helpers for the CLI tests: where the installed tool is, running it,
and a temporary directory per test. Standard library only."""

import os
import random
import string
import subprocess
import tempfile
import unittest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def bloom_path():
    path = os.environ.get("BLOOM_CLI")
    if not path:
        raise RuntimeError("BLOOM_CLI is not set: run these tests through ctest")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"BLOOM_CLI={path} is not an executable (did the cli_install test run?)")
    return path


def random_keys(count, seed, prefix=""):
    """count distinct keys of 8-16 letters and digits, reproducible from seed."""
    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits
    keys = set()
    while len(keys) < count:
        keys.add(prefix + "".join(rng.choice(alphabet) for _ in range(rng.randint(8, 16))))
    return sorted(keys)


class CliTestCase(unittest.TestCase):
    def setUp(self):
        self.bloom = bloom_path()
        self._tmp = tempfile.TemporaryDirectory(prefix="bloom-cli-")
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp, name)

    def data(self, name):
        return os.path.join(DATA, name)

    def write(self, name, content):
        """Writes str (UTF-8) or bytes to a file in the temporary directory."""
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(content.encode() if isinstance(content, str) else content)
        return path

    def run_bloom(self, *args, input=None, check=None):
        """Runs the tool; returns CompletedProcess with str stdout/stderr.
        check=N asserts the exit status is N and shows stderr when it is not."""
        if isinstance(input, str):
            input = input.encode()
        p = subprocess.run([self.bloom, *args], input=input, capture_output=True, timeout=240)
        p.stdout = p.stdout.decode("utf-8", "replace")
        p.stderr = p.stderr.decode("utf-8", "replace")
        if check is not None:
            self.assertEqual(p.returncode, check,
                             f"bloom {' '.join(args)}: exit {p.returncode}, stderr: {p.stderr}")
        return p

    def build(self, *args, input=None):
        """bloom build ... that must succeed."""
        return self.run_bloom("build", *args, input=input, check=0)

    def stats(self, filter_path):
        import json
        return json.loads(self.run_bloom("stats", filter_path, "--json", check=0).stdout)

    def answers(self, stdout):
        """'key\\tmaybe' lines -> list of (key, answer)."""
        return [tuple(line.split("\t")) for line in stdout.splitlines()]

    def assert_one_line_error(self, p, *fragments):
        """Exit status 2, nothing on stdout, one line on stderr containing every fragment."""
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(p.stdout, "")
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, f"expected one error line, got: {p.stderr!r}")
        for fragment in fragments:
            self.assertIn(fragment, lines[0])
