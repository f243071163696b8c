# SPDX-License-Identifier: Apache-2.0
"""The module's filters in Redis's memory accounting (issue 28).

Every byte of a filter comes from Redis's allocator, so used_memory grows by
what MEMORY USAGE reports, maxmemory refuses the write that would cross it
(noeviction), eviction removes filters (allkeys-lru), and a replica under the
same limit follows its master. Real redis-server processes on loopback
ports, as in test_single_node.py.
"""

import os
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import redis_harness as h  # noqa: E402

h.require_redis()
MODULE, INTEROP = h.test_paths()
import redis  # noqa: E402

ResponseError = redis.exceptions.ResponseError
OOM = "OOM command not allowed when used memory > 'maxmemory'."
MB = 1 << 20


def used(r):
    return r.info("memory")["used_memory"]


def used_without_clients(r):
    """used_memory less the replication backlog, which fills as commands
    stream to a replica (1 MB). (Subtracting the clients' buffers too made
    deltas noisier: INFO's client memory lags behind their buffers.)"""
    m = r.info("memory")
    return m["used_memory"] - m["mem_replication_backlog"]


def settled_used_memory(r):
    """used_without_clients once Redis has shrunk the query buffers a large
    command left: its clients cron does that about a second later, at its
    own time, and a shrink of one LOADCHUNK's buffer (~895 KB) in the middle
    of a measurement failed it about one run in two under ctest."""
    time.sleep(1.5)
    return used_without_clients(r)


def keys(prefix, n):
    return ["%s%d" % (prefix, i) for i in range(n)]


def info_field(r, key, name):
    reply = r.execute_command("BF.INFO", key)
    fields = dict(zip(reply[::2], reply[1::2]))
    return fields[name.encode()]


def load_image(r, key, path, chunk=1 << 20):
    """Restores a file the library wrote into key, through BF.LOADCHUNK."""
    with open(path, "rb") as f:
        data = f.read()
    for off in range(0, len(data), chunk):
        part = data[off:off + chunk]
        r.execute_command("BF.LOADCHUNK", key, off + len(part), part)


