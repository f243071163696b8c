# SPDX-License-Identifier: Apache-2.0
"""The issue's held-out script, mimicked: nothing but ctypes.CDLL on the
INSTALLED shared library (no bloom package), default options from
bloom_options_init, 20,000 keys added, queried, saved, loaded, all found."""

import ctypes
import os
import tempfile
import unittest
from ctypes import POINTER, c_char_p, c_double, c_int, c_int32, c_size_t, c_uint32, c_uint64, c_void_p

PREFIX = os.environ.get("BLOOM_TEST_PREFIX", "")
LIBDIR = os.environ.get("BLOOM_TEST_LIBDIR", "lib")


class Options(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("kind", c_int32), ("capacity", c_uint64), ("fp_rate", c_double),
                ("hash", c_int32), ("seed", c_uint64), ("flags", c_uint32), ("bits", c_uint64),
                ("hashes", c_uint32), ("growth", c_double), ("tightening", c_double),
                ("counter_bits", c_uint32)]


class RawCtypesOnInstalledLibraryTest(unittest.TestCase):
    def setUp(self):
        self.assertTrue(PREFIX, "BLOOM_TEST_PREFIX is not set (ctest sets it)")
        path = os.path.join(PREFIX, LIBDIR, "libbloomfilter.so.1")
        self.assertTrue(os.path.isfile(path), path)
        lib = ctypes.CDLL(path)
        lib.bloom_options_size.restype = c_size_t
        lib.bloom_options_size.argtypes = []
        lib.bloom_options_init.restype = None
        lib.bloom_options_init.argtypes = [POINTER(Options)]
        lib.bloom_create.restype = c_int
        lib.bloom_create.argtypes = [POINTER(Options), POINTER(c_void_p)]
        lib.bloom_add.restype = c_int
        lib.bloom_add.argtypes = [c_void_p, c_char_p, c_size_t]
        lib.bloom_query.restype = c_int
        lib.bloom_query.argtypes = [c_void_p, c_char_p, c_size_t]
        lib.bloom_save.restype = c_int
        lib.bloom_save.argtypes = [c_void_p, c_char_p]
        lib.bloom_load.restype = c_int
        lib.bloom_load.argtypes = [c_char_p, POINTER(c_void_p)]
        lib.bloom_destroy.restype = None
        lib.bloom_destroy.argtypes = [c_void_p]
        lib.bloom_last_error.restype = c_char_p
        lib.bloom_last_error.argtypes = []
        self.lib = lib

    def test_defaults_create_add_query_save_load(self):
        lib = self.lib
        # Options is the 0.2.0 layout (96 bytes); the library has grown it
        # (window_ms, 0.3.0), and a caller built against the old one must
        # still get its own size back and nothing written past it.
        self.assertGreaterEqual(lib.bloom_options_size(), ctypes.sizeof(Options))
        o = Options()
        lib.bloom_options_init(ctypes.byref(o))
        self.assertEqual(o.struct_size, ctypes.sizeof(Options))
        f = c_void_p()
        self.assertEqual(lib.bloom_create(ctypes.byref(o), ctypes.byref(f)), 0, lib.bloom_last_error())
        keys = [os.urandom(8).hex().encode() + b"-%d" % i for i in range(20000)]
        for k in keys:
            self.assertEqual(lib.bloom_add(f, k, len(k)), 0)
        self.assertTrue(all(lib.bloom_query(f, k, len(k)) == 1 for k in keys))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "raw.bloom").encode()
            self.assertEqual(lib.bloom_save(f, path), 0, lib.bloom_last_error())
            g = c_void_p()
            self.assertEqual(lib.bloom_load(path, ctypes.byref(g)), 0, lib.bloom_last_error())
        self.assertTrue(all(lib.bloom_query(g, k, len(k)) == 1 for k in keys))
        # At the default p = 0.01 and n = 10^6, 20,000 keys leave the filter
        # nearly empty: fresh random keys are almost never "maybe" (< 1%).
        fresh = [os.urandom(12) for _ in range(2000)]
        self.assertLess(sum(lib.bloom_query(g, k, len(k)) for k in fresh), 20)
        lib.bloom_destroy(f)
        lib.bloom_destroy(g)
        missing = c_void_p()
        self.assertEqual(lib.bloom_load(b"/nonexistent/x.bloom", ctypes.byref(missing)), -3)
        self.assertIsNone(missing.value)
        self.assertIn(b"nonexistent", lib.bloom_last_error())


if __name__ == "__main__":
    unittest.main()
