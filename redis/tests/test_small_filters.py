# SPDX-License-Identifier: Apache-2.0
"""Small filters are stored compactly and answer exactly as live filters do.

A filter of one stage and at most 64 KiB of bits is kept as its bits and a few
counts. These tests check that nothing about it differs from the filter the
library would hold after the same commands: every reply, BF.CARD, BF.INFO's
fields, and the serialized image (BF.SCANDUMP) byte for byte against
bloomkit.Filter given the same parameters and the same test-and-add calls;
through growth, DUMP and
RESTORE, COPY, DEBUG RELOAD, and the key's TTL. And that it is small: MEMORY
USAGE of BF.RESERVE k 0.05 1000 is at most RedisBloom's 1,104 bytes. The
same in bf-encoding redisbloom, whose small filters (RedisBloom's hash and
type) are kept compactly too.
Registered only when the source tree has the Python package (python/bloomkit).
"""

import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import redis_harness as h  # noqa: E402

h.require_redis()
MODULE, _ = h.test_paths()
import bloomkit  # noqa: E402  (PYTHONPATH: the source tree's python/)

# The module's scalable filters tighten each stage's rate by half
# (RedisBloom's rule), and BF.ADD on a missing key creates 100 items at 1 %.
TIGHTENING = 0.5


def image_of(r, key):
    """The key's filter as BF.SCANDUMP walks it: bloom's serialized image."""
    image, it = b"", 0
    while True:
        it, chunk = r.execute_command("BF.SCANDUMP", key, it)
        if it == 0:
            return image
        image += chunk


def reference(capacity, error, expansion, hash="xxh3"):
    if expansion == 0:
        return bloomkit.Filter(capacity=capacity, fp_rate=error, kind="classic", hash=hash)
    return bloomkit.Filter(capacity=capacity, fp_rate=error, kind="scalable", growth=expansion,
                           tightening=TIGHTENING, hash=hash)


def bits_of(r, key):
    """A one-stage filter's bits, from RedisBloom's BF.SCANDUMP stream (a
    header chunk, then the bits)."""
    it, chunks = 0, []
    while True:
        it, chunk = r.execute_command("BF.SCANDUMP", key, it)
        if it == 0:
            return b"".join(chunks[1:])
        chunks.append(chunk)