class Accounting(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # No slow log: it keeps the arguments of slow commands (a loaded CI
        # machine makes many slow), memory a delta would count.
        cls.server = h.RedisServer(MODULE, extra=["--slowlog-log-slower-than", "-1",
                                                  "--enable-debug-command", "local"]).start()
        cls.r = cls.server.client()
        # Warm the connection and the keyspace's tables (the first COPY
        # allocates 25 KB once), so a delta below is the filter's alone.
        cls.r.execute_command("BF.RESERVE", "warm", 0.01, 100)
        cls.r.execute_command("COPY", "warm", "warm2")
        cls.r.execute_command("BF.MADD", "warm", *keys("w", 2000))
        cls.r.delete("warm", "warm2")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def measure(self, key, create, settle=False):
        """used_memory before and after create(), and MEMORY USAGE of key
        (settle: first wait for the buffers of an earlier test to shrink)."""
        r = self.r
        before = settled_used_memory(r) if settle else used_without_clients(r)
        create()
        after = used_without_clients(r)
        return after - before, r.memory_usage(key)

    def check_close(self, delta, usage, floor, what):
        # MEMORY USAGE counts the key's own name and entry as well (a few
        # dozen bytes); the filter is the rest. 1 % is the bound.
        # (0.99: Redis shrinks idle clients' buffers on its own clock,
        # moving used_memory by tens of KB either way.)
        self.assertGreaterEqual(delta, floor * 0.99, "%s: used_memory grew by less than the filter's bits" % what)
        self.assertLessEqual(abs(delta - usage), usage * 0.01, "%s: used_memory +%d, MEMORY USAGE %d" %
                             (what, delta, usage))

    def test_reserve_counts_each_size(self):
        r = self.r
        for capacity in (100000, 1000000, 5000000):
            for scaling in (True, False):
                key = "res:%d:%s" % (capacity, scaling)
                args = ["BF.RESERVE", key, 0.01, capacity] + ([] if scaling else ["NONSCALING"])
                delta, usage = self.measure(key, lambda: r.execute_command(*args))
                self.check_close(delta, usage, info_field(r, key, "Size"), key)
                # DEL gives it all back (4 KiB allowed: under ASan, whose
                # malloc reports exact sizes, 100 k keys' 1 % is 1.7 KB and
                # 2 KB of other memory moved once).
                before = used_without_clients(r)
                r.delete(key)
                self.assertLessEqual(abs(before - used_without_clients(r) - delta), max(delta * 0.01, 4096),
                                     key + ": DEL")

    def test_growth_of_a_scalable_filter_is_counted(self):
        # The BF.MADD that adds a stage, measured alone (small batches: a
        # command's own buffers stay out of the delta).
        r = self.r
        r.execute_command("BF.RESERVE", "grow", 0.01, 20000)
        grown = 0
        for i in range(0, 60000, 200):
            stages = info_field(r, "grow", "Number of filters")
            before, usage_before = used_without_clients(r), r.memory_usage("grow")
            r.execute_command("BF.MADD", "grow", *keys("g%d:" % i, 200))
            if info_field(r, "grow", "Number of filters") > stages:
                delta = used_without_clients(r) - before
                grown = r.memory_usage("grow") - usage_before
                break
        self.assertGreater(grown, 40000, "no new stage")
        self.assertLessEqual(abs(delta - grown), grown * 0.01, "+%d used, +%d usage" % (delta, grown))
        r.delete("grow")

    def test_every_kind_restored_by_loadchunk(self):
        r = self.r
        for kind in ("classic", "blocked", "partitioned", "counting", "scalable"):
            path = os.path.join(h.temp_dir("mem"), kind + ".bloom")
            subprocess.run([INTEROP, "write", path, kind, "3000000", "0.01", "1000", "k:"], check=True)
            key = "kind:" + kind
            # The restore's own buffer is counted while it lasts: a value
            # half restored already weighs its received bytes.
            size = os.path.getsize(path)
            with open(path, "rb") as f:
                head = f.read(size // 2)
            # (used_memory is not compared here: Redis hands a large
            # argument's query buffer over to the command, so the client
            # memory it subtracts lags by about the argument's size.)
            r.execute_command("BF.LOADCHUNK", key, len(head), head)
            self.assertGreaterEqual(r.memory_usage(key), len(head), kind + ": half-restored image not counted")
            r.delete(key)
            # Once, so Redis's one-time allocations for arguments this large
            # (196 KB seen) are not in the delta measured next.
            load_image(r, "scratch", path)
            r.delete("scratch")
            delta, usage = self.measure(key, lambda: load_image(r, key, path))
            self.assertEqual(r.execute_command("BF.EXISTS", key, "k:7"), 1)
            self.check_close(delta, usage, size - 4096, kind)
            r.delete(key)

    def test_scandump_image_is_counted_while_a_walk_lasts(self):
        r = self.r
        r.execute_command("BF.RESERVE", "walk", 0.01, 500000, "NONSCALING")
        before, usage = used_without_clients(r), r.memory_usage("walk")
        it, _ = r.execute_command("BF.SCANDUMP", "walk", 0)
        self.assertGreater(used_without_clients(r) - before, 500000)  # the cached image
        self.assertGreater(r.memory_usage("walk") - usage, 500000)
        while it != 0:
            it, _ = r.execute_command("BF.SCANDUMP", "walk", it)
        self.assertEqual(r.memory_usage("walk"), usage)  # dropped at the end, with its state
        r.delete("walk")

    def test_rdb_reload_and_copy_are_counted(self):
        r = self.r
        r.execute_command("BF.RESERVE", "rl", 0.01, 3000000)
        r.execute_command("BF.MADD", "rl", *keys("x", 1000))
        usage = r.memory_usage("rl")
        delta, copied = self.measure("rl2", lambda: r.execute_command("COPY", "rl", "rl2"), settle=True)
        # Equal under jemalloc; under ASan's malloc (50-redis-asan.sh),
        # which reports exact sizes, they differed by 1 byte (not traced).
        self.assertLessEqual(abs(copied - usage), 64)
        self.check_close(delta, copied, 1000000, "COPY")
        if self.debug_allowed():
            before = settled_used_memory(r)
            r.execute_command("DEBUG", "RELOAD")
            self.assertEqual(r.memory_usage("rl"), usage)
            self.assertLessEqual(abs(used_without_clients(r) - before), 2 * usage * 0.01, "used_memory after DEBUG RELOAD")
        r.delete("rl", "rl2")

    def debug_allowed(self):
        try:
            self.r.execute_command("DEBUG", "HELP")
            return True
        except ResponseError:
            return False


def fill_until_refused(r, prefix, capacity, limit=40):
    """BF.RESERVEs NONSCALING filters until one is refused; returns the keys
    created and the refusal's message."""
    made = []
    for i in range(limit):
        key = "%s%d" % (prefix, i)
        try:
            r.execute_command("BF.RESERVE", key, 0.01, capacity, "NONSCALING")
        except ResponseError as e:
            return made, str(e)
        made.append(key)
    return made, None


class MaxMemory(unittest.TestCase):
    def start(self, policy, extra=()):
        s = h.RedisServer(MODULE, extra=["--maxmemory", "50mb", "--maxmemory-policy", policy] + list(extra))
        return s.start()

    def test_noeviction_refuses_the_reserve_that_would_cross(self):
        s = self.start("noeviction")
        r = s.client()
        made, refused = fill_until_refused(r, "big", 4000000)  # 4.8 MB each
        self.assertEqual(refused, OOM)
        self.assertGreaterEqual(len(made), 6)
        self.assertLess(len(made), 12)
        # Refused before it allocated: the server never went past the limit.
        self.assertLessEqual(used(r), 50 * MB)
        self.assertEqual(r.exists("big%d" % len(made)), 0)
        self.assertTrue(r.ping())
        self.assertEqual(r.execute_command("BF.ADD", made[0], "a"), 1)  # no new memory: allowed
        self.assertEqual(r.execute_command("BF.EXISTS", made[0], "a"), 1)
        # Past the limit by other data, Redis itself refuses every deny-oom
        # command: BF.ADD to an existing filter too.
        r.config_set("maxmemory", str(used(r) - MB))
        with self.assertRaises(ResponseError) as ctx:
            r.execute_command("BF.ADD", made[0], "b")
        self.assertTrue(str(ctx.exception).startswith("OOM"), str(ctx.exception))
        self.assertEqual(r.execute_command("BF.EXISTS", made[0], "a"), 1)  # reads still work
        s.stop()

    def test_noeviction_refuses_the_add_that_grows_past_the_limit(self):
        s = self.start("noeviction")
        r = s.client()
        # Leave about 3 MB free, then grow a scalable filter whose third
        # stage (2.56 M keys at expansion 16) needs about 4.6 MB.
        made, refused = fill_until_refused(r, "pad", 2000000)
        self.assertEqual(refused, OOM)
        while 50 * MB - used(r) < 3 * MB and made:
            r.delete(made.pop())
        self.assertLess(50 * MB - used(r), 6 * MB)
        r.execute_command("BF.RESERVE", "sc", 0.01, 10000, "EXPANSION", 16)
        taken, errors = [], []
        for i in range(0, 400000, 5000):
            batch = keys("s%d:" % i, 5000)
            reply = r.execute_command("BF.MADD", "sc", *batch)
            taken += [k for k, a in zip(batch, reply) if not isinstance(a, Exception)]
            errors += [str(a) for a in reply if isinstance(a, Exception)]
            if errors:
                break
        self.assertTrue(errors, "the filter never needed a stage past the limit")
        self.assertEqual(set(errors), {OOM})
        self.assertLessEqual(used(r), 50 * MB)
        self.assertEqual(info_field(r, "sc", "Number of filters"), 2)
        found = []
        for i in range(0, len(taken), 5000):
            found += r.execute_command("BF.MEXISTS", "sc", *taken[i:i + 5000])
        self.assertEqual(found, [1] * len(taken))  # no false negative
        s.stop()

    def test_allkeys_lru_evicts_old_filters(self):
        # Redis's LRU clock ticks once a second: the old filters are made a
        # second and more before the new ones. 10 samples out of 12 keys
        # always include old ones.
        s = self.start("allkeys-lru", extra=["--maxmemory-samples", "10"])
        r = s.client()
        for i in range(6):
            r.execute_command("BF.RESERVE", "old%d" % i, 0.01, 4000000, "NONSCALING")  # 4.8 MB each
        time.sleep(1.5)
        for i in range(6):
            r.execute_command("BF.RESERVE", "new%d" % i, 0.01, 4000000, "NONSCALING")
            r.ping()  # a command after each: eviction runs before it
        evicted = r.info("stats")["evicted_keys"]
        self.assertGreater(evicted, 0)
        self.assertEqual(r.dbsize() + evicted, 12)
        self.assertEqual(sorted(k.decode() for k in r.keys("new*")), ["new%d" % i for i in range(6)])
        self.assertEqual(len(r.keys("old*")), 6 - evicted)  # only old filters went
        self.assertLessEqual(used(r), 50 * MB)
        self.assertEqual(r.execute_command("BF.ADD", "new5", "x"), 1)
        self.assertEqual(r.execute_command("BF.EXISTS", "new5", "x"), 1)
        s.stop()

    def test_replica_under_the_same_limit_follows(self):
        master = self.start("noeviction")
        m = master.client()
        replica = self.start("noeviction")
        rr = replica.client()
        rr.execute_command("REPLICAOF", h.LOOPBACK, master.port)
        h.wait_until(lambda: rr.info("replication")["master_link_status"] == "up", 30, "replica link up")
        base = used_without_clients(rr)
        made, refused = fill_until_refused(m, "rep", 4000000)
        self.assertEqual(refused, OOM)
        m.execute_command("BF.MADD", made[-1], *keys("r", 1000))
        # A restore through LOADCHUNK replicates too (room made first: the
        # walk's cached image and the restore each take a filter's size).
        # The restore holds its image and the filter built from it at once.
        m.delete(*made[1:5])
        for it, data in scan(m, made[0]):
            m.execute_command("BF.LOADCHUNK", "restored", it, data)
        m.delete(made[0])
        # Full again; then a BF.MADD whose new stage the master refuses:
        # the replica gets the items the master took and no others.
        fill_until_refused(m, "pad", 3000000)  # < 3.6 MB left: the third stage (4.6 MB) cannot fit
        m.execute_command("BF.RESERVE", "sc", 0.01, 10000, "EXPANSION", 16)
        errors = []
        for i in range(0, 400000, 5000):
            try:
                reply = m.execute_command("BF.MADD", "sc", *keys("s%d:" % i, 5000))
            except ResponseError as e:
                # The server's own check refused the whole command (Valkey
                # counts the 5,000 arguments' buffers before the module runs).
                reply = [e]
            errors += [str(a) for a in reply if isinstance(a, Exception)]
            if errors:
                break
        self.assertTrue(errors and set(errors) == {OOM}, errors[:3])
        offset = m.info("replication")["master_repl_offset"]
        h.wait_until(lambda: rr.info("replication")["slave_repl_offset"] >= offset, 30, "replica caught up")
        self.assertEqual(sorted(rr.keys()), sorted(m.keys()))
        self.assertEqual(rr.execute_command("BF.MEXISTS", made[-1], *keys("r", 1000)), [1] * 1000)
        self.assertEqual(rr.execute_command("BF.CARD", "sc"), m.execute_command("BF.CARD", "sc"))
        self.assertEqual(info_field(rr, "sc", "Number of filters"), info_field(m, "sc", "Number of filters"))
        total = 0
        for k in m.keys():
            # sc: the master's stage list kept the room it reserved for the
            # refused stage (16 bytes); the replica never tried.
            self.assertLessEqual(abs(rr.memory_usage(k) - m.memory_usage(k)), 64 if k == b"sc" else 0, k)
            total += rr.memory_usage(k)
        # The replica accounts for the same filters in its used_memory, plus
        # its master link's buffers (0.8-1.5 MB more on an idle machine; the
        # link's query buffer grows while a loaded replica lags: 2.9 MB seen).
        # Counting the filters twice would put it 45 MB over.
        grown = used_without_clients(rr) - base
        self.assertGreaterEqual(grown, total * 0.99, "replica +%d, filters %d" % (grown, total))
        self.assertLessEqual(grown - total, 4 * MB, "replica +%d, filters %d" % (grown, total))
        replica.stop()
        master.stop()


def scan(r, key):
    out, it = [], 0
    while True:
        it, data = r.execute_command("BF.SCANDUMP", key, it)
        if it == 0:
            return out
        out.append((it, data))


if __name__ == "__main__":
    unittest.main(verbosity=2)
