# SPDX-License-Identifier: Apache-2.0
"""Every failure raises a BloomError subclass carrying status and message."""

import os
import tempfile
import unittest

import bloomkit


class ConstructionErrorsTest(unittest.TestCase):
    def test_bad_rates_and_sizes(self):
        for kwargs in ({"fp_rate": 0.0}, {"fp_rate": 1.0}, {"fp_rate": -0.5}, {"capacity": 0},
                       {"bits": 1000, "hashes": 65}):
            with self.subTest(**kwargs):
                with self.assertRaises(bloomkit.BloomInvalidArgumentError) as cm:
                    bloomkit.Filter(**kwargs)
                e = cm.exception
                self.assertEqual(e.status, -1)
                self.assertIsInstance(e, ValueError)
                self.assertTrue(e.message.startswith("bloom_create"), e.message)

    def test_too_many_bits_is_an_overflow(self):
        with self.assertRaises(bloomkit.BloomOverflowError) as cm:
            bloomkit.Filter(bits=(1 << 40) + 1)
        self.assertEqual(cm.exception.status, -9)

    def test_python_side_checks(self):
        with self.assertRaises(ValueError):
            bloomkit.Filter(kind="cuckoo")
        with self.assertRaises(ValueError):
            bloomkit.Filter(hash="md5")
        with self.assertRaises(TypeError):
            bloomkit.Filter(kind=1)  # type: ignore[arg-type]
        for name in ("capacity", "bits", "hashes", "counter_bits", "seed"):
            with self.subTest(name=name):
                with self.assertRaises(bloomkit.BloomInvalidArgumentError):
                    bloomkit.Filter(**{name: -1})
                for wrong in ("10", 10.0, True):  # a count is an int, as the docs say
                    with self.assertRaises(TypeError):
                        bloomkit.Filter(**{name: wrong})
        with self.assertRaises(bloomkit.BloomInvalidArgumentError):
            bloomkit.Filter(seed=1 << 64)
        # seed=None is the default seed, like the other parameters' None.
        none_seed, default_seed = bloomkit.Filter(capacity=10, seed=None), bloomkit.Filter(capacity=10)
        none_seed.add("a")
        default_seed.add("a")
        self.assertEqual(none_seed.to_bytes(), default_seed.to_bytes())
        # C strings end at a NUL: "classic\0junk" must not pass as "classic".
        with self.assertRaises(ValueError):
            bloomkit.Filter(kind="classic\0junk")
        with self.assertRaises(ValueError):
            bloomkit.Filter(hash="xxh3\0")
        for name in ("fp_rate", "growth", "tightening"):
            with self.subTest(name=name), self.assertRaises(TypeError):
                bloomkit.Filter(kind="scalable", **{name: "0.5"})
        with self.assertRaises(TypeError):
            bloomkit.Filter.from_bytes("not bytes")  # type: ignore[arg-type]
        for wrong in (None, 5):
            with self.assertRaisesRegex(TypeError, "from_bytes takes bytes-like data .* not " + type(wrong).__name__):
                bloomkit.Filter.from_bytes(wrong)  # type: ignore[arg-type]
        # Any real number is a rate (as math functions take them).
        import decimal
        import fractions
        for rate in (fractions.Fraction(1, 100), decimal.Decimal("0.01"), 1):
            with self.subTest(rate=rate):
                if rate == 1:
                    with self.assertRaises(bloomkit.BloomInvalidArgumentError):
                        bloomkit.Filter(fp_rate=rate)
                else:
                    self.assertAlmostEqual(bloomkit.Filter(capacity=100, fp_rate=rate).info.fp_rate, 0.01)


class SizingFunctionErrorsTest(unittest.TestCase):
    def test_arguments_are_checked_like_the_constructor_s(self):
        with self.assertRaises(TypeError):
            bloomkit.optimal_params(100, "1e-3")  # type: ignore[arg-type]
        for args in ((True, 0.1), (100.0, 0.1), ("100", 0.1)):
            with self.subTest(args=args), self.assertRaises(TypeError):
                bloomkit.optimal_params(*args)  # type: ignore[arg-type]
        with self.assertRaises(bloomkit.BloomInvalidArgumentError):
            bloomkit.optimal_params(-1, 0.1)
        with self.assertRaises(TypeError):
            bloomkit.expected_fp_rate(True, 1000, 7)  # type: ignore[arg-type]
        with self.assertRaises(bloomkit.BloomInvalidArgumentError):
            bloomkit.expected_fp_rate(10, 1000, 1 << 32)
        self.assertEqual(bloomkit.optimal_params(100, 0.01), bloomkit.optimal_params(100, 0.01))


class PathErrorsTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def test_a_nul_in_a_path_is_refused_not_cut_short(self):
        f = bloomkit.Filter(capacity=100)
        good = os.path.join(self.tmp, "a.bloom")
        f.save(good)
        for path in (good + "\0junk", os.fsencode(good) + b"\0x"):
            with self.subTest(path=path):
                with self.assertRaisesRegex(ValueError, "null byte"):
                    f.save(path)
                with self.assertRaisesRegex(ValueError, "null byte"):
                    bloomkit.Filter.load(path)
                with self.assertRaisesRegex(ValueError, "null byte"):
                    bloomkit.Filter.map(path)
        self.assertEqual(os.listdir(self.tmp), ["a.bloom"])

    def test_a_dangling_symlink_is_file_not_found(self):
        link = os.path.join(self.tmp, "dangling.bloom")
        os.symlink(os.path.join(self.tmp, "nowhere.bloom"), link)
        for open_ in (bloomkit.Filter.load, bloomkit.Filter.map):
            with self.subTest(open_=open_.__name__):
                with self.assertRaises(bloomkit.BloomFileNotFoundError) as cm:
                    open_(link)
                self.assertIsInstance(cm.exception, FileNotFoundError)
                self.assertEqual(cm.exception.filename, link)


class ClosedFilterTest(unittest.TestCase):
    def test_every_method_of_a_closed_filter_raises_value_error(self):
        f = bloomkit.Filter(capacity=100)
        other = bloomkit.Filter(capacity=100)
        f.close()
        calls = {
            "add": lambda: f.add("a"), "contains": lambda: "a" in f, "test_and_add": lambda: f.test_and_add("a"),
            "add_many([])": lambda: f.add_many([]), "contains_many([])": lambda: f.contains_many([]),
            "update": lambda: f.update(other), "info": lambda: f.info, "copy": lambda: f.copy(),
            "to_bytes": lambda: f.to_bytes(), "clear": lambda: f.clear(),
        }
        for name, call in calls.items():
            with self.subTest(method=name), self.assertRaisesRegex(ValueError, "closed"):
                call()
        with self.assertRaisesRegex(ValueError, "closed"):
            other.update(f)  # a closed argument too

    def test_set_operations_take_only_filters(self):
        f = bloomkit.Filter(capacity=100)
        for method in (f.update, f.intersection_update):
            with self.subTest(method=method.__name__), self.assertRaises(TypeError):
                method("abc")  # type: ignore[arg-type]


class RemoveOnClassicTest(unittest.TestCase):
    def test_remove_needs_a_counting_filter(self):
        f = bloomkit.Filter(capacity=100)
        f.add("a")
        with self.assertRaises(bloomkit.BloomUnsupportedError) as cm:
            f.remove("a")
        self.assertEqual(cm.exception.status, -7)
        self.assertIn("a", f)


class ErrorObjectTest(unittest.TestCase):
    def test_attributes_and_text(self):
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "nope.bloom")
            with self.assertRaises(bloomkit.BloomIOError) as cm:
                bloomkit.Filter.load(missing)
        e = cm.exception
        self.assertIsInstance(e, bloomkit.BloomFileNotFoundError)
        self.assertIsInstance(e, OSError)
        self.assertEqual(e.status, -3)
        self.assertEqual(e.filename, missing)
        self.assertIn("nope.bloom", e.message)
        self.assertIn("status -3", str(e))
        self.assertEqual(e.description, "input/output error")

    def test_save_into_a_missing_directory(self):
        f = bloomkit.Filter(capacity=10)
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(bloomkit.BloomIOError) as cm:
                f.save(os.path.join(d, "no", "such", "dir.bloom"))
        self.assertNotIsInstance(cm.exception, FileNotFoundError)

    def test_every_status_has_a_class(self):
        from bloomkit import errors

        for status in range(-1, -12, -1):
            cls = errors._BY_STATUS[status]
            self.assertTrue(issubclass(cls, bloomkit.BloomError), cls)


if __name__ == "__main__":
    unittest.main()
