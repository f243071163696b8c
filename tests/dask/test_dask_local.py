# SPDX-License-Identifier: Apache-2.0
"""bloomkit.dask without a cluster (Dask's local schedulers), and the key
encoding it shares with every binding."""

import unittest

from dask_helpers import require_dask


def setUpModule():
    require_dask()


class IntegerEncoding(unittest.TestCase):
    def test_fixed_little_endian_int64_bytes(self):
        from bloomkit.encoding import int_key

        self.assertEqual(int_key(1), bytes.fromhex("0100000000000000"))
        self.assertEqual(int_key(-1), b"\xff" * 8)
        self.assertEqual(int_key(0x0102030405060708), bytes.fromhex("0807060504030201"))
        self.assertEqual(int_key(-2**63), bytes.fromhex("0000000000000080"))
        self.assertEqual(int_key(2**63 - 1), bytes.fromhex("ffffffffffffff7f"))

    def test_numpy_integers_of_every_width_are_the_same_key(self):
        import numpy as np
        from bloomkit.encoding import int_key, key_bytes

        for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
            with self.subTest(dtype=t.__name__):
                self.assertEqual(key_bytes(t(100)), int_key(100))

    def test_refusals(self):
        import numpy as np
        from bloomkit.encoding import int_key, key_bytes

        for bad in (True, np.bool_(True), 1.0, "1"):
            with self.subTest(value=bad), self.assertRaises(TypeError):
                int_key(bad)
        for bad in (2**63, -2**63 - 1, np.uint64(2**63)):
            with self.subTest(value=bad), self.assertRaises(OverflowError):
                int_key(bad)
        for bad in (1.5, True, [1], object()):
            with self.subTest(value=bad), self.assertRaises(TypeError):
                key_bytes(bad)
        for missing in (None, float("nan")):
            self.assertIsNone(key_bytes(missing))

    def test_columns_use_the_encoding_row_by_row(self):
        import numpy as np
        import pandas as pd
        import bloomkit
        from bloomkit import _columns
        from bloomkit.encoding import key_bytes

        values = [pd.Series(np.arange(-5, 5)), pd.Series(["a", None, "é", "a"]),
                  pd.Series([1, None, 3], dtype="Int64"), pd.Series(["x", pd.NA], dtype="string"),
                  [b"", b"\x00", 7, "s", None], np.array([2**62, -2**62], dtype=np.int64)]
        for v in values:
            with self.subTest(values=repr(v)[:40]):
                f = bloomkit.Filter(capacity=100, fp_rate=1e-6)
                added = _columns.add_column(f, v)
                present = [key_bytes(x) for x in list(v)]
                self.assertEqual(added, sum(b is not None for b in present))
                g = bloomkit.Filter(capacity=100, fp_rate=1e-6)
                g.add_many(b for b in present if b is not None)
                self.assertEqual(f.to_bytes(), g.to_bytes())
                # Missing rows answer True (kept by a semi-join).
                self.assertTrue(_columns.query_column(f, v).all())

    def test_columns_across_chunks(self):
        import numpy as np
        import pandas as pd
        import bloomkit
        from unittest import mock
        from bloomkit import _columns
        from bloomkit.encoding import key_bytes

        ints = pd.Series([1, None, 3, 4, None, 6, 7, 8], dtype="Int64")
        objs = ["a", None, "b", b"c", 5, None, "d"]
        with mock.patch.object(_columns, "CHUNK", 3):  # rows 0-2, 3-5, 6-7
            for v in (ints, objs, np.arange(10, 20, dtype=np.int64)):
                with self.subTest(values=repr(list(v))[:40]):
                    f = bloomkit.Filter(capacity=100, fp_rate=1e-6)
                    present = [key_bytes(x) for x in list(v)]
                    f.add_many(b for b in present[::2] if b is not None)
                    asked = _columns.query_column(f, v)
                    self.assertEqual(asked.tolist(), [b is None or b in f for b in present])
                    self.assertEqual(asked.tolist()[::2], [True] * len(present[::2]))
                    g = bloomkit.Filter(capacity=100, fp_rate=1e-6)
                    self.assertEqual(_columns.add_column(g, v), sum(b is not None for b in present))
                    h = bloomkit.Filter(capacity=100, fp_rate=1e-6)
                    h.add_many(b for b in present if b is not None)
                    self.assertEqual(g.to_bytes(), h.to_bytes())

    def test_float_and_bool_columns_are_refused(self):
        import pandas as pd
        import bloomkit
        from bloomkit import _columns

        f = bloomkit.Filter(capacity=10)
        for bad in (pd.Series([1.0]), pd.Series([True])):
            with self.assertRaisesRegex(TypeError, "cast it to int or str"):
                _columns.add_column(f, bad)
        with self.assertRaises(TypeError):
            _columns.add_column(f, "abc")


