# SPDX-License-Identifier: Apache-2.0
"""Other libraries' filter files through bloomkit: Filter.import_from and
Filter.export, against parquet-java's fixture and Guava's bytes for a known
filter (tests/unit/foreign_hash_test.cpp has the same vectors; tests/interop/
compares thousands of keys with the libraries themselves)."""
import os
import struct
import unittest

import bloomkit

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "interop", "parquet", "bloom_filter.xxhash.bin")

# Guava 31.1: BloomFilter.create(Funnels.longFunnel(), 10, 0.01) after put(42L)
# and put(-1L), then writeTo.
GUAVA_LONGS = bytes.fromhex("01070000000200008004000020010108000040020000")


class InteropTest(unittest.TestCase):
    def test_parquet_fixture_round_trip(self):
        with open(FIXTURE, "rb") as f:
            data = f.read()
        flt = bloomkit.Filter.import_from("parquet", data)
        for key in ("hello", "parquet", "bloom", "filter"):
            self.assertIn(key, flt)
        self.assertEqual(flt.export("parquet"), data)
        self.assertEqual(flt.info.hash, "parquet")

    def test_parquet_file_column(self):
        with open(os.path.join(HERE, "..", "interop", "parquet",
                               "data_index_bloom_encoding_stats.parquet"), "rb") as f:
            data = f.read()
        flt = bloomkit.Filter.import_parquet_column(data, "String")
        self.assertIn("Hello", flt)  # the column's min and max statistics
        self.assertIn("today", flt)
        with self.assertRaises(bloomkit.BloomInvalidArgumentError):
            bloomkit.Filter.import_parquet_column(data, "Nope")

    def test_guava_long_keys_are_little_endian_bytes(self):
        flt = bloomkit.Filter.import_from("guava", GUAVA_LONGS)
        self.assertIn(struct.pack("<q", 42), flt)
        self.assertIn(struct.pack("<q", -1), flt)
        self.assertEqual(flt.export("guava"), GUAVA_LONGS)

    def test_created_filter_exports_what_guava_writes(self):
        flt = bloomkit.Filter(capacity=10, fp_rate=0.01, hash="guava")
        flt.add(struct.pack("<q", 42))
        flt.add(struct.pack("<q", -1))
        self.assertEqual(flt.export("guava"), GUAVA_LONGS)

    def test_refusals(self):
        with self.assertRaises(bloomkit.BloomFormatError):
            bloomkit.Filter.import_from("guava", b"\x01\x07\x00\x00\x00\x02")  # longs missing
        with self.assertRaises(ValueError):
            bloomkit.Filter.import_from("protobuf", b"")
        plain = bloomkit.Filter(capacity=10, fp_rate=0.01)
        with self.assertRaises(bloomkit.BloomError):
            plain.export("guava")


if __name__ == "__main__":
    unittest.main()
