# SPDX-License-Identifier: Apache-2.0
"""bloomkit.dask on a real distributed.LocalCluster: 2 worker processes
(not threads), started once for this module and always closed."""

import logging
import os
import tempfile
import unittest

from dask_helpers import require_dask

TIMEOUT = 120  # seconds for any one computation (the CI machine may be loaded)
cluster = client = None


def setUpModule():
    require_dask()
    global cluster, client
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                           silence_logs=logging.WARNING, scheduler_port=0)
    try:
        client = Client(cluster, timeout=TIMEOUT)
        client.wait_for_workers(2, timeout=TIMEOUT)
    except BaseException:
        cluster.close()
        raise


def tearDownModule():
    if client is not None:
        client.close()
    if cluster is not None:
        cluster.close()


def reference(keys, **params):
    """One filter built in this process from all the keys, through the core
    package and the documented encoding (not bloomkit._columns)."""
    import bloomkit
    from bloomkit.encoding import key_bytes

    f = bloomkit.Filter(**params)
    f.add_many(b for b in map(key_bytes, keys) if b is not None)
    return f


def walk(task):
    """Every object inside a task tuple (its function and arguments)."""
    yield task
    if isinstance(task, (tuple, list)):
        for item in task:
            yield from walk(item)
    elif isinstance(task, dict):
        for item in task.values():
            yield from walk(item)


def loads_per_worker():
    import bloomkit.dask as bd
    return client.run(bd.loads_in_this_process)