class LocalSchedulers(unittest.TestCase):
    def test_build_equals_one_filter_with_threads_and_sync_schedulers(self):
        import dask
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit
        import bloomkit.dask as bd
        from bloomkit.encoding import int_key

        s = dd.from_pandas(pd.Series(range(5000)), npartitions=9)
        expected = bloomkit.Filter(capacity=5000, fp_rate=0.01, kind="blocked", seed=42)
        expected.add_many(int_key(i) for i in range(5000))
        counting = bloomkit.Filter(capacity=5000, fp_rate=0.01, kind="counting")
        counting.add_many(int_key(i) for i in range(5000))
        for scheduler in ("sync", "threads"):
            with self.subTest(scheduler=scheduler), dask.config.set(scheduler=scheduler):
                built = bd.build(s, 5000, 0.01, kind="blocked", seed=42)
                self.assertEqual(built.to_bytes(), expected.to_bytes())
                # the threads fold into one filter each: counters once each
                built = bd.build(s, 5000, 0.01, kind="counting")
                self.assertEqual(built.to_bytes(), counting.to_bytes())
                self.assertEqual(built.info.keys_added, 5000)

    def test_a_failed_build_leaves_no_filter_behind(self):
        import dask
        import dask.bag as db
        import bloomkit.dask as bd
        from bloomkit import _worker_fold

        bag = db.from_sequence(["a", "b", 1.5, "c"], npartitions=4)
        for scheduler in ("sync", "threads"):
            with self.subTest(scheduler=scheduler), dask.config.set(scheduler=scheduler):
                with self.assertRaisesRegex(TypeError, "not float"):
                    bd.build(bag, 100)
                self.assertEqual(_worker_fold._state.pools, {})

    def test_the_tree_merges_split_every_at_a_time(self):
        import dask.bag as db
        import bloomkit.dask as bd

        d = bd.build_delayed(db.from_sequence(range(100), npartitions=20), 100, split_every=4)
        graph = dict(d.__dask_graph__())
        merges = [v for k, v in graph.items() if str(k).startswith("_merge")]
        # 20 leaves -> 5 nodes -> 2 -> 1: 8 merges of at most 4 children.
        self.assertEqual(len(merges), 8)
        self.assertTrue(all(len(task) - 1 <= 4 for task in merges))

    def test_semi_join_puts_the_filter_in_the_graph_once(self):
        import dask
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit
        import bloomkit.dask as bd

        f = bloomkit.Filter(capacity=100, fp_rate=0.001)
        f.add_many(["b", "d"])
        left = dd.from_pandas(pd.DataFrame({"k": list("abcdef") * 4, "v": range(24)}), npartitions=6)
        with dask.config.set(scheduler="sync"):
            kept = bd.semi_join(left, f, on="k")
            graph = dict(kept.__dask_graph__())
            shared = [v for v in graph.values() if isinstance(v, bd.SharedFilter)]
            self.assertEqual(len(shared), 1)
            result = kept.compute()
        self.assertEqual(sorted(set(result.k)), ["b", "d"])
        self.assertEqual(len(result), 8)

    def test_refusals(self):
        import dask.bag as db
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit
        import bloomkit.dask as bd

        bag = db.from_sequence(["a"], npartitions=1)
        with self.assertRaisesRegex(ValueError, "cannot build a 'scalable' filter: it grows.*classic"):
            bd.build(bag, 10, kind="scalable")
        with self.assertRaisesRegex(ValueError, "cannot build a 'window' filter: its filters cannot be merged"):
            bd.build(bag, 10, kind="window")
        # by capability: every kind the library can merge, and no other
        self.assertEqual(set(bd.MERGEABLE_KINDS), {"classic", "partitioned", "blocked", "counting"})
        with self.assertRaisesRegex(ValueError, "unknown kind"):
            bd.build(bag, 10, kind="cuckoo")
        with self.assertRaises(bloomkit.BloomInvalidArgumentError):
            bd.build(bag, 10, fp_rate=1.5)
        with self.assertRaisesRegex(ValueError, "concurrent"):
            bd.build(bag, 10, concurrent=True)
        with self.assertRaisesRegex(TypeError, "on="):
            bd.build(dd.from_pandas(pd.DataFrame({"k": ["a"]}), npartitions=1), 10)
        with self.assertRaisesRegex(TypeError, "dask Bag, Series or DataFrame"):
            bd.build(["a", "b"], 10)
        with self.assertRaisesRegex(ValueError, "split_every"):
            bd.build(bag, 10, split_every=1)
        df = dd.from_pandas(pd.DataFrame({"k": ["a"]}), npartitions=1)
        with self.assertRaisesRegex(KeyError, "no column 'x'"):
            bd.semi_join(df, bloomkit.Filter(capacity=10), on="x")
        with self.assertRaisesRegex(TypeError, "needs on="):
            bd.semi_join(df, bloomkit.Filter(capacity=10))
        with self.assertRaisesRegex(TypeError, "only when right is a collection"):
            bd.semi_join(df, bloomkit.Filter(capacity=10), on="k", capacity=5)
        with self.assertRaisesRegex(TypeError, "broadcast takes a bloomkit.Filter"):
            bd.broadcast(b"abc")

    def test_a_scalable_filter_can_still_drive_a_semi_join(self):
        import dask
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit
        import bloomkit.dask as bd

        f = bloomkit.Filter(capacity=2, fp_rate=0.001, kind="scalable")
        f.add_many(["a", "b", "c", "d", "e"])  # grows past its first stage
        left = dd.from_pandas(pd.DataFrame({"k": list("abcdefghij")}), npartitions=2)
        with dask.config.set(scheduler="sync"):
            self.assertGreaterEqual(set(bd.semi_join(left, f, on="k").compute().k), set("abcde"))


