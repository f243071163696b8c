# SPDX-License-Identifier: Apache-2.0
"""Filters pickle as their file image and travel to worker processes."""

import copy
import multiprocessing
import pickle
import unittest

import bloomkit


def count_present(f, keys):
    """Runs in a worker: answers from a filter that arrived by pickle."""
    return sum(f.contains_many(keys)), f.info.keys_added


def build_in_worker(start):
    """Runs in a worker: a filter built there, returned by pickle."""
    f = bloomkit.Filter(capacity=10000, fp_rate=0.01, seed=5)
    f.add_many(f"w-{i}" for i in range(start, start + 1000))
    return f


class NamedFilter(bloomkit.Filter):
    """A user's subclass (module level, so pickle can name it)."""


class PickleTest(unittest.TestCase):
    def test_a_subclass_stays_itself_through_copies_set_operations_and_pickle(self):
        f = NamedFilter(capacity=100)
        f.add("a")
        for made in (f.copy(), copy.copy(f), copy.deepcopy(f), f | f, f & f, pickle.loads(pickle.dumps(f))):
            with self.subTest(made=made):
                self.assertIs(type(made), NamedFilter)
                self.assertIn("a", made)
        # Plain filters pickle as before (old pickles name only the bytes).
        self.assertNotIn(b"NamedFilter", pickle.dumps(bloomkit.Filter(capacity=10)))


    def test_round_trip_in_process(self):
        f = bloomkit.Filter(capacity=1000, fp_rate=0.001, hash="murmur3", seed=3)
        f.add_many(["a", "b", "c"])
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            g = pickle.loads(pickle.dumps(f, protocol))
            self.assertEqual(g.to_bytes(), f.to_bytes())
            self.assertEqual(g.info, f.info)

    def test_copy_module(self):
        f = bloomkit.Filter(capacity=100)
        f.add("a")
        for g in (copy.copy(f), copy.deepcopy(f)):
            g.add("b")
            self.assertIn("a", g)
            self.assertNotIn("b", f)

    def test_a_large_filter_pickles_whole_with_every_protocol(self):
        # Over 4 MiB the image is written to a mapped buffer instead of a
        # bytearray; both must give the same bytes, in and out of band.
        f = bloomkit.Filter(capacity=5_000_000, fp_rate=0.01, kind="blocked", seed=3)
        keys = [f"big-{i}" for i in range(1000)]
        f.add_many(keys)
        image = f.to_bytes()
        self.assertGreater(len(image), 4 << 20)
        for protocol in (2, 4, 5):
            g = pickle.loads(pickle.dumps(f, protocol=protocol))
            self.assertEqual(g.to_bytes(), image, protocol)
        buffers = []
        data = pickle.dumps(f, protocol=5, buffer_callback=buffers.append)
        self.assertEqual(len(buffers), 1)
        self.assertEqual(bytes(buffers[0].raw()), image)
        g = pickle.loads(data, buffers=buffers)
        self.assertTrue(all(g.contains_many(keys)))
        self.assertEqual(g.to_bytes(), image)

    def test_mapped_filter_pickles_as_an_ordinary_one(self):
        import os
        import tempfile

        f = bloomkit.Filter(capacity=100)
        f.add("a")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.bloom")
            f.save(path)
            with bloomkit.Filter.map(path) as m:
                g = pickle.loads(pickle.dumps(m))
        self.assertFalse(g.info.read_only)
        self.assertIn("a", g)

    def test_filters_travel_to_and_from_worker_processes(self):
        f = bloomkit.Filter(capacity=10000, fp_rate=0.01, seed=5)
        keys = [f"k-{i}" for i in range(2000)]
        f.add_many(keys)
        # spawn: the worker is a fresh interpreter that must import bloomkit and
        # find the library by itself, as a Dask or Spark worker would.
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(2) as pool:
            results = pool.starmap(count_present, [(f, keys[:1000]), (f, keys[1000:])])
            built = pool.map(build_in_worker, [0, 1000])
        self.assertEqual(results, [(1000, 2000), (1000, 2000)])
        union = built[0] | built[1]
        self.assertTrue(all(union.contains_many(f"w-{i}" for i in range(2000))))


if __name__ == "__main__":
    unittest.main()
