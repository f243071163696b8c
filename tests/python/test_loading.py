# SPDX-License-Identifier: Apache-2.0
"""How the package finds the library, and that ctypes agrees with the header."""

import ctypes
import ctypes.util
import os
import subprocess
import sys
import unittest

import bloomkit
from bloomkit import _native

HERE = os.path.dirname(os.path.abspath(__file__))


def run_python(code, env_changes):
    env = dict(os.environ)
    # The package this process imported, by absolute path (cwd changes below).
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(bloomkit.__file__)))
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          cwd=HERE, timeout=120)


class LayoutTest(unittest.TestCase):
    def test_struct_sizes_match_the_library(self):
        self.assertEqual(ctypes.sizeof(_native.Options), _native.lib.bloom_options_size())
        self.assertEqual(ctypes.sizeof(_native.Info), _native.lib.bloom_info_size())

    def test_defaults_come_from_bloom_options_init(self):
        o = _native.default_options()
        self.assertEqual(o.struct_size, ctypes.sizeof(_native.Options))
        self.assertEqual((o.kind, o.capacity, o.fp_rate, o.hash), (1, 1000000, 0.01, 1))
        self.assertEqual((o.growth, o.tightening, o.counter_bits), (2.0, 0.85, 4))

    def test_every_function_has_a_declared_restype_and_argtypes(self):
        for name in _native.PROTOTYPES:
            fn = getattr(_native.lib, name)
            self.assertIsNotNone(fn.argtypes, name)
            self.assertEqual(fn.restype, _native.PROTOTYPES[name][0], name)
        # Pointer-returning functions must not be left as the default c_int.
        for name in ("bloom_last_error", "bloom_strerror", "bloom_version_string", "bloom_kind_name"):
            self.assertIs(_native.PROTOTYPES[name][0], ctypes.c_char_p)


class LocateTest(unittest.TestCase):
    def test_bloom_library_env_var_wins(self):
        lib = bloomkit.library_path()
        r = run_python("import bloomkit; print(bloomkit.library_path())", {"BLOOM_LIBRARY": lib})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), lib)

    def test_a_wrong_bloom_library_is_a_clear_import_error(self):
        r = run_python("import bloomkit", {"BLOOM_LIBRARY": "/nonexistent/libbloomfilter.so.1"})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("ImportError", r.stderr)
        self.assertIn("/nonexistent/libbloomfilter.so.1", r.stderr)

    def test_a_library_without_our_api_is_refused(self):
        # Debian's unrelated libbloom (package libbloom1) when installed: it
        # has bloom_add/bloom_check but not our API. Otherwise libm stands in.
        candidates = ["/usr/lib/x86_64-linux-gnu/libbloom.so.1", "/usr/lib/libbloom.so.1",
                      ctypes.util.find_library("m") or "libm.so.6"]
        path = next(p for p in candidates if os.path.exists(p) or "/" not in p)
        r = run_python("import bloomkit", {"BLOOM_LIBRARY": path})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("ImportError", r.stderr)
        self.assertIn("bloom_", r.stderr)  # names the missing function

    def test_only_our_abi_major_is_looked_for(self):
        from bloomkit import _locate
        self.assertTrue(_locate.names_our_abi(f"libbloomfilter.so.{_locate.ABI_MAJOR}"))
        self.assertTrue(_locate.names_our_abi(f"/usr/lib/libbloomfilter.so.{_locate.ABI_MAJOR}"))
        for other in (f"libbloomfilter.so.{_locate.ABI_MAJOR + 1}", "libbloomfilter.so", "libbloom.so.1"):
            with self.subTest(name=other):
                self.assertFalse(_locate.names_our_abi(other))

    def test_source_tree_finds_the_build_without_env(self):
        # ctest names the build's library; by hand, without BLOOM_LIBRARY, this
        # process found one the same way and the subprocess must agree.
        if os.environ.get("BLOOM_TEST_SOURCE_PATHS_ELSEWHERE"):
            self.skipTest("this build does not write python/bloomkit/_paths.py "
                          "(BLOOM_PYTHON_SOURCE_PATHS=OFF): another build's library is found there")
        expected = os.environ.get("BLOOM_TEST_BUILD_LIBRARY")
        if not expected and "BLOOM_LIBRARY" not in os.environ:
            expected = bloomkit.library_path()
        if not expected:
            self.fail("set BLOOM_TEST_BUILD_LIBRARY to the build's library (ctest does)")
        r = run_python("import bloomkit; print(bloomkit.library_path())", {"BLOOM_LIBRARY": None})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.path.realpath(r.stdout.strip()), os.path.realpath(expected))


if __name__ == "__main__":
    unittest.main()