class WorkerFoldState(unittest.TestCase):
    """The per-process state behind build on a cluster (no Dask needed)."""

    def test_threads_get_their_own_filter_and_a_taken_round_is_closed(self):
        from bloomkit._worker_fold import _WorkerState

        state, params, r = _WorkerState(), dict(capacity=100, fp_rate=0.01), ("w1", "b", 0)
        a = state.acquire(r, params)
        b = state.acquire(r, params)  # a is busy: another thread gets another filter
        self.assertIsNot(a, b)
        a.partitions.append(0)
        state.release(a)
        self.assertIs(state.acquire(r, params), a)  # free again: reused
        state.release(a)
        state.release(b)
        self.assertEqual(sorted(len(x.partitions) for x in state.take(r)), [0, 1])
        self.assertIsNone(state.acquire(r, params), "a late fold of a taken round is ignored")
        self.assertEqual(state.take(r), [])
        other = ("w2", "b", 0)  # another worker of the same process keeps its own
        self.assertIsNotNone(state.acquire(other, params))

    def test_forget_drops_a_build_and_refuses_its_late_folds(self):
        from bloomkit._worker_fold import _WorkerState

        state, params = _WorkerState(), dict(capacity=100, fp_rate=0.01)
        state.release(state.acquire(("w", "b", 0), params))
        state.forget("b")
        self.assertEqual(state.take(("w", "b", 0)), [])
        self.assertIsNone(state.acquire(("w", "b", 1), params))
        self.assertIsNotNone(state.acquire(("w", "c", 0), params))


if __name__ == "__main__":
    unittest.main()
