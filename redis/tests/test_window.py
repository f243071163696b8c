# SPDX-License-Identifier: Apache-2.0
"""Sliding-window filters in Redis: BF.RESERVE key error_rate capacity WINDOW
<count>|<duration>, served by the BF.* commands, and the same filter after a
SAVE and restart, an AOF reload, DUMP/RESTORE, SCANDUMP/LOADCHUNK and on a
replica. Time windows are driven by BF.ADDAT (explicit times) where the
answer must not depend on the machine's speed."""

import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import redis_harness as h  # noqa: E402

h.require_redis()
MODULE, _ = h.test_paths()
import redis  # noqa: E402

from test_single_node import keys, madd_all, mexists_all, scandump  # noqa: E402

ResponseError = redis.exceptions.ResponseError


def info_field(r, key, field):
    return r.execute_command("BF.INFO", key, field)[0]


def digest(r, key):
    return r.execute_command("DEBUG", "DIGEST-VALUE", key)


def count_window_acceptance(test, r):
    """BF.RESERVE w 0.001 100000 WINDOW 50000 and 200,000 adds: every one of
    the last 50,000 present, at most 5% of the keys three windows old."""
    test.assertTrue(r.execute_command("BF.RESERVE", "w", 0.001, 100000, "WINDOW", 50000))
    items = keys("click:", 200000)
    added = madd_all(r, "w", items)
    test.assertGreaterEqual(sum(added), 199000)  # new keys: only false positives answer 0
    last = mexists_all(r, "w", items[-50000:])
    test.assertEqual(last.count(0), 0, "a key inside the window is absent")
    # Keys 150,000-200,000 insertions old: gone but for false positives and
    # the fading edge (docs/kinds-window.md); 5% is the acceptance bound.
    old = mexists_all(r, "w", items[:50000])
    test.assertLessEqual(sum(old), 2500, "%d of 50,000 keys three windows old present" % sum(old))
    return items


