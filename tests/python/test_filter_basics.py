# SPDX-License-Identifier: Apache-2.0
"""bloomkit.Filter: keys, membership, batches, set operations, info, len."""

import math
import unittest

import bloomkit


def keys(prefix, n):
    return [f"{prefix}-{i}" for i in range(n)]


class AcceptanceLikeTest(unittest.TestCase):
    """What the issue's held-out script does, with python/ on sys.path."""

    def test_add_query_save_load(self):
        import os
        import tempfile

        f = bloomkit.Filter(capacity=10000, fp_rate=0.001)
        f.add("a")
        self.assertIn("a", f)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "a.bloom")
            f.save(path)
            g = bloomkit.Filter.load(path)
            self.assertIn("a", g)
            with self.assertRaises(bloomkit.BloomError):
                bloomkit.Filter.load(os.path.join(d, "missing.bloom"))
            with self.assertRaises(FileNotFoundError):
                bloomkit.Filter.load(os.path.join(d, "missing.bloom"))


class KeysTest(unittest.TestCase):
    def setUp(self):
        self.f = bloomkit.Filter(capacity=1000, fp_rate=0.01)

    def test_no_false_negatives_for_every_key_type(self):
        added = ["alice", "", "ünïcode ✓", b"\x00\xff raw", bytearray(b"ba"), memoryview(b"mv-key")]
        for k in added:
            self.f.add(k)
        for k in added:
            self.assertIn(k, self.f, k)

    def test_str_is_hashed_as_utf8(self):
        self.f.add("é")
        self.assertIn("é".encode("utf-8"), self.f)
        self.assertIn(bytearray("é".encode("utf-8")), self.f)

    def test_memoryview_of_non_bytes_buffer_uses_raw_bytes(self):
        import array

        a = array.array("I", [1, 2, 3])
        self.f.add(memoryview(a))
        self.assertIn(a.tobytes(), self.f)

    def test_other_key_types_are_type_errors(self):
        for bad in (1, None, 2.5, ["a"]):
            with self.assertRaises(TypeError):
                self.f.add(bad)
            with self.assertRaises(TypeError):
                bad in self.f  # noqa: B015

    def test_empty_filter_knows_nothing(self):
        self.assertEqual(sum(k in self.f for k in keys("absent", 200)), 0)
        self.assertEqual(len(self.f), 0)

    def test_test_and_add(self):
        self.assertFalse(self.f.test_and_add("x"))
        self.assertTrue(self.f.test_and_add("x"))
        self.assertIn("x", self.f)


class BatchTest(unittest.TestCase):
    def test_add_many_and_contains_many_agree_with_single_calls(self):
        f = bloomkit.Filter(capacity=20000, fp_rate=0.01)
        present = keys("in", 10000)
        self.assertEqual(f.add_many(present), 10000)
        self.assertEqual(f.contains_many(present), [True] * 10000)
        probes = keys("out", 5000) + [b"", "in-3"]
        self.assertEqual(f.contains_many(probes), [p in f for p in probes])

    def test_generators_longer_than_one_chunk(self):
        f = bloomkit.Filter(capacity=200000, fp_rate=0.01)
        n = 150000  # more than two 65,536-key chunks
        self.assertEqual(f.add_many(b"k%d" % i for i in range(n)), n)
        self.assertTrue(all(f.contains_many(b"k%d" % i for i in range(n))))
        self.assertEqual(f.info.keys_added, n)

    def test_empty_batch_and_mixed_types(self):
        f = bloomkit.Filter(capacity=100)
        self.assertEqual(f.add_many([]), 0)
        self.assertEqual(f.contains_many([]), [])
        f.add_many(["s", b"b", bytearray(b"ba"), memoryview(b"m"), ""])
        self.assertEqual(f.contains_many(["s", b"b", b"ba", "m", b""]), [True] * 5)

    def test_a_single_string_is_not_an_iterable_of_keys(self):
        f = bloomkit.Filter(capacity=100)
        with self.assertRaises(TypeError):
            f.add_many("abc")
        with self.assertRaises(TypeError):
            f.add_many([1, 2])

    def test_measured_fp_rate_matches_the_target(self):
        # n = 20,000 at p = 0.01; 100,000 absent probes. The count of false
        # positives is binomial(100000, P) with P = bloom_expected_fp_rate
        # (~0.01): sigma = sqrt(100000 * 0.01 * 0.99) ~ 31.5, so a 4-sigma
        # band is about +-126 around ~1000.
        f = bloomkit.Filter(capacity=20000, fp_rate=0.01)
        f.add_many(keys("member", 20000))
        info = f.info
        expected = bloomkit.expected_fp_rate(20000, info.bits, info.hashes)
        probes = 100000
        fp = sum(f.contains_many(keys("probe", probes)))
        sigma = math.sqrt(probes * expected * (1 - expected))
        self.assertLess(abs(fp - probes * expected), 4 * sigma, (fp, expected))