class BuildOnTheCluster(unittest.TestCase):
    def test_two_worker_processes(self):
        pids = client.run(os.getpid)
        self.assertEqual(len(pids), 2)
        self.assertEqual(len(set(pids.values())), 2)
        self.assertNotIn(os.getpid(), pids.values())

    def test_every_mergeable_kind_equals_one_filter_of_all_keys(self):
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit.dask as bd

        keys = pd.Series([f"user-{i}" for i in range(3000)] + ["user-7"] * 5)
        ddf = dd.from_pandas(pd.DataFrame({"k": keys, "v": 1}), npartitions=11)
        for kind in bd.MERGEABLE_KINDS:
            with self.subTest(kind=kind):
                built = bd.build(ddf, capacity=3000, fp_rate=0.01, kind=kind, on="k", split_every=3)
                expected = reference(keys, capacity=3000, fp_rate=0.01, kind=kind)
                self.assertEqual(built.to_bytes(), expected.to_bytes())
                self.assertEqual(built.info.keys_added, 3005)

    def test_persisted_and_computed_partitions_build_the_same_filter(self):
        # Each fold is fused with the tasks making its partition; keys that
        # are already in the workers' memory (persisted) or that several
        # outputs share must still be folded exactly once.
        import dask.dataframe as dd
        import pandas as pd
        from distributed import wait
        import bloomkit.dask as bd

        keys = pd.Series([f"p-{i}" for i in range(4000)])
        expected = reference(keys, capacity=4000, fp_rate=0.01, kind="blocked").to_bytes()
        column = dd.from_pandas(keys, npartitions=9).map_partitions(lambda s: s + "", meta=keys)
        persisted = client.persist(column)
        wait(persisted, timeout=TIMEOUT)
        for name, source in (("computed", column), ("persisted", persisted)):
            with self.subTest(source=name):
                built = bd.build(source, capacity=4000, fp_rate=0.01, kind="blocked")
                self.assertEqual(built.to_bytes(), expected)
                self.assertEqual(built.info.keys_added, 4000)

    def test_int_str_and_bytes_keys_match_the_documented_encoding(self):
        import dask.bag as db
        import dask.dataframe as dd
        import numpy as np
        import pandas as pd
        import bloomkit.dask as bd

        ints = np.array([0, 1, -1, 2**63 - 1, -2**63] + list(range(1000, 3000)), dtype=np.int64)
        for name, collection, keys in (
                ("int64 Series", dd.from_pandas(pd.Series(ints), npartitions=5), ints.tolist()),
                ("int32 Series", dd.from_pandas(pd.Series(ints[5:].astype(np.int32)), npartitions=4),
                 ints[5:].tolist()),
                ("nullable Int64 with NA", dd.from_pandas(pd.Series([5, None, 6] * 100, dtype="Int64"),
                                                          npartitions=3), [5, 6] * 100),
                ("Bag of Python ints", db.from_sequence(ints.tolist(), npartitions=6), ints.tolist()),
                ("Bag of bytes", db.from_sequence([b"\x00\xff", b"", b"abc"] * 7, npartitions=2),
                 [b"\x00\xff", b"", b"abc"] * 7),
                ("str with None", dd.from_pandas(pd.Series(["é", None, "x"] * 50), npartitions=3),
                 ["é", "x"] * 50)):
            with self.subTest(collection=name):
                built = bd.build(collection, capacity=len(keys), fp_rate=0.001)
                self.assertEqual(built.to_bytes(), reference(keys, capacity=len(keys), fp_rate=0.001).to_bytes())
        # 1 is the 8 bytes 01 00 .. 00, not b"1"
        one = bd.build(db.from_sequence([1], npartitions=1), capacity=1000, fp_rate=1e-6)
        self.assertIn(b"\x01" + bytes(7), one)
        self.assertNotIn(b"1", one)

    def test_bad_keys_fail_with_the_workers_error(self):
        import dask.bag as db
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit.dask as bd

        with self.assertRaisesRegex(TypeError, "float64 column"):
            bd.build(dd.from_pandas(pd.Series([1.5, 2.5]), npartitions=1), capacity=10)
        with self.assertRaisesRegex(TypeError, "not float"):
            bd.build(db.from_sequence(["a", 2.5], npartitions=1), capacity=10)
        with self.assertRaisesRegex(OverflowError, "int64"):
            bd.build(db.from_sequence([2**63], npartitions=1), capacity=10)
        with self.assertRaisesRegex(OverflowError, "int64"):
            bd.build(dd.from_pandas(pd.Series([2**64 - 1], dtype="uint64"), npartitions=1), capacity=10)


    def test_one_filter_per_worker_crosses_between_processes(self):
        import dask.dataframe as dd
        import numpy as np
        import pandas as pd
        import bloomkit.dask as bd
        from dask_helpers import filters_sent, transfers_so_far

        keys = pd.Series(np.arange(40000, dtype=np.int64) * 31)
        ddf = dd.from_pandas(keys, npartitions=16)
        before = client.run(transfers_so_far)
        built = bd.build(ddf, capacity=40000, fp_rate=0.01, kind="blocked", split_every=2)
        sent = {w: client.run(filters_sent, since=n, workers=[w])[w] for w, n in before.items()}
        self.assertEqual(built.to_bytes(), reference(keys, capacity=40000, fp_rate=0.01, kind="blocked").to_bytes())
        # 16 partitions on 2 workers: one worker's filter goes to the other
        # (or both to a third place) and the union to this client; never
        # one per partition.
        self.assertLessEqual(sum(sent.values()), 2, sent)
        self.assertGreaterEqual(sum(sent.values()), 1, sent)

    def test_build_delayed_on_the_cluster_is_exact_too(self):
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit.dask as bd

        keys = pd.Series([f"k{i}" for i in range(2000)])
        delayed = bd.build_delayed(dd.from_pandas(keys, npartitions=7), capacity=2000, kind="counting",
                                   split_every=3)
        built = client.compute(delayed).result(timeout=TIMEOUT)
        self.assertEqual(built.to_bytes(), reference(keys, capacity=2000, kind="counting").to_bytes())


