# SPDX-License-Identifier: Apache-2.0
"""Threads: ctypes releases the GIL during each call, so Python threads reach
the library at the same time; with concurrent=True adds from many threads
are allowed and lose nothing."""

import threading
import time
import unittest

import bloomkit


class ConcurrentAddTest(unittest.TestCase):
    def test_parallel_add_many_loses_no_key(self):
        f = bloomkit.Filter(capacity=200000, fp_rate=0.01, concurrent=True)
        self.assertTrue(f.info.concurrent)
        parts = [[f"t{t}-{i}" for i in range(25000)] for t in range(4)]
        start = threading.Barrier(len(parts))

        def work(keys):
            start.wait()
            for i in range(0, len(keys), 1000):  # many calls, to interleave
                f.add_many(keys[i : i + 1000])

        threads = [threading.Thread(target=work, args=(p,)) for p in parts]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for p in parts:
            self.assertTrue(all(f.contains_many(p)))
        self.assertEqual(f.info.keys_added, 100000)

    def test_parallel_test_and_add_reports_each_new_key_once(self):
        # bloom.h: with BLOOM_FLAG_CONCURRENT, when several threads add the same
        # new key at once exactly one of them is told it was new.
        f = bloomkit.Filter(capacity=100000, fp_rate=0.001, concurrent=True)
        keys = [f"dup-{i}" for i in range(5000)]
        new_counts = [0] * 4
        start = threading.Barrier(4)

        def work(slot):
            start.wait()
            new_counts[slot] = sum(not f.test_and_add(k) for k in keys)

        threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # Every key was certainly new to exactly one thread, except keys that
        # were already false positives when first added (p <= 0.001 at this
        # fill: at most a handful of the 5,000).
        self.assertLessEqual(sum(new_counts), 5000)
        self.assertGreater(sum(new_counts), 4950)


class CloseReleasesAtOnceTest(unittest.TestCase):
    def test_close_releases_the_filter_while_an_exception_from_a_batch_is_kept(self):
        # A kept exception keeps its traceback's frames; none of them may hold
        # the handle, or close() would not release the memory (or mapping).
        import weakref

        def failing_keys():
            yield b"a"
            raise RuntimeError("the key source failed")

        for method in ("add_many", "contains_many"):
            with self.subTest(method=method):
                f = bloomkit.Filter(capacity=1000)
                handle = weakref.ref(f._handle)
                try:
                    getattr(f, method)(failing_keys())
                except RuntimeError as e:
                    kept = e
                f.close()
                self.assertIsNone(handle(), "the filter outlived close()")
                self.assertIsNotNone(kept.__traceback__)


class CloseWhileInUseTest(unittest.TestCase):
    def test_close_during_a_call_in_another_thread_does_not_free_memory_under_it(self):
        # The handle is reference-counted (_native.Handle): close() while a
        # query of a 64 MiB key (milliseconds of hashing, GIL released) runs
        # in another thread defers bloom_destroy until that call returns.
        # Before, the filter's 12 MB mapping was unmapped under the query and
        # the interpreter died of a segmentation fault.
        big = b"x" * (64 << 20)
        for _ in range(5):
            f = bloomkit.Filter(capacity=10_000_000)
            f.add(big)
            outcome = []

            def query():
                try:
                    outcome.append(big in f)
                except ValueError:  # close() won the race: a clean error
                    outcome.append("closed")

            t = threading.Thread(target=query)
            t.start()
            time.sleep(0.002)  # most often, close() lands while the key is being hashed
            f.close()
            t.join()
            self.assertIn(outcome[0], (True, "closed"))
            self.assertTrue(f.closed)
            with self.assertRaises(ValueError):
                f.add("x")


if __name__ == "__main__":
    unittest.main()
