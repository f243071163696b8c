"""Every failure raises a BloomError subclass carrying status and message."""

import os
import tempfile
import unittest

import bloom


class ConstructionErrorsTest(unittest.TestCase):
    def test_bad_rates_and_sizes(self):
        for kwargs in ({"fp_rate": 0.0}, {"fp_rate": 1.0}, {"fp_rate": -0.5}, {"capacity": 0},
                       {"bits": 1000, "hashes": 65}):
            with self.subTest(**kwargs):
                with self.assertRaises(bloom.BloomInvalidArgumentError) as cm:
                    bloom.Filter(**kwargs)
                e = cm.exception
                self.assertEqual(e.status, -1)
                self.assertIsInstance(e, ValueError)
                self.assertTrue(e.message.startswith("bloom_create"), e.message)

    def test_too_many_bits_is_an_overflow(self):
        with self.assertRaises(bloom.BloomOverflowError) as cm:
            bloom.Filter(bits=(1 << 40) + 1)
        self.assertEqual(cm.exception.status, -9)

    def test_python_side_checks(self):
        with self.assertRaises(ValueError):
            bloom.Filter(kind="cuckoo")
        with self.assertRaises(ValueError):
            bloom.Filter(hash="md5")
        with self.assertRaises(TypeError):
            bloom.Filter(kind=1)  # type: ignore[arg-type]
        with self.assertRaises(ValueError):
            bloom.Filter(capacity=-1)
        with self.assertRaises(ValueError):
            bloom.Filter(seed=1 << 64)


class RemoveOnClassicTest(unittest.TestCase):
    def test_remove_needs_a_counting_filter(self):
        f = bloom.Filter(capacity=100)
        f.add("a")
        with self.assertRaises(bloom.BloomUnsupportedError) as cm:
            f.remove("a")
        self.assertEqual(cm.exception.status, -7)
        self.assertIn("a", f)


class ErrorObjectTest(unittest.TestCase):
    def test_attributes_and_text(self):
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "nope.bloom")
            with self.assertRaises(bloom.BloomIOError) as cm:
                bloom.Filter.load(missing)
        e = cm.exception
        self.assertIsInstance(e, bloom.BloomFileNotFoundError)
        self.assertIsInstance(e, OSError)
        self.assertEqual(e.status, -3)
        self.assertEqual(e.filename, missing)
        self.assertIn("nope.bloom", e.message)
        self.assertIn("status -3", str(e))
        self.assertEqual(e.description, "input/output error")

    def test_save_into_a_missing_directory(self):
        f = bloom.Filter(capacity=10)
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(bloom.BloomIOError) as cm:
                f.save(os.path.join(d, "no", "such", "dir.bloom"))
        self.assertNotIsInstance(cm.exception, FileNotFoundError)

    def test_every_status_has_a_class(self):
        from bloom import errors

        for status in range(-1, -12, -1):
            cls = errors._BY_STATUS[status]
            self.assertTrue(issubclass(cls, bloom.BloomError), cls)


if __name__ == "__main__":
    unittest.main()