class WindowCommands(h.DebugServerCase):
    module = MODULE

    def test_count_window_acceptance(self):
        items = count_window_acceptance(self, self.r)
        r = self.r
        self.assertEqual(info_field(r, "w", "KIND"), b"window")
        self.assertEqual(info_field(r, "w", "WINDOW"), b"50000")
        self.assertEqual(info_field(r, "w", "CAPACITY"), 50000)  # the window is its capacity
        self.assertIsNone(info_field(r, "w", "CLOCK"))
        self.assertIsNone(info_field(r, "w", "EXPANSION"))
        self.assertEqual(r.execute_command("BF.CARD", "w"), 200000)  # insertions
        # A window never fills: adds go on past its capacity.
        self.assertEqual(r.execute_command("BF.ADD", "w", "one-more"), 1)
        self.assertGreaterEqual(r.memory_usage("w"), info_field(r, "w", "SIZE") - 64)
        self.assertGreater(info_field(r, "w", "SIZE"), 50000 * 25 // 8)  # the window's bits are counted
        self.assertEqual(r.execute_command("BF.EXISTS", "w", items[-1]), 1)

    def test_time_window_with_explicit_times(self):
        r = self.r
        self.assertTrue(r.execute_command("BF.RESERVE", "t", 0.01, 1000, "WINDOW", "10s"))
        self.assertEqual(info_field(r, "t", "WINDOW"), b"10000ms")
        # 10 keys a second for 60 s: every key of the last 10 s present; keys
        # older than the window plus k generations (here < 20 s) absent but
        # for false positives.
        for t in range(0, 60000, 100):
            self.assertEqual(r.execute_command("BF.ADDAT", "t", t, "k%d" % t), [1])
        self.assertEqual(info_field(r, "t", "CLOCK"), 59900)
        recent = ["k%d" % t for t in range(50000, 60000, 100)]
        self.assertEqual(mexists_all(r, "t", recent), [1] * len(recent))
        old = ["k%d" % t for t in range(0, 40000, 100)]
        self.assertLessEqual(sum(mexists_all(r, "t", old)), 8)  # p = 0.01 of 400, 4 sigma
        # BF.ADD on a time window takes the server's clock (Unix ms): far
        # past 60 s, so the window's keys are all forgotten.
        before = int(time.time() * 1000)
        self.assertEqual(r.execute_command("BF.ADD", "t", "now"), 1)
        self.assertGreaterEqual(info_field(r, "t", "CLOCK"), before - 1000)
        self.assertLessEqual(sum(mexists_all(r, "t", recent)), 3)
        # The clock never moves back through BF.ADD; BF.ADDAT takes any time.
        with self.assertRaisesRegex(ResponseError, "time windows"):
            r.execute_command("BF.RESERVE", "c", 0.01, 100, "WINDOW", 100)
            r.execute_command("BF.ADDAT", "c", 5, "x")
        with self.assertRaisesRegex(ResponseError, "not found"):
            r.execute_command("BF.ADDAT", "missing", 5, "x")
        with self.assertRaisesRegex(ResponseError, "bad time"):
            r.execute_command("BF.ADDAT", "t", -1, "x")

    def test_keyspace_events(self):
        # BF.ADDAT adds as BF.MADD does: bloom.add when an item went in.
        r = self.r
        r.config_set("notify-keyspace-events", "KEg")
        sub = r.pubsub()
        try:
            sub.psubscribe("__keyevent@0__:bloom.*")
            self.assertEqual(sub.get_message(timeout=5)["type"], "psubscribe")
            r.execute_command("BF.RESERVE", "ev", 0.01, 100, "WINDOW", "1h")
            r.execute_command("BF.ADDAT", "ev", 5, "x")
            r.execute_command("BF.ADDAT", "ev", 6, "x")  # present: no event
            r.execute_command("BF.ADD", "ev", "y")
            seen = []
            deadline = time.time() + 5
            while len(seen) < 3 and time.time() < deadline:
                m = sub.get_message(timeout=0.2)
                if m and m["type"] == "pmessage":
                    seen.append(m["channel"].decode().split(":")[1])
            self.assertEqual(seen, ["bloom.reserve", "bloom.add", "bloom.add"])
            self.assertIsNone(sub.get_message(timeout=0.3))  # and nothing for the present key
        finally:
            sub.close()
            r.config_set("notify-keyspace-events", "")

    def test_reserve_arguments(self):
        r = self.r
        for args, fragment in ((("WINDOW",), "no window"),
                               (("WINDOW", "10m"), "ambiguous"),
                               (("WINDOW", "0"), "WINDOW takes"),
                               (("WINDOW", "1x"), "WINDOW takes"),
                               (("WINDOW", "-5"), "WINDOW takes"),
                               (("WINDOW", "1h", "NONSCALING"), "neither expands"),
                               (("EXPANSION", 2, "WINDOW", "100"), "neither expands")):
            with self.subTest(args=args):
                with self.assertRaisesRegex(ResponseError, fragment):
                    r.execute_command("BF.RESERVE", "bad", 0.01, 1000, *args)
                self.assertEqual(r.exists("bad"), 0)
        for w, shown in (("90s", b"90000ms"), ("30min", b"1800000ms"), ("1H", b"3600000ms"),
                         ("2d", b"172800000ms"), ("250ms", b"250ms"), ("12345", b"12345")):
            r.execute_command("BF.RESERVE", "ok" + w, 0.01, 1000, "WINDOW", w)
            self.assertEqual(info_field(r, "ok" + w, "WINDOW"), shown)
        # Too large for a byte limit of 1 GiB (the limit is off by default):
        # refused before allocating.
        r.config_set("bf-max-filter-bytes", 1 << 30)
        try:
            with self.assertRaisesRegex(ResponseError, "too large"):
                r.execute_command("BF.RESERVE", "huge", 0.0001, 1000000000, "WINDOW", "1h")
        finally:
            r.config_set("bf-max-filter-bytes", 0)

    def test_merge_refuses_windows(self):
        r = self.r
        r.execute_command("BF.RESERVE", "w1", 0.01, 1000, "WINDOW", 1000)
        r.execute_command("BF.RESERVE", "w2", 0.01, 1000, "WINDOW", 1000)
        r.execute_command("BF.RESERVE", "c", 0.01, 1000, "NONSCALING")
        for args in (("w1", "w2"), ("new", "w1"), ("c", "w1"), ("w1", "c")):
            with self.subTest(args=args):
                with self.assertRaisesRegex(ResponseError, "do not merge"):
                    r.execute_command("BF.MERGE", *args)
        self.assertEqual(r.exists("new"), 0)

    def test_dump_restore_scandump_loadchunk(self):
        r = self.r
        r.execute_command("BF.RESERVE", "t", 0.01, 5000, "WINDOW", "1h")
        for t in range(0, 3000):
            r.execute_command("BF.ADDAT", "t", 1000 * t, "x%d" % t)
        items = ["x%d" % t for t in range(3000)]
        answers = mexists_all(r, "t", items)
        self.assertTrue(r.restore("restored", 0, r.dump("t")))
        self.assertEqual(digest(r, "restored"), digest(r, "t"))
        for it, data in scandump(r, "t"):
            r.execute_command("BF.LOADCHUNK", "chunked", it, data)
        self.assertEqual(digest(r, "chunked"), digest(r, "t"))
        self.assertEqual(r.execute_command("COPY", "t", "copied"), 1)
        for key in ("restored", "chunked", "copied"):
            self.assertEqual(mexists_all(r, key, items), answers, key)
            self.assertEqual(info_field(r, key, "CLOCK"), 2999000)
            # The same next write gives the same filter.
            r.execute_command("BF.ADDAT", key, 4000000, "later")
        r.execute_command("BF.ADDAT", "t", 4000000, "later")
        for key in ("restored", "chunked", "copied"):
            self.assertEqual(digest(r, key), digest(r, "t"), key)
        r.execute_command("DEBUG", "RELOAD")
        self.assertEqual(mexists_all(r, "restored", items), mexists_all(r, "t", items))


class WindowPersistence(unittest.TestCase):
    def test_count_window_survives_save_and_restart(self):
        server = h.RedisServer(MODULE).start()
        r = server.client()
        items = count_window_acceptance(self, r)
        before = mexists_all(r, "w", items)
        self.assertTrue(r.save())
        port = server.port
        server.kill()  # only the SAVE can have persisted anything
        server.start(port)
        r = server.client()
        self.assertEqual(mexists_all(r, "w", items), before)
        self.assertEqual(r.execute_command("BF.CARD", "w"), 200000)
        server.stop()

    def test_time_window_replica_and_aof_answer_as_the_primary(self):
        # BF.ADD takes the primary's clock; the replica and the AOF get the
        # time with each write (BF.ADDAT), so their filters are the
        # primary's, bit for bit (DEBUG DIGEST-VALUE), and so are answers.
        debug = ["--enable-debug-command", "local"]
        primary = h.RedisServer(MODULE, extra=debug + ["--appendonly", "yes"]).start()
        p = primary.client()
        p.execute_command("BF.RESERVE", "t", 0.01, 2000, "WINDOW", "2s")
        p.execute_command("BF.MADD", "t", *keys("early:", 500))  # to the replica by full sync
        replica = h.RedisServer(MODULE, extra=debug + ["--replicaof", h.LOOPBACK, str(primary.port)]).start()
        s = replica.client()
        h.wait_until(lambda: s.info("replication")["master_link_status"] == "up", 20, "replica link")
        items = keys("early:", 500)
        # Writes spread over more than the window: generations retire on the
        # primary's clock while the replica follows.
        for i in range(30):
            batch = keys("b%d:" % i, 50)
            items += batch
            p.execute_command("BF.MADD", "t", *batch)
            p.execute_command("BF.INSERT", "t", "ITEMS", "ins%d" % i)
            p.execute_command("BF.ADD", "t", "one%d" % i)
            time.sleep(0.1)
        self.assertEqual(p.execute_command("WAIT", 1, 5000), 1)
        self.assertEqual(digest(s, "t"), digest(p, "t"))
        answers = mexists_all(p, "t", items)
        self.assertEqual(mexists_all(s, "t", items), answers)
        self.assertLess(sum(answers), len(items))  # the window did forget (3 s of writes, 2 s window)
        self.assertEqual(info_field(s, "t", "CLOCK"), info_field(p, "t", "CLOCK"))
        # AOF: a rewrite, then more writes, then a restart from the AOF alone.
        p.bgrewriteaof()
        h.wait_until(lambda: p.info("persistence")["aof_rewrite_in_progress"] == 0 and
                     p.info("persistence")["aof_last_bgrewrite_status"] == "ok", 20, "AOF rewrite")
        p.execute_command("BF.MADD", "t", "after-rewrite", "again")
        self.assertEqual(p.execute_command("WAIT", 1, 5000), 1)
        want, want_answers = digest(p, "t"), mexists_all(p, "t", items)
        self.assertEqual(digest(s, "t"), want)
        replica.stop()
        port = primary.port
        primary.kill()
        primary.start(port)
        p = primary.client()
        self.assertEqual(digest(p, "t"), want)
        self.assertEqual(mexists_all(p, "t", items), want_answers)
        primary.stop()

    def test_time_that_passed_while_the_server_was_down(self):
        # Saved, stopped for longer than the window: reads after the restart
        # answer as before the stop; the first write moves the clock to the
        # primary's time, and everything older than the window is forgotten.
        server = h.RedisServer(MODULE).start()
        r = server.client()
        r.execute_command("BF.RESERVE", "t", 0.01, 1000, "WINDOW", "1s")
        items = keys("before:", 300)
        madd_all(r, "t", items)
        clock = info_field(r, "t", "CLOCK")
        self.assertTrue(r.save())
        port = server.port
        server.kill()
        time.sleep(2.5)  # any stop longer than the window and its k fading generations
        server.start(port)
        r = server.client()
        self.assertEqual(info_field(r, "t", "CLOCK"), clock)
        self.assertEqual(mexists_all(r, "t", items), [1] * 300)
        self.assertEqual(r.execute_command("BF.ADD", "t", "after"), 1)
        self.assertGreaterEqual(info_field(r, "t", "CLOCK"), clock + 2500)
        self.assertLessEqual(sum(mexists_all(r, "t", items)), 6)  # p = 0.01 of 300, 4 sigma
        server.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
