# SPDX-License-Identifier: Apache-2.0
"""The package as `cmake --install` left it: imported from the prefix's site
directory by a fresh interpreter, in another directory, with no
BLOOM_LIBRARY, it must load the library of the same prefix."""

import os
import subprocess
import sys
import tempfile
import unittest

PREFIX = os.environ.get("BLOOM_TEST_PREFIX", "")
SITE = os.environ.get("BLOOM_TEST_PYTHON_DIR", "lib/python3/dist-packages")

SCRIPT = r"""
import os, sys, tempfile
import bloomkit
print(bloomkit.__file__)
print(bloomkit.library_path())
print(bloomkit.implementation)
f = bloomkit.Filter(capacity=10000, fp_rate=0.001)
f.add("a")
assert "a" in f
d = tempfile.mkdtemp()
f.save(os.path.join(d, "f.bloom"))
assert "a" in bloomkit.Filter.load(os.path.join(d, "f.bloom"))
try:
    bloomkit.Filter.load(os.path.join(d, "missing.bloom"))
except bloomkit.BloomIOError:
    print("missing file raised")
"""


class InstalledPackageTest(unittest.TestCase):
    def test_imports_from_the_prefix_and_uses_its_library(self):
        self.assertTrue(PREFIX, "BLOOM_TEST_PREFIX is not set (ctest sets it)")
        site = os.path.join(PREFIX, SITE)
        self.assertTrue(os.path.isfile(os.path.join(site, "bloomkit", "__init__.py")), site)
        self.assertTrue(os.path.isfile(os.path.join(site, "bloomkit", "_paths.py")))
        env = {k: v for k, v in os.environ.items() if k not in ("BLOOM_LIBRARY", "PYTHONPATH")}
        env["PYTHONPATH"] = site
        with tempfile.TemporaryDirectory() as cwd:
            r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=cwd, capture_output=True,
                               text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        module, library, implementation, raised = r.stdout.splitlines()
        # With the extension built, the install carries it and uses it.
        self.assertEqual(implementation, os.environ.get("BLOOM_TEST_EXPECT_IMPLEMENTATION", "ctypes"))
        prefix = os.path.realpath(PREFIX)
        self.assertTrue(os.path.realpath(module).startswith(prefix), module)
        self.assertTrue(os.path.realpath(library).startswith(prefix), library)
        self.assertEqual(raised, "missing file raised")


if __name__ == "__main__":
    unittest.main()
