# SPDX-License-Identifier: Apache-2.0
"""The set vocabulary a Bloom filter can honour: union, intersection,
copy, and the sound "maybe" forms of issubset/issuperset/isdisjoint."""

import unittest

import bloomkit

BIT_KINDS = ("classic", "partitioned", "blocked", "counting")


def filled(keys, kind="classic"):
    f = bloomkit.Filter(capacity=2000, fp_rate=0.001, kind=kind)
    f.add_many(keys)
    return f


A = [f"a{i}" for i in range(300)]
B = [f"b{i}" for i in range(300)]


class UnionIntersectionTest(unittest.TestCase):
    def test_union_and_intersection_keep_every_shared_key(self):
        for kind in BIT_KINDS + ("scalable",):
            with self.subTest(kind=kind):
                a, b = filled(A, kind), filled(A[:100] + B, kind)
                self.assertTrue(all((a | b).contains_many(A + B)))
                self.assertTrue(all(a.union(b).contains_many(A + B)))
                both = a.intersection(b)
                self.assertTrue(all(both.contains_many(A[:100])))
                self.assertTrue(all((a & b).contains_many(A[:100])))
                # Keys of one side only are mostly gone from the intersection.
                self.assertLess(sum(both.contains_many(B)), 30)

    def test_in_place_forms_return_the_same_object(self):
        a, b = filled(A), filled(B)
        a_id = id(a)
        a |= b
        self.assertEqual(id(a), a_id)
        self.assertTrue(all(a.contains_many(B)))
        a &= b
        self.assertEqual(id(a), a_id)
        self.assertTrue(all(a.contains_many(B)))

    def test_union_of_several_and_of_none(self):
        a, b, c = filled(A[:10]), filled(A[10:20]), filled(A[20:30])
        self.assertTrue(all(a.union(b, c).contains_many(A[:30])))
        copy = a.union()
        self.assertIsNot(copy, a)
        self.assertEqual(copy.to_bytes(), a.to_bytes())

    def test_copy_is_independent(self):
        a = filled(A)
        c = a.copy()
        c.add("only-in-copy")
        self.assertEqual(a.info.keys_added, 300)
        self.assertEqual(c.info.keys_added, 301)

    def test_incompatible_filters_are_refused(self):
        a = filled(A)
        other = bloomkit.Filter(capacity=2000, fp_rate=0.01)
        for op in (lambda: a | other, lambda: a & other, lambda: a.issubset(other),
                   lambda: a.isdisjoint(other), lambda: a.union(other)):
            with self.assertRaises(bloomkit.BloomIncompatibleError):
                op()


class SubsetTest(unittest.TestCase):
    def test_a_subset_of_keys_is_a_subset(self):
        for kind in BIT_KINDS:
            with self.subTest(kind=kind):
                small, big = filled(A[:100], kind), filled(A, kind)
                self.assertTrue(small.issubset(big))
                self.assertTrue(small <= big)
                self.assertTrue(big.issuperset(small))
                self.assertTrue(big >= small)
                self.assertTrue(small <= small)

    def test_a_missing_key_shows(self):
        for kind in BIT_KINDS:
            with self.subTest(kind=kind):
                big, small = filled(A, kind), filled(A[:100], kind)
                self.assertFalse(big.issubset(small))
                self.assertFalse(big <= small)
                self.assertFalse(small.issuperset(big))
                one_more = filled(A[:100] + ["extra"], kind)
                self.assertFalse(one_more <= small)

    def test_disjoint(self):
        for kind in BIT_KINDS:
            with self.subTest(kind=kind):
                a, empty = filled(A, kind), filled([], kind)
                self.assertTrue(a.isdisjoint(empty))
                self.assertFalse(a.isdisjoint(filled(A[:1], kind)))
                # Two single keys: disjoint unless their bits collide (k of m).
                self.assertTrue(filled(["x"], kind).isdisjoint(filled(["y"], kind)))

    def test_scalable_refuses_inclusion_questions(self):
        a, b = filled(A, "scalable"), filled(A, "scalable")
        for op in (a.issubset, a.issuperset, a.isdisjoint, a.__le__, a.__ge__):
            with self.subTest(op=op.__name__), self.assertRaises(bloomkit.BloomUnsupportedError):
                op(b)

    def test_non_filters(self):
        a = filled(A)
        with self.assertRaises(TypeError):
            a <= {"a"}
        for method in (a.issubset, a.issuperset, a.isdisjoint):
            with self.subTest(method=method.__name__), self.assertRaises(TypeError):
                method({"a"})

    def test_mapped_filters_answer_too(self):
        import os
        import tempfile

        a, big = filled(A[:50]), filled(A)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "a.bloom")
            a.save(path)
            with bloomkit.Filter.map(path) as mapped:
                self.assertTrue(mapped <= big)
                self.assertFalse(big <= mapped)


if __name__ == "__main__":
    unittest.main()
