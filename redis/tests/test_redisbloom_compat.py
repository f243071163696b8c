# SPDX-License-Identifier: Apache-2.0
"""RedisBloom's data in this module: its BF.SCANDUMP stream, its DUMP values
and its RDB files (made by RedisBloom itself: fixtures/redisbloom/README.txt)
load and answer every probe exactly as RedisBloom did; damaged or forged
data is refused with an error, the server staying up.

Run by ctest (label `redis`) with BLOOM_REDIS_MODULE in the environment.
"""

import base64
import json
import os
import shutil
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import redis_harness as h  # noqa: E402
from redisbloom_values import crc64  # noqa: E402

h.require_redis()
MODULE, _ = h.test_paths()
import redis  # noqa: E402

ResponseError = redis.exceptions.ResponseError
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "redisbloom")
NAMES = ["f1_cap1000_p0.01_n500", "f2_cap100_p0.001_exp2_n2000", "f3_nonscaling_cap10000_p0.0001_n5000"]


def fixture(name, ext, mode="rb"):
    with open(os.path.join(FIXTURES, name + ext), mode) as f:
        return f.read()


def expected(name):
    return json.loads(fixture(name, ".expected.json", "r"))


def stream(name):
    return [(it, base64.b64decode(c)) for it, c in json.loads(fixture(name, ".scandump", "r"))]


def value_bytes(payload):
    """A DUMP payload less its last 10 bytes, the server's RDB version and
    CRC (Redis 7.0 writes version 10, Valkey 8 version 11)."""
    return payload[:-10]


def matches(r, key, exp):
    got = r.execute_command("BF.MEXISTS", key, *exp["probes"])
    return sum(1 for a, b in zip(got, exp["mexists"]) if a == b)


def info(r, key):
    a = r.execute_command("BF.INFO", key)
    return {a[i].decode(): a[i + 1] for i in range(0, len(a), 2)}


def resign(payload):
    """A DUMP payload whose body was edited, with a valid CRC again."""
    body = payload[:-8]
    return body + crc64(body).to_bytes(8, "little")


