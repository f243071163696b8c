# SPDX-License-Identifier: Apache-2.0
"""Which path the suite ran on: ctest runs every test file twice, once with
the C extension (BLOOMKIT_TEST_IMPLEMENTATION=cext) and once with ctypes
(BLOOMKIT_PURE=1, =ctypes); this file fails when the intended one is not
the one in use, so a broken extension cannot pass as a fallback run."""

import os
import unittest

import bloomkit
from bloomkit import _fast


class ImplementationTest(unittest.TestCase):
    def test_the_intended_path_is_in_use(self):
        expected = os.environ.get("BLOOMKIT_TEST_IMPLEMENTATION")
        if not expected:
            self.skipTest("BLOOMKIT_TEST_IMPLEMENTATION not set (ctest sets it)")
        self.assertEqual(bloomkit.implementation, expected, f"extension: {_fast.cext_error}")

    def test_filter_methods_come_from_the_path_in_use(self):
        core = bloomkit.Filter.__mro__[1]
        self.assertIs(core, _fast.Core)
        for name in ("add", "__contains__", "test_and_add", "remove", "add_many", "contains_many"):
            self.assertIn(name, vars(core), name)
        if bloomkit.implementation == "cext":
            self.assertEqual(core.__module__, "bloomkit._cext")
            self.assertIsNone(_fast.cext_error)

    def test_the_handle_is_released_at_close(self):
        # The C base keeps the ctypes handle; close() must drop the last reference.
        import weakref

        f = bloomkit.Filter(capacity=100)
        handle = weakref.ref(f._handle)
        f.close()
        self.assertIsNone(handle())
        self.assertIsNone(f._handle)


class SameAnswersTest(unittest.TestCase):
    def test_single_and_batch_calls_agree_for_every_key_type(self):
        f = bloomkit.Filter(capacity=5000, fp_rate=0.001)
        keys = ["a", "é", "", "x" * 100, b"b", b"", bytearray(b"c"), memoryview(b"d"), "🙂"]
        for k in keys[::2]:
            f.add(k)
        f.add_many(keys[1::2])
        self.assertEqual(f.contains_many(keys), [True] * len(keys))
        self.assertTrue(all(k in f for k in keys))
        # str is hashed as UTF-8: the same key as its bytes.
        self.assertIn("é".encode(), f)
        self.assertIn(b"\xf0\x9f\x99\x82", f)

    def test_arguments_by_keyword_and_wrong_counts(self):
        f = bloomkit.Filter(capacity=100, kind="counting")
        f.add(key="a")
        self.assertTrue(f.test_and_add(key="a"))
        f.remove(key="a")
        self.assertEqual(f.add_many(keys=["x", "y"]), 2)
        self.assertEqual(f.contains_many(keys=["x", "zz"])[0], True)
        for call in (lambda: f.add(), lambda: f.add("a", "b"), lambda: f.add(k="a"),
                     lambda: f.add("a", key="b"), lambda: f.add_many(), lambda: f.contains_many(key=["x"])):
            with self.assertRaises(TypeError):
                call()

    def test_a_lone_surrogate_is_refused_as_str_encode_refuses_it(self):
        f = bloomkit.Filter(capacity=10)
        for call in (f.add, f.__contains__, f.test_and_add, lambda k: f.add_many([k])):
            with self.assertRaises(UnicodeEncodeError):
                call("\udc80")

    def test_bad_keys_in_a_batch_leave_that_chunk_unadded(self):
        f = bloomkit.Filter(capacity=1000, fp_rate=0.0001)
        with self.assertRaisesRegex(TypeError, "bloom keys are str or bytes-like, not int"):
            f.add_many(["first", 3])
        self.assertEqual(f.info.keys_added, 0)

    def test_large_keys_and_generators(self):
        f = bloomkit.Filter(capacity=1000)
        big = b"z" * (1 << 17)  # past the size at which the GIL is released
        self.assertFalse(f.test_and_add(big))
        self.assertTrue(f.test_and_add(big))
        self.assertEqual(f.add_many(str(i) for i in range(70000)), 70000)  # two chunks
        self.assertTrue(all(f.contains_many(str(i) for i in range(70000))))

    def test_closing_from_inside_the_key_iterator(self):
        f = bloomkit.Filter(capacity=1000)

        def keys():
            yield "a"
            f.close()
            yield "b"

        with self.assertRaisesRegex(ValueError, "closed"):
            f.add_many(keys())

    def test_errors_carry_status_and_message(self):
        f = bloomkit.Filter(capacity=100)
        with self.assertRaises(bloomkit.BloomUnsupportedError) as cm:
            f.remove("a")
        self.assertEqual(cm.exception.status, -7)
        self.assertEqual(cm.exception.operation, "remove")
        self.assertIn("counting", cm.exception.message)
        c = bloomkit.Filter(capacity=100, kind="counting")
        with self.assertRaises(bloomkit.BloomNotPresentError) as cm:
            c.remove("never")
        self.assertIsInstance(cm.exception, KeyError)
        self.assertEqual(cm.exception.status, -11)


class ReferenceCountTest(unittest.TestCase):
    """Every call gives back the references it takes, on success and on
    error: a leaked key or handle reference would keep memory forever."""

    def test_keys_and_handle_keep_their_counts(self):
        import sys

        f = bloomkit.Filter(capacity=1000)
        c = bloomkit.Filter(capacity=1000, kind="counting")
        keys = ["str-key" * 3, b"bytes-key", bytearray(b"ba"), memoryview(b"mv"), "é" * 5]
        big = b"g" * (1 << 17)  # the GIL-releasing path
        bad = [3.5, "\udc80"]
        handle = f._handle
        before = [sys.getrefcount(k) for k in keys + [big] + bad] + [sys.getrefcount(handle)]
        for _ in range(3):
            for k in keys + [big]:
                f.add(k)
                self.assertIn(k, f)
                f.test_and_add(k)
                c.add(k)
                c.remove(k)
            f.add_many(keys)
            f.contains_many(iter(keys))
            for k in bad:
                for call in (f.add, f.__contains__, lambda k: f.add_many(keys + [k]),
                             lambda k: f.contains_many(keys + [k])):
                    raised = False
                    try:  # not assertRaises: it keeps the last exception, which holds the key
                        call(k)
                    except (TypeError, UnicodeEncodeError):
                        raised = True
                    self.assertTrue(raised, (call, k))
            with self.assertRaises(bloomkit.BloomNotPresentError):
                c.remove("absent")
        del k  # the loop variable holds the last bad key
        after = [sys.getrefcount(k) for k in keys + [big] + bad] + [sys.getrefcount(handle)]
        self.assertEqual(before, after)


if __name__ == "__main__":
    unittest.main()
