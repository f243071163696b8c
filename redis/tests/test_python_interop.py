# SPDX-License-Identifier: Apache-2.0
"""Filters move between bloom's Python package and Redis, both ways.

A filter built with bloomkit.Filter loads into Redis through BF.LOADCHUNK, and
BF.SCANDUMP output loads back with bloomkit.Filter.from_bytes, answering the
same for added keys (all present) and for absent probes (bit for bit).
Registered only when the source tree has the Python package (python/bloomkit).
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import redis_harness as h  # noqa: E402

h.require_redis()
MODULE, _ = h.test_paths()
import bloomkit  # noqa: E402  (PYTHONPATH: the source tree's python/)


def keys(prefix, n):
    return ["%s%d" % (prefix, i) for i in range(n)]


def batched(r, cmd, key, items, batch=2000):
    out = []
    for i in range(0, len(items), batch):
        out += r.execute_command(cmd, key, *items[i:i + batch])
    return out


class PythonInterop(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = h.RedisServer(MODULE).start()
        cls.r = cls.server.client()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def check_python_to_redis(self, kind):
        f = bloomkit.Filter(capacity=5000, fp_rate=0.01, kind=kind)
        items = keys("py:", 20000 if kind == "scalable" else 5000)
        f.add_many(items)
        image = f.to_bytes()
        step = 4096  # many chunks; the iterator is each chunk's end offset
        for off in range(0, len(image), step):
            chunk = image[off:off + step]
            self.r.execute_command("BF.LOADCHUNK", "frompy:" + kind, off + len(chunk), chunk)
        self.assertEqual(batched(self.r, "BF.MEXISTS", "frompy:" + kind, items), [1] * len(items))
        probes = keys("absent:", 5000)
        self.assertEqual(batched(self.r, "BF.MEXISTS", "frompy:" + kind, probes),
                         [int(x) for x in f.contains_many(probes)])

    def test_a_fractional_growth_factor_is_reported_as_it_is(self):
        # BF.RESERVE takes whole EXPANSION factors; a file may hold any. 1.5
        # used to be reported as 1.
        for growth, expected in ((1.5, b"1.5"), (3.0, 3)):
            image = bloomkit.Filter(capacity=100, fp_rate=0.01, kind="scalable", growth=growth).to_bytes()
            # A first chunk never replaces a live filter: a fresh key each.
            key = "grow%g" % growth
            self.r.execute_command("BF.LOADCHUNK", key, len(image), image)
            self.assertEqual(self.r.execute_command("BF.INFO", key, "EXPANSION"), [expected])

    def test_python_classic_to_redis(self):
        self.check_python_to_redis("classic")

    def test_python_scalable_to_redis(self):
        self.check_python_to_redis("scalable")

    def test_redis_to_python(self):
        r = self.r
        for name, extra in (("toy:scalable", []), ("toy:classic", ["NONSCALING"])):
            r.execute_command("BF.RESERVE", name, 0.01, 3000, *extra)
            items = keys(name + ":", 3000)
            batched(r, "BF.MADD", name, items)
            image, it = b"", 0
            while True:
                it, chunk = r.execute_command("BF.SCANDUMP", name, it)
                if it == 0:
                    break
                image += chunk
            f = bloomkit.Filter.from_bytes(image)
            self.assertTrue(all(f.contains_many(items)), name)
            probes = keys("absent:", 5000)
            self.assertEqual([int(x) for x in f.contains_many(probes)],
                             batched(r, "BF.MEXISTS", name, probes), name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
