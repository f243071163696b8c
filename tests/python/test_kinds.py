# SPDX-License-Identifier: Apache-2.0
"""The kinds beyond classic, through the documented API.

Every kind is implemented, so each test runs its full behaviour for each.
"""

import unittest

import bloomkit


def create(**kw):
    """A new filter of the given kind and options."""
    return bloomkit.Filter(**kw)


class EveryKindTest(unittest.TestCase):
    def test_no_false_negatives_save_load_and_merge(self):
        for kind in ("classic", "partitioned", "blocked", "counting", "scalable"):
            with self.subTest(kind=kind):
                f = create(kind=kind, capacity=5000, fp_rate=0.01)
                self.assertEqual(f.info.kind, kind)
                keys = [f"{kind}-{i}" for i in range(5000)]
                f.add_many(keys)
                self.assertTrue(all(f.contains_many(keys)))
                g = bloomkit.Filter.from_bytes(f.to_bytes())
                self.assertEqual(g.info.kind, kind)
                self.assertTrue(all(g.contains_many(keys)))


class CountingTest(unittest.TestCase):
    def setUp(self):
        self.f = create(kind="counting", capacity=1000, fp_rate=0.01)

    def test_remove_forgets_a_key(self):
        f = self.f
        f.add("a")
        f.add("b")
        f.remove("a")
        self.assertNotIn("a", f)  # its counters are back to zero...
        self.assertIn("b", f)  # ...and b's are not

    def test_remove_counts_occurrences(self):
        f = self.f
        f.add("a")
        f.add("a")
        f.remove("a")
        self.assertIn("a", f)
        f.remove("a")
        self.assertNotIn("a", f)

    def test_removing_a_key_never_added_raises_key_error(self):
        with self.assertRaises(bloomkit.BloomNotPresentError) as cm:
            self.f.remove("never")
        self.assertIsInstance(cm.exception, KeyError)
        self.assertEqual(cm.exception.status, -11)
        self.assertFalse(self.f.discard("never"))
        self.f.add("x")
        self.assertTrue(self.f.discard("x"))

    def test_counter_bits(self):
        f = create(kind="counting", capacity=1000, counter_bits=8)
        self.assertEqual(f.info.counter_bits, 8)
        with self.assertRaises(bloomkit.BloomInvalidArgumentError):
            bloomkit.Filter(kind="counting", capacity=1000, counter_bits=5)


class ScalableTest(unittest.TestCase):
    def test_grows_past_its_capacity_without_false_negatives(self):
        f = create(kind="scalable", capacity=1000, fp_rate=0.01, growth=2, tightening=0.85)
        keys = [f"s-{i}" for i in range(20000)]
        f.add_many(keys)
        self.assertTrue(all(f.contains_many(keys)))
        info = f.info
        self.assertGreater(info.stages, 1)
        self.assertAlmostEqual(info.growth, 2.0)
        self.assertAlmostEqual(info.tightening, 0.85)


if __name__ == "__main__":
    unittest.main()
