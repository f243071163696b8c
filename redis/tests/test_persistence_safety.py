# SPDX-License-Identifier: Apache-2.0
"""Nothing a client can store is lost at the next restart.

Each value below was once accepted by RESTORE, BF.LOADCHUNK or CONFIG SET
and then broke something: a save that wrote a value its load refused (the
server then could not start, every key lost), a first chunk that replaced
a live filter, a restore past the byte limit, a default error rate no
filter can be made with. Each is replayed as an attacker would send it;
then the server saves, restarts, and must still serve a canary key and
every value it accepted.

Run by ctest (label `redis`) with BLOOM_REDIS_MODULE in the environment.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import redis_harness as h  # noqa: E402
import redisbloom_values as rb  # noqa: E402

h.require_redis()
MODULE, _ = h.test_paths()
import redis  # noqa: E402

ResponseError = redis.exceptions.ResponseError
MIB = 1 << 20


def bad_rate_nonscaling(error):
    """A NONSCALING value whose hashes match its bits per entry (as for 1%)
    but whose error rate says otherwise: a save derives the bits per entry
    from the rate, and the hashes no longer match."""
    good = rb.link(1000, 0.01)
    l = rb.link(1000, error, bits=good["bits"], hashes=good["hashes"], bpe_value=good["bpe"])
    return rb.chain([l], nonscaling=True)


# Values once accepted whose save its load refused.
FORMERLY_UNSAVEABLE = {"error %g" % e: bad_rate_nonscaling(e) for e in (0.9, 0.6, 0.49, 1e-300)}
# Scalable too: a second link whose rate disagrees with its bits per entry.
FORMERLY_UNSAVEABLE["scalable link 1 at error 0.6"] = rb.chain([
    rb.link(100, 0.005),
    rb.link(200, 0.6, hashes=rb.link(200, 0.0025)["hashes"], bpe_value=rb.bpe(0.0025),
            bits=rb.link(200, 0.0025)["bits"])])
# Accepted values that look odd but save and load: their bits per entry
# differs from RedisBloom's by less than a hash.
ODD_BUT_SAVEABLE = {
    "bpe a little off": rb.chain([rb.link(1000, 0.01, bpe_value=rb.bpe(0.01) + 0.05)], nonscaling=True),
    "growth 7 on a NONSCALING value": rb.chain([rb.link(1000, 0.01)], growth=7, nonscaling=True),
}


class NothingLost(unittest.TestCase):
    def setUp(self):
        self.server = h.RedisServer(MODULE).start()
        self.r = self.server.client()
        self.r.set("canary", "alive")

    def tearDown(self):
        self.server.stop()

    def restart(self):
        """SAVE (must succeed), stop, start on the same files."""
        self.assertTrue(self.r.save())
        port = self.server.port
        self.server.stop()
        self.server.start(port=port)
        self.r = self.server.client()
        self.assertEqual(self.r.get("canary"), b"alive", "the server lost its data:\n" + self.server.log_tail())

    def test_values_a_save_could_not_write_back_are_refused_and_the_data_survives(self):
        for what, c in FORMERLY_UNSAVEABLE.items():
            with self.subTest(what=what):
                with self.assertRaisesRegex(ResponseError, "Bad data format"):
                    self.r.restore("bad", 0, rb.dump_payload(c))
                self.assertEqual(self.r.exists("bad"), 0)
                # The same value as RedisBloom's BF.SCANDUMP stream.
                with self.assertRaisesRegex(ResponseError, "received bad data"):
                    for it, data in rb.scandump_stream(c):
                        self.r.execute_command("BF.LOADCHUNK", "bad", it, data)
                self.assertEqual(self.r.exists("bad"), 0)
        self.restart()

    def test_odd_values_that_are_accepted_survive_a_restart(self):
        items = ["k%d" % i for i in range(200)]
        for what, c in ODD_BUT_SAVEABLE.items():
            key = "odd:" + what
            self.r.restore(key, 0, rb.dump_payload(c))
            self.assertEqual(self.r.execute_command("BF.MADD", key, *items).count(1), 200, what)
        self.restart()
        for what in ODD_BUT_SAVEABLE:
            key = "odd:" + what
            self.assertEqual(self.r.type(key), b"MBbloom--")
            self.assertEqual(self.r.execute_command("BF.MEXISTS", key, *items), [1] * 200, what)
            self.assertEqual(self.r.execute_command("BF.CARD", key), 200)
            # And its DUMP is what RESTORE takes again.
            self.r.restore(key + ":copy", 0, self.r.dump(key))

    def test_a_migrated_filter_grown_to_its_last_stage_survives_a_restart(self):
        # EXPANSION 1 at 1%: stage i needs 8 + i hashes, so stage 56 is the
        # last a filter can have (64 hashes); the add that would need a
        # 58th stage is refused, and everything taken is kept.
        self.r.restore("exp1", 0, rb.dump_payload(rb.chain([rb.link(1, 0.005)], growth=1)))
        taken, refusal = [], None
        for i in range(200):
            try:
                if self.r.execute_command("BF.ADD", "exp1", "item:%d" % i) == 1:
                    taken.append("item:%d" % i)
            except ResponseError as e:
                refusal = str(e)
                break
        self.assertIsNotNone(refusal)
        self.assertRegex(refusal, "^filter is full: .*needs 65 hashes, more than 64")
        info = self.r.execute_command("BF.INFO", "exp1", "FILTERS")
        self.assertEqual(info, [57])
        self.restart()
        self.assertEqual(self.r.type("exp1"), b"MBbloom--")
        self.assertEqual(self.r.execute_command("BF.MEXISTS", "exp1", *taken), [1] * len(taken))

    def test_a_first_chunk_never_replaces_a_live_filter(self):
        self.r.execute_command("BF.RESERVE", "live", 0.01, 1000)
        self.r.execute_command("BF.ADD", "live", "kept")
        self.r.restore("migrated", 0, rb.dump_payload(rb.chain([rb.link(1000, 0.005)])))
        self.r.execute_command("BF.ADD", "migrated", "kept")
        other = self.r.execute_command("BF.SCANDUMP", "live", 0)[1]  # bloom's image header
        rb_header = rb.scandump_header(rb.chain([rb.link(100, 0.005)]))
        for key in ("live", "migrated"):
            for it, data in ((len(other), other), (1, other), (1, rb_header)):
                with self.subTest(key=key, iterator=it, length=len(data)):
                    with self.assertRaisesRegex(ResponseError, "^received bad data$"):
                        self.r.execute_command("BF.LOADCHUNK", key, it, data)
                    self.assertEqual(self.r.execute_command("BF.EXISTS", key, "kept"), 1)
        self.restart()
        self.assertEqual(self.r.execute_command("BF.EXISTS", "live", "kept"), 1)
        self.assertEqual(self.r.execute_command("BF.EXISTS", "migrated", "kept"), 1)

    def test_the_byte_limit_holds_for_restores_of_every_expansion(self):
        self.r.config_set("bf-max-filter-bytes", MIB)
        for growth in (1, 2, 4, 1024, 32768):
            with self.subTest(growth=growth):
                # One 16 MiB sub-filter (RedisBloom's stream): far over.
                big = rb.chain([rb.link(1, 0.005, bits=16 * MIB * 8)], growth=growth)
                with self.assertRaisesRegex(ResponseError, "filter too large"):
                    self.r.execute_command("BF.LOADCHUNK", "big", 1, rb.scandump_header(big))
                self.assertEqual(self.r.exists("big"), 0)
                # Just over: a sub-filter of the limit's size, whose image
                # adds bloom's framing.
                edge = rb.chain([rb.link(1, 0.005, bits=MIB * 8)], growth=growth)
                with self.assertRaisesRegex(ResponseError, "filter too large"):
                    self.r.execute_command("BF.LOADCHUNK", "big", 1, rb.scandump_header(edge))
        # A filter grown by this module to its limit moves by
        # BF.SCANDUMP/BF.LOADCHUNK under that limit.
        self.r.execute_command("BF.RESERVE", "grown", 0.01, 1000)
        i = 0
        while True:
            reply = self.r.execute_command("BF.MADD", "grown", *["g%d" % j for j in range(i, i + 2000)])
            i += 2000
            if any(isinstance(a, Exception) for a in reply):
                break
        it, walk = 0, []
        while True:
            it, data = self.r.execute_command("BF.SCANDUMP", "grown", it)
            if it == 0:
                break
            walk.append((it, data))
        for it, data in walk:
            self.assertEqual(self.r.execute_command("BF.LOADCHUNK", "copy", it, data), b"OK")
        self.assertEqual(self.r.execute_command("BF.EXISTS", "copy", "g0"), 1)
        self.restart()

    def test_a_default_error_rate_no_filter_can_use_is_refused(self):
        # 1e-300 leaves a scalable filter's first stage (half the rate) none.
        for rate in ("1e-300", "1e-320", "0", "1", "nan"):
            with self.subTest(rate=rate):
                with self.assertRaises(ResponseError):
                    self.r.config_set("bf-error-rate", rate)
        self.assertEqual(self.r.execute_command("BF.ADD", "auto", "x"), 1)
        self.r.config_set("bf-error-rate", "1e-299")
        self.assertEqual(self.r.execute_command("BF.ADD", "auto2", "x"), 1)
        # With 2^30 items it would need more than bloom's 2^40 bits.
        with self.assertRaises(ResponseError):
            self.r.config_set("bf-initial-size", 1 << 30)
        self.assertEqual(self.r.execute_command("BF.ADD", "auto3", "x"), 1)
        self.restart()

    def test_a_capacity_of_2_to_the_63_is_refused(self):
        for entries in (1 << 63, (1 << 64) - 1):
            c = rb.chain([rb.link(entries, 0.999999999999, bits=64, hashes=1)], nonscaling=True)
            with self.subTest(entries=entries):
                with self.assertRaisesRegex(ResponseError, "Bad data format"):
                    self.r.restore("huge", 0, rb.dump_payload(c))
        self.restart()


if __name__ == "__main__":
    unittest.main(verbosity=2)