class SetOperationsTest(unittest.TestCase):
    def make(self, names, **kw):
        f = bloomkit.Filter(capacity=1000, fp_rate=0.01, **kw)
        f.add_many(names)
        return f

    def test_union_and_intersection(self):
        a = self.make(["a", "both"])
        b = self.make(["b", "both"])
        u = a | b
        self.assertTrue(all(u.contains_many(["a", "b", "both"])))
        i = a & b
        self.assertIn("both", i)
        self.assertEqual(i.info.keys_added, 2)
        self.assertNotIn("b", a)  # operands unchanged

    def test_in_place_forms(self):
        a = self.make(["a"])
        original = a
        a |= self.make(["b"])
        self.assertIs(a, original)
        self.assertIn("b", a)
        a &= self.make(["b"])
        self.assertIn("b", a)

    def test_incompatible_filters_are_refused_with_a_message(self):
        a = self.make(["a"])
        b = self.make(["b"], seed=7)
        with self.assertRaises(bloomkit.BloomIncompatibleError) as cm:
            a | b
        self.assertEqual(cm.exception.status, -8)
        self.assertIn("seed", str(cm.exception))
        with self.assertRaises(bloomkit.BloomIncompatibleError):
            a &= bloomkit.Filter(capacity=5000, fp_rate=0.01)
        self.assertNotIn("b", a)  # unchanged after the refusal

    def test_operators_with_other_types(self):
        a = self.make(["a"])
        with self.assertRaises(TypeError):
            a | {"a"}
        with self.assertRaises(TypeError):
            a & 3


