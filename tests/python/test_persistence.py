# SPDX-License-Identifier: Apache-2.0
"""save/load/map, to_bytes/from_bytes, and refusal of damaged images."""

import os
import tempfile
import unittest

import bloomkit

N = 20000


def make(**kw):
    f = bloomkit.Filter(capacity=N, fp_rate=0.01, **kw)
    f.add_many(f"key-{i}" for i in range(N))
    return f


class RoundTripTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "f.bloom")
        self.f = make(hash="fnv1a", seed=99)
        self.probes = [f"key-{i}" for i in range(0, N, 7)] + [f"other-{i}" for i in range(3000)]
        self.answers = self.f.contains_many(self.probes)

    def tearDown(self):
        self.dir.cleanup()

    def test_save_load_answers_identically(self):
        self.f.save(self.path)
        g = bloomkit.Filter.load(self.path)
        self.assertEqual(g.contains_many(self.probes), self.answers)
        self.assertEqual(g.info, self.f.info)

    def test_pathlike_and_bytes_paths(self):
        import pathlib

        self.f.save(pathlib.Path(self.path))
        self.assertEqual(bloomkit.Filter.load(os.fsencode(self.path)).info, self.f.info)

    def test_map_is_read_only_and_answers_identically(self):
        self.f.save(self.path)
        with bloomkit.Filter.map(self.path) as m:
            self.assertTrue(m.info.read_only)
            self.assertEqual(m.contains_many(self.probes), self.answers)
            with self.assertRaises(bloomkit.BloomUnsupportedError):
                m.add("new")
            c = m.copy()  # a writable copy
            c.add("new")
            self.assertIn("new", c)

    def test_bytes_round_trip_equals_the_saved_file(self):
        data = self.f.to_bytes()
        self.f.save(self.path)
        with open(self.path, "rb") as fh:
            self.assertEqual(fh.read(), data)
        for buf in (data, bytearray(data), memoryview(data)):
            self.assertEqual(bloomkit.Filter.from_bytes(buf).contains_many(self.probes), self.answers)

    def test_damaged_images_are_refused(self):
        data = self.f.to_bytes()
        with self.assertRaises(bloomkit.BloomFormatError):
            bloomkit.Filter.from_bytes(data[:5])
        with self.assertRaises(bloomkit.BloomFormatError):
            bloomkit.Filter.from_bytes(b"")
        flipped = bytearray(data)
        flipped[200] ^= 0x10  # a payload bit (payload starts at offset 128)
        with self.assertRaises(bloomkit.BloomChecksumError) as cm:
            bloomkit.Filter.from_bytes(flipped)
        self.assertEqual(cm.exception.status, -5)
        self.assertIsInstance(cm.exception, bloomkit.BloomFormatError)
        with open(self.path, "wb") as fh:
            fh.write(bytes(flipped))
        with self.assertRaises(bloomkit.BloomChecksumError):
            bloomkit.Filter.load(self.path)

    def test_a_changed_version_field_is_refused(self):
        # Bytes 8-9 hold the format version (docs/FORMAT.md); a newer major must
        # be refused as a version error, or as a header checksum mismatch when
        # the checksum is verified first. Either way: a BloomFormatError.
        data = bytearray(self.f.to_bytes())
        data[8] = 0x7F
        with self.assertRaises(bloomkit.BloomFormatError):
            bloomkit.Filter.from_bytes(data)

    def test_not_a_bloom_file(self):
        with open(self.path, "wb") as fh:
            fh.write(b"hello world, definitely not a filter" * 10)
        with self.assertRaises(bloomkit.BloomFormatError):
            bloomkit.Filter.load(self.path)


if __name__ == "__main__":
    unittest.main()
