"""The kinds beyond classic, through the documented API.

partitioned/blocked (branch kinds-a) and counting/scalable (kinds-b) are
implemented on other branches; until they are merged, creating one raises
BloomUnsupportedError. These tests then check exactly that (never a silent
pass): each test runs the full behaviour when the kind exists, and otherwise
asserts the documented refusal and says so on stderr. Nothing is skipped.
"""

import sys
import unittest

import bloom


def create_or_none(test, **kw):
    """The filter, or None after checking the refusal is BLOOM_E_UNSUPPORTED."""
    try:
        return bloom.Filter(**kw)
    except bloom.BloomUnsupportedError as e:
        test.assertEqual(e.status, -7)
        test.assertIn("not implemented", e.message)
        print(f"\n  note: kind={kw.get('kind')} refused as unsupported in this build", file=sys.stderr)
        return None


class EveryKindTest(unittest.TestCase):
    def test_no_false_negatives_save_load_and_merge(self):
        for kind in ("classic", "partitioned", "blocked", "counting", "scalable"):
            with self.subTest(kind=kind):
                f = create_or_none(self, kind=kind, capacity=5000, fp_rate=0.01)
                if f is None:
                    continue
                self.assertEqual(f.info.kind, kind)
                keys = [f"{kind}-{i}" for i in range(5000)]
                f.add_many(keys)
                self.assertTrue(all(f.contains_many(keys)))
                g = bloom.Filter.from_bytes(f.to_bytes())
                self.assertEqual(g.info.kind, kind)
                self.assertTrue(all(g.contains_many(keys)))


class CountingTest(unittest.TestCase):
    def setUp(self):
        # None: the kind is refused (checked in create_or_none); each test
        # then returns after that check.
        self.f = create_or_none(self, kind="counting", capacity=1000, fp_rate=0.01)

    def test_remove_forgets_a_key(self):
        f = self.f
        if f is None:
            return
        f.add("a")
        f.add("b")
        f.remove("a")
        self.assertNotIn("a", f)  # its counters are back to zero...
        self.assertIn("b", f)  # ...and b's are not

    def test_remove_counts_occurrences(self):
        f = self.f
        if f is None:
            return
        f.add("a")
        f.add("a")
        f.remove("a")
        self.assertIn("a", f)
        f.remove("a")
        self.assertNotIn("a", f)

    def test_removing_a_key_never_added_raises_key_error(self):
        if self.f is None:
            return
        with self.assertRaises(bloom.BloomNotPresentError) as cm:
            self.f.remove("never")
        self.assertIsInstance(cm.exception, KeyError)
        self.assertEqual(cm.exception.status, -11)
        self.assertFalse(self.f.discard("never"))
        self.f.add("x")
        self.assertTrue(self.f.discard("x"))

    def test_counter_bits(self):
        f = create_or_none(self, kind="counting", capacity=1000, counter_bits=8)
        if f is None:
            return
        self.assertEqual(f.info.counter_bits, 8)
        with self.assertRaises(bloom.BloomInvalidArgumentError):
            bloom.Filter(kind="counting", capacity=1000, counter_bits=5)


class ScalableTest(unittest.TestCase):
    def test_grows_past_its_capacity_without_false_negatives(self):
        f = create_or_none(self, kind="scalable", capacity=1000, fp_rate=0.01, growth=2, tightening=0.85)
        if f is None:
            return
        keys = [f"s-{i}" for i in range(20000)]
        f.add_many(keys)
        self.assertTrue(all(f.contains_many(keys)))
        info = f.info
        self.assertGreater(info.stages, 1)
        self.assertAlmostEqual(info.growth, 2.0)
        self.assertAlmostEqual(info.tightening, 0.85)


if __name__ == "__main__":
    unittest.main()