class RedisBloomData(h.DebugServerCase):
    module = MODULE

    def check_like_redisbloom(self, key, name):
        exp = expected(name)
        n = matches(self.r, key, exp)
        print("%s (%s): %d of %d answers as RedisBloom's" % (name, key, n, len(exp["probes"])))
        self.assertEqual(n, 2000)
        self.assertEqual(self.r.execute_command("BF.CARD", key), exp["bf_card"])
        i = info(self.r, key)
        for field in ("Capacity", "Number of filters", "Number of items inserted", "Expansion rate"):
            self.assertEqual(i[field], exp["bf_info"][field], field)

    def test_scandump_stream_loads(self):
        for name in NAMES:
            with self.subTest(name=name):
                chunks = stream(name)
                self.assertEqual(chunks[0][0], 1)  # RedisBloom's header, at iterator 1
                for it, data in chunks:
                    self.assertEqual(self.r.execute_command("BF.LOADCHUNK", "sd", it, data), b"OK")
                self.check_like_redisbloom("sd", name)
                self.assertEqual(self.r.type("sd"), b"bloomfltr")
                # It moves on as any filter of this module: DUMP/RESTORE, a
                # walk of its own, more adds (no false negatives).
                walk, it = [], 0
                while True:
                    it, data = self.r.execute_command("BF.SCANDUMP", "sd", it)
                    if it == 0:
                        break
                    walk.append((it, data))
                for it, data in walk:
                    self.r.execute_command("BF.LOADCHUNK", "again", it, data)
                self.check_like_redisbloom("again", name)
                self.r.delete("sd", "again")

    def test_scandump_restore_survives_a_reload_half_way(self):
        name = NAMES[1]
        chunks = stream(name)
        for it, data in chunks[:3]:
            self.r.execute_command("BF.LOADCHUNK", "half", it, data)
        self.r.execute_command("DEBUG", "RELOAD")  # the restore in progress is in the RDB
        with self.assertRaisesRegex(ResponseError, "being restored"):
            self.r.execute_command("BF.EXISTS", "half", "item:1")
        for it, data in chunks[3:]:
            self.r.execute_command("BF.LOADCHUNK", "half", it, data)
        self.check_like_redisbloom("half", name)

    def test_dump_restores_and_is_written_back_as_redisbloom_wrote_it(self):
        for name in NAMES:
            with self.subTest(name=name):
                payload = fixture(name, ".dump")
                self.r.restore("d", 0, payload)
                self.assertEqual(self.r.type("d"), b"MBbloom--")
                self.check_like_redisbloom("d", name)
                # Saved back in RedisBloom's encoding, byte for byte.
                self.assertEqual(value_bytes(self.r.dump("d")), value_bytes(payload))
                self.r.execute_command("COPY", "d", "c")
                self.check_like_redisbloom("c", name)
                self.r.delete("d", "c")

    def test_a_migrated_filter_grows_as_redisbloom_and_stays_redisbloom_data(self):
        name = NAMES[1]  # 5 sub-filters, the last with 497 of 1600 items
        self.r.restore("g", 0, fixture(name, ".dump"))
        added = self.r.execute_command("BF.MADD", "g", *["new:%d" % i for i in range(1500)])
        self.assertGreater(sum(added), 1450)
        i = info(self.r, "g")
        # RedisBloom's rule: the next sub-filter holds 2 x 1600 items.
        self.assertEqual(i["Number of filters"], 6)
        self.assertEqual(i["Capacity"], 3100 + 3200)
        self.r.restore("g2", 0, self.r.dump("g"))
        self.assertEqual(self.r.type("g2"), b"MBbloom--")
        probes = ["new:%d" % i for i in range(1500)] + expected(name)["probes"]
        self.assertEqual(self.r.execute_command("BF.MEXISTS", "g2", *probes),
                         self.r.execute_command("BF.MEXISTS", "g", *probes))
        self.assertEqual(self.r.execute_command("BF.MEXISTS", "g", *["new:%d" % i for i in range(1500)]),
                         [1] * 1500)

    def test_damaged_and_forged_dumps_are_refused(self):
        payload = fixture(NAMES[0], ".dump")
        # Layout of this value: 07, module id (0x81 + 8 bytes), then fields,
        # each an opcode byte and a value: size (02 41f4), nfilters (02 01),
        # options (02 05), growth (02 02), entries (02 43e8), error (04 +
        # 8 bytes), hashes (02 08), ...
        self.assertEqual(payload[13:19], bytes([2, 1, 2, 5, 2, 2]))

        def edit(offset, value):
            b = bytearray(payload)
            b[offset:offset + len(value)] = value
            return resign(bytes(b))

        cases = {
            "truncated": payload[:len(payload) // 2],
            "a flipped bit": payload[:700] + bytes([payload[700] ^ 1]) + payload[701:],
            "63 sub-filters announced": edit(14, b"\x3f"),
            "no sub-filter": edit(14, b"\x00"),
            "32-bit hashing (no FORCE64)": edit(16, b"\x01"),
            "an error rate of 2": edit(23, struct.pack("<d", 2.0)),
            "hashes not matching bpe": edit(32, b"\x3f"),
            "an item count not the sum of the links'": edit(11, b"\xf3"),
        }
        for what, data in cases.items():
            with self.subTest(what=what):
                with self.assertRaises(ResponseError):
                    self.r.restore("bad", 0, data)
                self.assertEqual(self.r.exists("bad"), 0)
                self.assertTrue(self.r.ping())
        self.r.restore("good", 0, payload)  # the unedited value still loads
        self.check_like_redisbloom("good", NAMES[0])

    def test_a_saved_restore_with_a_forged_total_is_refused(self):
        # A BF.LOADCHUNK restore of RedisBloom's stream is saved with its
        # declared total; one that lies (3,584 of f2's 7,904 bytes of bits)
        # must not make the last chunk read past what arrived.
        chunks = stream(NAMES[1])
        for it, data in chunks[:2]:
            self.r.execute_command("BF.LOADCHUNK", "part", it, data)
        payload = self.r.dump("part")
        total = bytes([2, 0x5E, 0xE0])  # opcode 2, 7904 as a 14-bit length
        self.assertEqual(payload.count(total), 1)
        forged = resign(payload.replace(total, bytes([2, 0x4E, 0x00])))  # 3584
        self.r.restore("lie", 0, forged)
        for it, data in chunks[2:4]:
            self.r.execute_command("BF.LOADCHUNK", "lie", it, data)
        with self.assertRaisesRegex(ResponseError, "do not match RedisBloom's header"):
            self.r.execute_command("BF.LOADCHUNK", "lie", *chunks[4])
        self.assertEqual(self.r.exists("lie"), 0)
        self.assertTrue(self.r.ping())

    def test_forged_scandump_headers_are_refused(self):
        header = stream(NAMES[1])[0][1]
        forged = {
            "short": header[:19],
            "one link missing": header[:-53],
            "nfilters 10^6": header[:8] + (10 ** 6).to_bytes(4, "little") + header[12:],
            "bits not bytes x 8": header[:28] + (12345).to_bytes(8, "little") + header[36:],
            "no FORCE64": header[:12] + (1).to_bytes(4, "little") + header[16:],
        }
        for what, data in forged.items():
            with self.subTest(what=what):
                with self.assertRaisesRegex(ResponseError, "^received bad data$"):
                    self.r.execute_command("BF.LOADCHUNK", "forged", 1, data)
                self.assertEqual(self.r.exists("forged"), 0)
        # A header announcing 2^39 bytes of bits allocates nothing: refused
        # by MAX_FILTER_BYTES before any bit arrives.
        n = 1
        huge = bytearray(header[:20 + 53])
        huge[8:12] = n.to_bytes(4, "little")
        huge[12:16] = (13).to_bytes(4, "little")  # NOROUND | FORCE64 | NO_SCALING
        huge[0:8] = (0).to_bytes(8, "little")
        huge[20:28] = (1 << 39).to_bytes(8, "little")
        huge[28:36] = (1 << 42).to_bytes(8, "little")
        huge[36:44] = (0).to_bytes(8, "little")
        with self.assertRaisesRegex(ResponseError, "filter too large|received bad data"):
            self.r.execute_command("BF.LOADCHUNK", "forged", 1, bytes(huge))
        self.assertEqual(self.r.exists("forged"), 0)


class RedisBloomEncoding(unittest.TestCase):
    """bf-encoding redisbloom: filters the module makes are RedisBloom's own,
    so their DUMP, RDB and BF.SCANDUMP are what RedisBloom writes."""

    @classmethod
    def setUpClass(cls):
        cls.server = h.RedisServer(MODULE, module_args=["bf-encoding", "redisbloom"]).start()
        cls.r = cls.server.client()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def rebuild(self, name):
        """The fixture's filter, made here by its own commands."""
        exp = expected(name)
        args = exp["reserve"][2:]
        self.r.delete(name)
        self.r.execute_command("BF.RESERVE", name, *args)
        items = ["item:%d" % i for i in range(int(name.rsplit("_n", 1)[1]))]  # item:0 .. item:n-1
        for i in range(0, len(items), 100):
            self.r.execute_command("BF.MADD", name, *items[i:i + 100])
        return exp

    def test_filters_are_redisbloom_s_byte_for_byte(self):
        self.assertEqual(self.r.config_get("bf-encoding").popitem()[1], "redisbloom")
        for name in NAMES:
            with self.subTest(name=name):
                exp = self.rebuild(name)
                self.assertEqual(self.r.type(name), b"MBbloom--")
                self.assertEqual(value_bytes(self.r.dump(name)), value_bytes(fixture(name, ".dump")))
                self.assertEqual(matches(self.r, name, exp), 2000)
                self.assertEqual(self.r.execute_command("BF.CARD", name), exp["bf_card"])
                # BF.SCANDUMP gives RedisBloom's stream, chunk for chunk at
                # RedisBloom's iterators (its chunks are larger: compare the
                # header and the joined bits).
                walk, it = [], 0
                while True:
                    it, data = self.r.execute_command("BF.SCANDUMP", name, it)
                    if it == 0:
                        break
                    walk.append((it, data))
                theirs = stream(name)
                self.assertEqual(walk[0], theirs[0])
                self.assertEqual(b"".join(d for _, d in walk[1:]), b"".join(d for _, d in theirs[1:]))
                # And it loads back, as RedisBloom's type.
                for it, data in walk:
                    self.r.execute_command("BF.LOADCHUNK", name + ":copy", it, data)
                self.assertEqual(self.r.type(name + ":copy"), b"MBbloom--")
                self.assertEqual(matches(self.r, name + ":copy", exp), 2000)

    def test_sub_filters_and_debug_are_redisbloom_s(self):
        # RedisBloom's own expectations (its test_expansion, test_debug and
        # test_nonscaling_err), which bloom's hash meets only in part.
        r = self.r
        for e in (1, 2, 4):
            r.execute_command("BF.RESERVE", "exp%d" % e, 0.01, 4, "EXPANSION", e)
            for i in range(100):
                r.execute_command("BF.ADD", "exp%d" % e, str(i))
        self.assertEqual([r.execute_command("BF.INFO", "exp%d" % e, "FILTERS")[0] for e in (1, 2, 4)], [23, 5, 4])
        r.execute_command("BF.RESERVE", "dbg", "0.01", "10")
        for i in range(100):
            r.execute_command("BF.ADD", "dbg", str(i))
        self.assertEqual([x.decode() for x in r.execute_command("BF.DEBUG", "dbg")], [
            "size:99",
            "bytes:16 bits:128 hashes:8 hashwidth:64 capacity:10 size:10 ratio:0.005",
            "bytes:32 bits:256 hashes:9 hashwidth:64 capacity:20 size:20 ratio:0.0025",
            "bytes:72 bits:576 hashes:10 hashwidth:64 capacity:40 size:40 ratio:0.00125",
            "bytes:160 bits:1280 hashes:11 hashwidth:64 capacity:80 size:29 ratio:0.000625"])
        r.execute_command("BF.INSERT", "full", "CAPACITY", 3, "NONSCALING", "ITEMS", "a", "b", "c")
        self.assertEqual(info(r, "full")["Size"], 104)

    def test_the_setting_changes_at_run_time_and_bloom_s_filters_stay(self):
        self.r.config_set("bf-encoding", "bloom")
        try:
            self.r.execute_command("BF.ADD", "own", "x")
            self.assertEqual(self.r.type("own"), b"bloomfltr")
        finally:
            self.r.config_set("bf-encoding", "redisbloom")
        self.r.execute_command("BF.ADD", "own", "y")
        self.assertEqual(self.r.type("own"), b"bloomfltr")
        self.r.execute_command("BF.ADD", "rb", "x")
        self.assertEqual(self.r.type("rb"), b"MBbloom--")
        with self.assertRaises(ResponseError):
            self.r.config_set("bf-encoding", "other")
        # Saved and loaded again, each keeps its type and its items.
        self.r.save()
        port = self.server.port
        self.server.stop()
        self.server.start(port=port)
        type(self).r = self.server.client()
        self.assertEqual((self.r.type("own"), self.r.type("rb")), (b"bloomfltr", b"MBbloom--"))
        self.assertEqual(self.r.execute_command("BF.MEXISTS", "own", "x", "y"), [1, 1])
        self.assertEqual(self.r.execute_command("BF.EXISTS", "rb", "x"), 1)


class RedisBloomRdb(unittest.TestCase):
    def test_rdb_files_load_and_save_back(self):
        for name in NAMES:
            with self.subTest(name=name):
                d = h.temp_dir("rbrdb")
                shutil.copy(os.path.join(FIXTURES, name + ".rdb"), os.path.join(d, "dump.rdb"))
                server = h.RedisServer(MODULE, workdir=d).start()
                try:
                    r = server.client()
                    exp = expected(name)
                    n = matches(r, name, exp)
                    print("%s (rdb): %d of %d answers as RedisBloom's" % (name, n, len(exp["probes"])))
                    self.assertEqual(n, 2000)
                    self.assertEqual(r.type(name), b"MBbloom--")
                    self.assertEqual(r.execute_command("BF.CARD", name), exp["bf_card"])
                    self.assertEqual(value_bytes(r.dump(name)), value_bytes(fixture(name, ".dump")))
                    r.execute_command("BF.ADD", name, "after-migration")
                    r.save()
                    port = server.port
                    server.stop()
                    server.start(port=port)
                    r = server.client()
                    self.assertEqual(r.type(name), b"MBbloom--")
                    self.assertEqual(r.execute_command("BF.EXISTS", name, "after-migration"), 1)
                    self.assertEqual(r.execute_command("BF.CARD", name), exp["bf_card"] + 1)
                    got = r.execute_command("BF.MEXISTS", name, *exp["probes"])
                    self.assertTrue(all(g >= e for g, e in zip(got, exp["mexists"])))  # no false negative
                finally:
                    server.stop()

    def test_aof_rewrite_keeps_the_answers(self):
        # With the RDB preamble (Redis 7's default) the rewrite saves the key
        # in RedisBloom's encoding; without it, as BF.LOADCHUNK commands of
        # bloom's image, which load as a "bloomfltr" key.
        name = NAMES[1]
        exp = expected(name)
        for preamble, kind in (("yes", b"MBbloom--"), ("no", b"bloomfltr")):
            with self.subTest(preamble=preamble):
                server = h.RedisServer(MODULE, extra=["--appendonly", "yes",
                                                      "--aof-use-rdb-preamble", preamble]).start()
                try:
                    r = server.client()
                    r.restore(name, 0, fixture(name, ".dump"))
                    r.bgrewriteaof()
                    h.wait_until(lambda: r.info("persistence")["aof_rewrite_in_progress"] == 0 and
                                 r.info("persistence")["aof_last_bgrewrite_status"] == "ok", 20, "AOF rewrite")
                    r.execute_command("BF.ADD", name, "after-rewrite")
                    port = server.port
                    server.kill()
                    server.start(port)
                    r = server.client()
                    self.assertEqual(r.type(name), kind)
                    self.assertEqual(matches(r, name, exp), 2000)
                    self.assertEqual(r.execute_command("BF.EXISTS", name, "after-rewrite"), 1)
                    self.assertEqual(r.execute_command("BF.CARD", name), exp["bf_card"] + 1)
                finally:
                    server.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