def image_bits(image):
    """The one stage's bits in bloom's image (docs/FORMAT.md)."""
    scalable = struct.unpack_from("<H", image, 14)[0] == 5
    m = struct.unpack_from("<Q", image, 128 if scalable else 40)[0]
    start = 128 + (64 if scalable else 0)
    return image[start:start + (m + 63) // 64 * 8]


class SmallFilters(h.DebugServerCase):
    module = MODULE
    hash = "xxh3"

    def same_filter(self, key, ref, what):
        """The key holds the filter ref is, byte for byte."""
        self.assertEqual(image_of(self.r, key), ref.to_bytes(), what)

    def reference(self, capacity, error, expansion):
        return reference(capacity, error, expansion, self.hash)

    def reserve(self, key, capacity, error, expansion):
        args = ["BF.RESERVE", key, error, capacity]
        args += ["NONSCALING"] if expansion == 0 else ["EXPANSION", expansion]
        self.r.execute_command(*args)

    def test_memory_usage_is_redisbloom_s_or_less(self):
        self.r.execute_command("BF.RESERVE", "bf", 0.05, 1000)
        usage = self.r.memory_usage("bf")
        if int(self.r.info("server")["redis_version"].split(".")[0]) >= 7:
            self.assertLessEqual(usage, 1104)
        # The bits (968 bytes) and at most 64 bytes of value and 64 of key.
        self.assertLess(usage, 968 + 64 + 64 + 64)
        # Adds, queries and BF.INFO leave it as small.
        self.r.execute_command("BF.MADD", "bf", *["k%d" % i for i in range(500)])
        self.r.execute_command("BF.MEXISTS", "bf", "k1", "zz")
        self.r.execute_command("BF.INFO", "bf")
        self.r.execute_command("BF.DEBUG", "bf")
        image_of(self.r, "bf")
        self.assertEqual(self.r.memory_usage("bf"), usage)
        # Growing a stage makes it a live filter, which costs more.
        self.r.execute_command("BF.MADD", "bf", *["g%d" % i for i in range(1000)])
        self.assertEqual(self.r.execute_command("BF.INFO", "bf", "FILTERS"), [2])
        self.assertGreater(self.r.memory_usage("bf"), usage + 968)

    def test_answers_and_images_match_the_library(self):
        r = self.r
        shapes = [(1000, 0.05, 2), (100, 0.01, 1), (50, 0.001, 4), (200, 0.01, 0), (10, 0.1, 3),
                  (3000, 0.0001, 2)]
        for capacity, error, expansion in shapes:
            key = "s:%d:%g:%d" % (capacity, error, expansion)
            what = key
            self.reserve(key, capacity, error, expansion)
            ref = self.reference(capacity, error, expansion)
            self.same_filter(key, ref, what + ": empty")
            # Up to the stage's capacity, repeats included; a non-scaling
            # filter then refuses new keys, a scalable one grows a stage.
            items = ["i%d" % i for i in range(capacity)] + ["i%d" % i for i in range(0, capacity, 3)]
            got = []
            for start in range(0, len(items), 500):
                got += r.execute_command("BF.MADD", key, *items[start:start + 500])
            want = [0 if present else 1 for present in ref.test_and_add_many(items)]
            self.assertEqual(got, want, what + ": BF.MADD replies")
            self.assertEqual(r.execute_command("BF.ADD", key, "i1"), 0)
            ref.test_and_add_many(["i1"])
            self.same_filter(key, ref, what + ": after adds")
            self.assertEqual(r.execute_command("BF.CARD", key), sum(want), what + ": BF.CARD")
            probes = ["absent%d" % i for i in range(2000)]
            self.assertEqual(r.execute_command("BF.MEXISTS", key, *probes),
                             [int(x) for x in ref.contains_many(probes)], what + ": absent keys")
            info = r.execute_command("BF.INFO", key)
            self.assertEqual(info[info.index(b"Number of filters") + 1], 1, what)
            # Answered from the compact form's fields (FPR alone reads the
            # live filter): as the library describes the same filter.
            ri = ref.info
            for field, expected in (("CAPACITY", ri.capacity), ("SIZE", 96 + ri.bytes), ("FILTERS", 1),
                                    ("ITEMS", sum(want)), ("EXPANSION", expansion or None),
                                    ("KIND", ri.kind.encode())):
                self.assertEqual(r.execute_command("BF.INFO", key, field), [expected], what + " " + field)
            self.assertEqual(float(r.execute_command("BF.INFO", key, "ERROR")[0]), ri.fp_rate, what)
            fpr = float(r.execute_command("BF.INFO", key, "FPR")[0])
            self.assertAlmostEqual(fpr, ri.expected_fp_rate, delta=ri.expected_fp_rate * 1e-9, msg=what)
            # Small: MEMORY USAGE is BF.INFO's Size (RedisBloom's 96 bytes of
            # structs and the bits) less 48 (the compact value is 48 bytes)
            # plus the key's entry and the allocator's rounding; a live
            # filter's objects are 700 bytes more.
            size, usage = info[info.index(b"Size") + 1], r.memory_usage(key)
            self.assertGreaterEqual(usage, size - 48, what)
            if size < 2048:
                self.assertLess(usage, size + 300, what)
            if expansion == 0:
                # New keys until the filter holds its capacity (false
                # positives at the adds above left it a few short).
                err = None
                for j in range(100):
                    try:
                        got = r.execute_command("BF.ADD", key, "more%d" % j)
                    except Exception as e:  # noqa: BLE001 (the server's error reply)
                        err = str(e)
                        break
                    self.assertEqual(got, 0 if ref.test_and_add_many(["more%d" % j])[0] else 1, what)
                self.assertEqual(err, "non scaling filter is full", what)
                self.assertEqual(r.execute_command("BF.ADD", key, "i2"), 0, what)
                self.same_filter(key, ref, what + ": full")
                continue
            # The next new key grows a second stage, through the live filter.
            more = ["m%d" % i for i in range(capacity * expansion)]
            got = r.execute_command("BF.MADD", key, *more)
            self.assertEqual(got, [0 if p else 1 for p in ref.test_and_add_many(more)], what + ": growth")
            if self.hash == "xxh3":  # RedisBloom's stream of two stages: another layout
                self.same_filter(key, ref, what + ": after growth")
            self.assertGreaterEqual(r.execute_command("BF.INFO", key, "FILTERS")[0], 2, what)

    def test_bf_add_creates_a_compact_default_filter(self):
        r = self.r
        ref = self.reference(100, 0.01, 2)
        for k in ("a", "b", "a", "c"):
            self.assertEqual(r.execute_command("BF.ADD", "auto", k), 0 if ref.test_and_add_many([k])[0] else 1)
        self.same_filter("auto", ref, "auto")
        self.assertLess(r.memory_usage("auto"), 400)

    def test_dump_restore_copy_reload_keep_everything(self):
        r = self.r
        self.reserve("src", 500, 0.01, 2)
        items = ["x%d" % i for i in range(300)]
        r.execute_command("BF.MADD", "src", *items)
        r.execute_command("BF.ADD", "src", "x1")  # a repeat: counted by the image's keys_added
        image = image_of(r, "src")
        usage = r.memory_usage("src")
        digest = r.execute_command("DEBUG", "DIGEST-VALUE", "src")
        r.restore("restored", 0, r.dump("src"))
        r.execute_command("COPY", "src", "copied")
        r.execute_command("DEBUG", "RELOAD")
        for key in ("src", "restored", "copied"):
            self.assertEqual(image_of(r, key), image, key)
            self.assertEqual(r.memory_usage(key), usage if key == "src" else r.memory_usage(key), key)
            self.assertLessEqual(r.memory_usage(key), usage + 64, key)
            self.assertEqual(r.execute_command("DEBUG", "DIGEST-VALUE", key), digest, key)
            self.assertEqual(r.execute_command("BF.MEXISTS", key, *items), [1] * len(items), key)
            self.assertEqual(r.execute_command("BF.CARD", key), 300, key)
        # A copy is its own filter.
        r.execute_command("BF.ADD", "copied", "only in the copy")
        self.assertEqual(r.execute_command("BF.EXISTS", "src", "only in the copy"), 0)
        self.assertEqual(image_of(r, "src"), image)

    def test_a_full_stage_at_the_byte_limit(self):
        # Repeats of present keys stay small and are counted as the live
        # filter counts them; a new key that would grow a stage past
        # bf-max-filter-bytes is refused, as it is for a live filter.
        r = self.r
        old = list(r.config_get("bf-max-filter-bytes").values())[0]
        try:
            r.config_set("bf-max-filter-bytes", 400)  # the filter: 344 bytes of image
            self.reserve("full", 100, 0.01, 2)
            ref = self.reference(100, 0.01, 2)
            items = ["f%d" % i for i in range(100)]
            self.assertEqual(r.execute_command("BF.MADD", "full", *items), [1] * 100)
            ref.test_and_add_many(items)
            usage = r.memory_usage("full")
            self.assertEqual(r.execute_command("BF.MADD", "full", "f1", "f2", "f1"), [0, 0, 0])
            ref.test_and_add_many(["f1", "f2", "f1"])
            self.assertEqual(r.memory_usage("full"), usage)
            with self.assertRaises(Exception) as e:
                r.execute_command("BF.ADD", "full", "new")
            self.assertIn("filter is full", str(e.exception))
            self.assertEqual(r.execute_command("BF.ADD", "full", "f3"), 0)
            ref.test_and_add_many(["f3"])
            self.same_filter("full", ref, "full")
        finally:
            r.config_set("bf-max-filter-bytes", old)

    def test_a_live_filter_digests_alike_after_copy_and_reload(self):
        # Past 64 KiB of bits a filter stays live; its copy and its reload
        # digest as it does (a repeat counted by a scalable filter is not in
        # RedisBloom's chain, which the digest of such a value is of).
        r = self.r
        self.reserve("big", 100000, 0.01, 2)
        r.execute_command("BF.MADD", "big", "a", "b", "c", "a")
        self.assertGreater(r.memory_usage("big"), 100000)
        r.execute_command("COPY", "big", "big2")
        digest = r.execute_command("DEBUG", "DIGEST-VALUE", "big")
        self.assertEqual(r.execute_command("DEBUG", "DIGEST-VALUE", "big2"), digest)
        r.execute_command("DEBUG", "RELOAD")
        for key in ("big", "big2"):
            self.assertEqual(r.execute_command("DEBUG", "DIGEST-VALUE", key), digest, key)
            self.assertEqual(r.execute_command("BF.CARD", key), 3, key)

    def test_growth_keeps_the_ttl(self):
        r = self.r
        self.reserve("ttl", 100, 0.01, 2)
        r.expire("ttl", 1000)
        r.execute_command("BF.MADD", "ttl", *["t%d" % i for i in range(300)])
        self.assertEqual(r.execute_command("BF.INFO", "ttl", "FILTERS"), [2])
        self.assertGreater(r.ttl("ttl"), 900)

    def test_merge_of_small_filters(self):
        r = self.r
        for key, prefix in (("a", "a"), ("b", "b")):
            self.reserve(key, 1000, 0.01, 2)
            r.execute_command("BF.MADD", key, *["%s%d" % (prefix, i) for i in range(200)])
        r.execute_command("BF.MERGE", "a", "b")
        self.assertEqual(r.execute_command("BF.MEXISTS", "a", "a1", "b1", "b199"), [1, 1, 1])
        self.assertLess(r.memory_usage("a"), 2 * 1024)

    def test_loadchunk_never_replaces_a_small_filter(self):
        r = self.r
        self.reserve("live", 100, 0.01, 2)
        r.execute_command("BF.ADD", "live", "kept")
        usage = r.memory_usage("live")
        header = image_of(r, "live")[:4096]
        with self.assertRaises(Exception):
            r.execute_command("BF.LOADCHUNK", "live", len(header), header)
        with self.assertRaises(Exception):
            r.execute_command("BF.LOADCHUNK", "live", 1, header[:128])
        self.assertEqual(r.memory_usage("live"), usage)  # still small
        self.assertEqual(r.execute_command("BF.EXISTS", "live", "kept"), 1)
        self.assertEqual(r.execute_command("BF.ADD", "live", "new"), 1)


class SmallFiltersRedisBloomEncoding(SmallFilters):
    """bf-encoding redisbloom: RedisBloom's hash, sizing and type."""
    hash = "redisbloom"

    @classmethod
    def setUpClass(cls):
        cls.server = h.RedisServer(cls.module, module_args=["ENCODING", "redisbloom"],
                                   extra=["--enable-debug-command", "local"]).start()
        cls.r = cls.server.client()

    def same_filter(self, key, ref, what):
        # BF.SCANDUMP of RedisBloom's type is RedisBloom's stream: its bits
        # are the stage's; BF.CARD and the answers are checked beside.
        self.assertEqual(self.r.type(key), b"MBbloom--", what)
        self.assertEqual(bits_of(self.r, key), image_bits(ref.to_bytes()), what)


if __name__ == "__main__":
    unittest.main(verbosity=2)