class SemiJoinOnTheCluster(unittest.TestCase):
    def test_keeps_every_matching_row_and_the_join_is_unchanged(self):
        import dask.dataframe as dd
        import numpy as np
        import pandas as pd
        import bloomkit.dask as bd

        rng = np.random.default_rng(1)
        users = pd.DataFrame({"user": np.arange(0, 4000, 4, dtype=np.int64), "name": "x"})
        clicks = pd.DataFrame({"user": rng.integers(0, 40000, 50000), "page": rng.integers(0, 9, 50000)})
        large = dd.from_pandas(clicks, npartitions=24)
        small = dd.from_pandas(users, npartitions=3)

        before = loads_per_worker()
        kept_dd = bd.semi_join(large, small, on="user", fp_rate=0.01)
        kept = kept_dd.compute()
        after = loads_per_worker()

        matching = clicks[clicks.user.isin(users.user)]
        self.assertTrue(matching.index.isin(kept.index).all(), "a matching row was dropped")
        removed = len(clicks) - len(kept)
        # 1000 of 40000 ids match; the rest go, except ~1% false positives.
        self.assertGreater(removed, 0.9 * (len(clicks) - len(matching)))
        joined = kept.merge(users, on="user").sort_values(["user", "page"]).reset_index(drop=True)
        plain = clicks.merge(users, on="user").sort_values(["user", "page"]).reset_index(drop=True)
        pd.testing.assert_frame_equal(joined, plain)
        # 24 partitions, 2 workers: the filter was loaded once per worker.
        self.assertEqual(set(after), set(before), "a worker restarted during the test")
        self.assertEqual({w: after[w] - before[w] for w in after}, {w: 1 for w in after})

    def test_a_filter_is_scattered_once_and_every_task_reads_the_same_key(self):
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit
        import bloomkit.dask as bd
        from distributed import Future

        f = bloomkit.Filter(capacity=100, fp_rate=0.01)
        f.add_many(["a", "c"])
        left = dd.from_pandas(pd.DataFrame({"k": list("abcdefgh") * 10}), npartitions=16)
        before = loads_per_worker()
        kept = bd.semi_join(left, f, on="k")
        # Every task of the semi-join takes the same scattered Future, and
        # no task carries the filter itself.
        layer = [v for k, v in dict(kept.__dask_graph__()).items()
                 if isinstance(k, tuple) and k[0].startswith("_keep_rows")]
        self.assertEqual(len(layer), 16)
        keys = set()
        for task in layer:
            args = list(walk(task))
            self.assertFalse(any(isinstance(a, (bloomkit.Filter, bd.SharedFilter, bytes)) for a in args))
            futures = [a.key for a in args if isinstance(a, Future)]
            self.assertEqual(len(futures), 1)
            keys.update(futures)
        self.assertEqual(len(keys), 1, "one scattered filter for all tasks")
        result = kept.compute()
        self.assertEqual(set(result.k), {"a", "c"} | (set(result.k) - {"a", "c"}))
        self.assertGreaterEqual(set(result.k), {"a", "c"})
        self.assertEqual(len(result[result.k == "a"]), 10)
        after = loads_per_worker()
        self.assertEqual({w: after[w] - before[w] for w in after}, {w: 1 for w in after})

    def test_series_and_bag_left_sides(self):
        import dask.bag as db
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit
        import bloomkit.dask as bd
        from bloomkit.encoding import int_key

        f = bloomkit.Filter(capacity=1000, fp_rate=1e-4)
        f.add_many(int_key(i) for i in range(0, 1000, 10))
        s = bd.semi_join(dd.from_pandas(pd.Series(range(1000)), npartitions=4), f).compute()
        self.assertGreaterEqual(set(s), set(range(0, 1000, 10)))
        self.assertLess(len(s), 110)
        b = bd.semi_join(db.from_sequence(list(range(1000)) + [None], npartitions=4), f).compute()
        self.assertGreaterEqual(set(b), set(range(0, 1000, 10)) | {None})


    def test_a_local_scheduler_while_a_client_is_active(self):
        import warnings
        import dask.dataframe as dd
        import pandas as pd
        import bloomkit
        import bloomkit.dask as bd

        f = bloomkit.Filter(capacity=100, fp_rate=1e-4)
        f.add("b")
        kept = bd.semi_join(dd.from_pandas(pd.DataFrame({"k": list("abc") * 5}), npartitions=3), f, on="k")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Dask warns about a local scheduler beside a Client
            local = kept.compute(scheduler="sync")
        self.assertEqual(list(local.k), ["b"] * 5)


class ThreadsOfOneWorker(unittest.TestCase):
    """A worker with 2 threads folds into up to 2 filters and merges them
    itself; two such workers in this process keep theirs apart."""

    def test_threads_and_workers_sharing_a_process(self):
        import dask.dataframe as dd
        import numpy as np
        import pandas as pd
        from distributed import Client, LocalCluster
        import bloomkit.dask as bd

        keys = pd.Series(np.arange(30000, dtype=np.int64) - 15000)
        for workers in (1, 2):
            with self.subTest(workers=workers), \
                    LocalCluster(n_workers=workers, threads_per_worker=2, processes=False,
                                 dashboard_address=":0", silence_logs=logging.WARNING) as local, \
                    Client(local, set_as_default=False) as c, c.as_current():
                for kind in ("counting", "blocked"):
                    built = bd.build(dd.from_pandas(keys, npartitions=12), capacity=30000, kind=kind)
                    expected = reference(keys, capacity=30000, kind=kind)
                    self.assertEqual(built.to_bytes(), expected.to_bytes())
                    self.assertEqual(built.info.keys_added, 30000)


