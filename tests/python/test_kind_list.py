# SPDX-License-Identifier: Apache-2.0
"""bloomkit.kinds(): the kinds the library lists (bloom_kind_count/at), each
one this package can name, create and use as its capabilities say.

A kind added to the library that this package cannot name, or a capability
bit it has no name for, fails here rather than going unnoticed.
"""

import unittest

import bloomkit
from bloomkit import _native


def filled(kind, **kw):
    f = bloomkit.Filter(kind=kind, capacity=200, fp_rate=0.01, **kw)
    f.add_many([f"k{i}" for i in range(50)])
    return f


class KindListTest(unittest.TestCase):
    def test_the_library_lists_kinds_in_order(self):
        kinds = bloomkit.kinds()
        self.assertEqual(len(kinds), _native.lib.bloom_kind_count())
        self.assertGreater(len(kinds), 0)
        codes = [k.code for k in kinds]
        self.assertEqual(codes, sorted(set(codes)))
        self.assertEqual(_native.lib.bloom_kind_at(len(kinds)), 0)

    def test_every_kind_is_named_and_its_caps_known(self):
        for k in bloomkit.kinds():
            with self.subTest(kind=k.code):
                self.assertTrue(k.name, f"kind {k.code} has no name")
                self.assertEqual(_native.lib.bloom_kind_from_name(k.name.encode()), k.code)
                self.assertLessEqual(k.caps, set(_native.CAP_NAMES.values()),
                                     f"{k.name}: capabilities this package does not know")

    def test_unknown_kind_has_no_caps(self):
        self.assertEqual(_native.caps_of(0), frozenset())
        self.assertEqual(_native.caps_of(10_000), frozenset())

    def test_each_kind_behaves_as_its_caps_say(self):
        for k in bloomkit.kinds():
            with self.subTest(kind=k.name):
                f = filled(k.name)
                self.assertEqual(f.info.kind, k.name)
                self.assertIn("k1", f)
                if "remove" in k.caps:
                    f.remove("k1")
                else:
                    with self.assertRaises(bloomkit.BloomError):
                        f.remove("k1")
                for cap, method in (("merge", "update"), ("intersect", "intersection_update")):
                    g = filled(k.name)
                    if cap in k.caps:
                        getattr(g, method)(filled(k.name))
                        self.assertIn("k2", g)
                    else:
                        with self.assertRaises(bloomkit.BloomError):
                            getattr(g, method)(filled(k.name))
                if "concurrent" in k.caps:
                    filled(k.name, concurrent=True)
                else:
                    with self.assertRaises(bloomkit.BloomError):
                        filled(k.name, concurrent=True)
                if "split_block" in k.caps:
                    filled(k.name, split_block=True)
                else:
                    with self.assertRaises(bloomkit.BloomError):
                        filled(k.name, split_block=True)
                if "redisbloom_hash" in k.caps:
                    filled(k.name, hash="redisbloom")
                else:
                    with self.assertRaises(bloomkit.BloomError):
                        filled(k.name, hash="redisbloom")


if __name__ == "__main__":
    unittest.main()
