# SPDX-License-Identifier: Apache-2.0
"""The window kind from Python: count and time windows, the clock
(a callable, the default monotonic one, or None with advance()), save and
load resuming, test_and_add_many, and the refusals."""

import os
import pickle
import tempfile
import unittest

import bloomkit
from bloomkit import BloomUnsupportedError


class FakeClock:
    def __init__(self, now=0):
        self.now = now

    def __call__(self):
        return self.now


class CountWindowTest(unittest.TestCase):
    def test_remembers_the_last_w_and_forgets_older(self):
        f = bloomkit.Filter(kind="window", capacity=1000, fp_rate=0.001)
        info = f.info
        self.assertEqual(info.kind, "window")
        self.assertEqual(info.window_ms, 0)
        self.assertGreater(info.window_l, 0)
        keys = [f"k{i}" for i in range(5000)]
        answers = f.test_and_add_many(keys)
        self.assertLess(sum(answers), 20)  # all new: false positives only
        self.assertTrue(all(f.contains_many(keys[-1000:])))
        forget = (info.window_l + 1) * info.generation_capacity
        old = keys[: 5000 - forget]
        self.assertLess(sum(f.contains_many(old)), 0.01 * len(old) + 10)
        with self.assertRaises(BloomUnsupportedError):
            f.advance(5)

    def test_repeat_within_a_batch_is_found(self):
        f = bloomkit.Filter(kind="window", capacity=100, fp_rate=0.01)
        self.assertEqual(f.test_and_add_many(["a", "b", "a"]), [False, False, True])
        self.assertTrue(f.test_and_add("b"))

    def test_merge_is_refused(self):
        f = bloomkit.Filter(kind="window", capacity=100, fp_rate=0.01)
        with self.assertRaises(BloomUnsupportedError):
            f.update(f.copy())


class TimeWindowTest(unittest.TestCase):
    def test_callable_clock_forgets_after_the_window(self):
        clock = FakeClock(10_000)
        f = bloomkit.Filter(kind="window", capacity=1000, fp_rate=0.01, window_seconds=60, clock=clock)
        self.assertEqual(f.info.window_ms, 60_000)
        f.add("x")
        clock.now += 59_999
        self.assertIn("x", f)
        # Guaranteed for the window; then it fades over k generations and is
        # gone once all k of its slices are cleared.
        clock.now += f.info.window_k * f.info.generation_ms + 1
        self.assertNotIn("x", f)

    def test_manual_clock_and_save_load_resume(self):
        f = bloomkit.Filter(kind="window", capacity=1000, fp_rate=0.01, window_ms=10_000, clock=None)
        f.advance(1_000)
        f.add("y")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "w.bloom")
            f.save(path)
            g = bloomkit.Filter.load(path)
        g.set_clock(None)
        self.assertEqual(g.info.clock_ms, 1_000)
        g.advance(10_999)
        self.assertIn("y", g)
        g.advance(10_000 + 1_000 + g.info.window_k * g.info.generation_ms)
        self.assertNotIn("y", g)
        h = pickle.loads(pickle.dumps(f))
        self.assertEqual(h.to_bytes(), f.to_bytes())

    def test_default_clock_is_monotonic(self):
        f = bloomkit.Filter(kind="window", capacity=1000, fp_rate=0.01, window_seconds=3600)
        f.add("z")
        self.assertIn("z", f)
        now = bloomkit.filter.monotonic_ms()
        self.assertLessEqual(abs(f.info.clock_ms - now), 60_000)

    def test_bad_window_arguments(self):
        with self.assertRaises(ValueError):
            bloomkit.Filter(kind="window", window_ms=10, window_seconds=1)
        with self.assertRaises(ValueError):
            bloomkit.Filter(kind="classic", window_ms=10)
        with self.assertRaises(TypeError):
            bloomkit.Filter(kind="window", window_ms=1.5)


if __name__ == "__main__":
    unittest.main()