class ZWorkerKilledMidBuild(unittest.TestCase):
    """Runs last (unittest orders classes by name): it kills workers."""

    def expected(self, parts, per):
        import pandas as pd
        from dask_helpers import int_partition

        all_keys = pd.concat([int_partition(i, per) for i in range(parts)])
        return reference(all_keys.tolist(), capacity=parts * per, fp_rate=0.01, kind="counting")

    def test_a_worker_killed_while_folding(self):
        import dask.dataframe as dd
        import bloomkit.dask as bd
        from dask_helpers import partition_killing_its_worker

        parts, per = 12, 2000
        with tempfile.TemporaryDirectory() as marks:
            pids_before = set(client.run(os.getpid).values())
            keys = dd.from_map(partition_killing_its_worker, range(parts), per_partition=per,
                               marker_dir=marks, victim=7, enforce_metadata=False)
            # counting: a partition folded twice would show in the counters
            built = bd.build(keys, capacity=parts * per, fp_rate=0.01, kind="counting", split_every=4)
            attempts = sorted(os.listdir(marks))
            client.wait_for_workers(2, timeout=TIMEOUT)  # the nanny restarts the killed one
            pids_after = set(client.run(os.getpid).values())

        victim_runs = [a for a in attempts if a.startswith("attempt-7-")]
        self.assertEqual(len(victim_runs), 2, f"partition 7 should run twice: {attempts}")
        killed = int(victim_runs[0].split("pid")[1])
        self.assertIn(killed, pids_before)
        self.assertNotIn(killed, pids_after)
        self.assertEqual(built.to_bytes(), self.expected(parts, per).to_bytes())
        self.assertEqual(built.info.keys_added, parts * (per + 10))

    def test_a_worker_killed_after_folding_before_its_filter_is_taken(self):
        import signal
        import dask.dataframe as dd
        import bloomkit.dask as bd
        import pandas as pd
        from dask_helpers import counted_partition, folded_here

        parts, per = 12, 2000
        lost, rounds = [], []

        def kill_a_worker_holding_partitions(c, build_id, round_):
            rounds.append(round_)
            if round_ == 0:
                held = c.run(folded_here, build_id, round_)
                victim = next(w for w, partitions in held.items() if partitions)
                lost.extend(held[victim])
                os.kill(c.run(os.getpid, workers=[victim])[victim], signal.SIGKILL)

        with tempfile.TemporaryDirectory() as marks:
            client.wait_for_workers(2, timeout=TIMEOUT)
            # meta given: else from_map makes partition 0 here to infer it
            keys = dd.from_map(counted_partition, range(parts), per_partition=per, marker_dir=marks,
                               meta=pd.Series(dtype="int64"), enforce_metadata=False)
            built = bd._build(keys, capacity=parts * per, fp_rate=0.01, kind="counting",
                              after_fold=kill_a_worker_holding_partitions)
            attempts = sorted(os.listdir(marks))

        self.assertEqual(rounds, [0, 1])
        made_again = sorted(int(a.split("-")[1]) for a in attempts if a.split("-")[2] == "2")
        self.assertEqual(made_again, lost, "exactly the lost partitions are made again")
        self.assertEqual(built.to_bytes(), self.expected(parts, per).to_bytes())
        self.assertEqual(built.info.keys_added, parts * (per + 10))

    def test_a_partition_folded_twice_is_not_counted_twice(self):
        import dask.dataframe as dd
        import bloomkit.dask as bd
        from bloomkit import _worker_fold
        from dask_helpers import int_partition

        parts, per = 6, 2000
        params = dict(capacity=parts * per, fp_rate=0.01, kind="counting")
        rounds = []

        def fold_partition_3_again(c, build_id, round_):
            rounds.append(round_)
            if round_ == 0:  # as if Dask had run one fold twice
                w = next(iter(c.nthreads()))
                c.submit(_worker_fold._fold, int_partition(3, per), build_id, round_, 3, params,
                         workers=[w], pure=False).result(timeout=TIMEOUT)

        client.wait_for_workers(2, timeout=TIMEOUT)
        keys = dd.from_map(int_partition, range(parts), per_partition=per, enforce_metadata=False)
        built = bd._build(keys, after_fold=fold_partition_3_again, **params)
        self.assertEqual(rounds, [0, 1], "the build started again")
        self.assertEqual(built.to_bytes(), self.expected(parts, per).to_bytes())
        self.assertEqual(built.info.keys_added, parts * (per + 10))


if __name__ == "__main__":
    unittest.main()