class InfoAndLenTest(unittest.TestCase):
    def test_info_reports_the_parameters(self):
        f = bloomkit.Filter(capacity=10000, fp_rate=0.001, hash="murmur3", seed=42)
        m, k = bloomkit.optimal_params(10000, 0.001)
        info = f.info
        self.assertEqual((info.kind, info.hash, info.seed), ("classic", "murmur3", 42))
        self.assertEqual((info.bits, info.hashes), (m, k))
        self.assertEqual(info.capacity, 10000)
        self.assertAlmostEqual(info.fp_rate, 0.001)
        self.assertFalse(info.read_only)
        self.assertFalse(info.concurrent)
        self.assertEqual(info.format_version, (1, 2))
        with self.assertRaises(Exception):  # frozen dataclass
            info.bits = 1  # type: ignore[misc]

    def test_info_reports_the_format_a_save_writes(self):
        # New blocked filters save as format 1.1 (their in-line layout 2),
        # the other kinds as 1.2 (mixed probes).
        self.assertEqual(bloomkit.Filter(kind="blocked", capacity=1000).info.format_version, (1, 1))
        for kind in ("classic", "partitioned", "counting", "scalable"):
            self.assertEqual(bloomkit.Filter(kind=kind, capacity=1000).info.format_version, (1, 2), kind)

    def test_len_estimates_distinct_keys(self):
        f = bloomkit.Filter(capacity=10000, fp_rate=0.01)
        f.add_many(keys("k", 5000))
        f.add_many(keys("k", 5000))  # duplicates do not count
        # Swamidass-Baldi from the fill: for 5,000 keys in ~96,000 bits the
        # estimate's standard deviation is well under 1%; allow 3%.
        self.assertLess(abs(len(f) - 5000), 150, len(f))
        self.assertEqual(f.info.keys_added, 10000)

    def test_len_of_a_saturated_filter_is_the_number_of_adds(self):
        f = bloomkit.Filter(bits=64, hashes=4, capacity=1)
        f.add_many(keys("x", 2000))
        self.assertEqual(f.info.fill_ratio, 1.0)
        self.assertEqual(len(f), 2000)

    def test_explicit_bits_and_hashes(self):
        f = bloomkit.Filter(bits=8192, hashes=3, capacity=100)
        self.assertEqual((f.info.bits, f.info.hashes), (8192, 3))

    def test_flags(self):
        f = bloomkit.Filter(capacity=100, concurrent=True, plain_double_hashing=True)
        self.assertTrue(f.info.concurrent)
        self.assertTrue(f.info.plain_double_hashing)

    def test_split_block(self):
        f = bloomkit.Filter(capacity=2000, fp_rate=0.01, kind="blocked", split_block=True)
        self.assertTrue(f.info.split_block)
        self.assertEqual(f.info.hashes, 8)
        self.assertEqual(f.info.bits % 256, 0)
        self.assertEqual(f.info.format_version, (1, 4))
        present = keys("in", 2000)
        f.add_many(present[:1000])
        for k in present[1000:]:
            f.add(k)
        self.assertTrue(all(k in f for k in present))
        self.assertFalse(bloomkit.Filter(capacity=100, kind="blocked").info.split_block)
        with self.assertRaises(bloomkit.BloomInvalidArgumentError):
            bloomkit.Filter(capacity=100, kind="classic", split_block=True)

    def test_clear_copy_and_close(self):
        f = bloomkit.Filter(capacity=100)
        f.add("a")
        c = f.copy()
        f.clear()
        self.assertNotIn("a", f)
        self.assertIn("a", c)
        with c:
            self.assertFalse(c.closed)
        self.assertTrue(c.closed)
        with self.assertRaises(ValueError):
            "a" in c  # noqa: B015
        c.close()  # idempotent
        self.assertIn("closed", repr(c))
        self.assertIn("kind=classic", repr(f))
        self.assertTrue(bool(f))


class ModuleFunctionsTest(unittest.TestCase):
    def test_optimal_params_follow_the_formula(self):
        n, p = 200000, 0.01
        m, k = bloomkit.optimal_params(n, p)
        self.assertEqual(m, math.ceil(n * abs(math.log(p)) / math.log(2) ** 2))
        self.assertEqual(k, 7)

    def test_optimal_params_errors(self):
        with self.assertRaises(bloomkit.BloomInvalidArgumentError):
            bloomkit.optimal_params(0, 0.01)
        with self.assertRaises(ValueError):
            bloomkit.optimal_params(100, 1.5)
        with self.assertRaises(bloomkit.BloomOverflowError):
            bloomkit.optimal_params(10**15, 1e-9)

    def test_expected_fp_rate(self):
        n, m, k = 1000, 9586, 7
        self.assertAlmostEqual(bloomkit.expected_fp_rate(n, m, k), (1 - math.exp(-k * n / m)) ** k, places=4)
        self.assertTrue(math.isnan(bloomkit.expected_fp_rate(1, 0, 1)))

    def test_version(self):
        self.assertRegex(bloomkit.version(), r"^\d+\.\d+\.\d+$")
        major, minor, patch = (int(x) for x in bloomkit.version().split("."))
        self.assertEqual(bloomkit.version_number(), major * 10000 + minor * 100 + patch)
        self.assertEqual(bloomkit.__version__, bloomkit.version())


if __name__ == "__main__":
    unittest.main()
