# SPDX-License-Identifier: Apache-2.0
"""The module in a 6-node Redis Cluster (3 masters, 3 replicas) on loopback.

Filters are spread over all masters; every filter's answers (its keys, and
a fixed set of absent probes) are recorded once and must come back the same
after BF.MERGE, after `redis-cli --cluster reshard` moves 1000 slots (keys
travel by MIGRATE, i.e. the type's RDB callbacks) and after a master is
killed and its replica promoted (keys travel by replication).
"""

import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import redis_harness as h  # noqa: E402

h.require_redis()
MODULE, _ = h.test_paths()
import redis  # noqa: E402
from cluster_client import ClusterClient, key_slot  # noqa: E402

ITEMS_PER_FILTER = 100
PROBES = ["probe:%d" % i for i in range(200)]


def cli(*args):
    out = subprocess.run([h.CLI] + list(args), capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise AssertionError("redis-cli %s failed:\n%s%s" % (" ".join(args), out.stdout, out.stderr))
    return out.stdout


def nodes_info(conn):
    """[(id, port, flags, master_id, slot ranges)] from CLUSTER NODES."""
    out = []
    for line in conn.execute_command("CLUSTER", "NODES").decode().splitlines():
        f = line.split()
        port = int(f[1].split("@")[0].rsplit(":", 1)[1])
        ranges = []
        for r in f[8:]:
            if r.startswith("["):
                continue  # a migrating/importing marker
            lo, _, hi = r.partition("-")
            ranges.append((int(lo), int(hi or lo)))
        out.append((f[0], port, f[2], f[3], ranges))
    return out


class Cluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.servers = [h.RedisServer(MODULE, cluster=True).start() for _ in range(6)]
        cls.by_port = {s.port: s for s in cls.servers}
        cli("--cluster", "create", *["%s:%d" % (h.LOOPBACK, s.port) for s in cls.servers],
            "--cluster-replicas", "1", "--cluster-yes")
        for s in cls.servers:
            c = s.client()
            h.wait_until(lambda: c.execute_command("CLUSTER", "INFO").decode().find("cluster_state:ok") >= 0,
                         30, "cluster_state:ok on port %d" % s.port)
        cls.wait_replicas_linked()
        cls.client = ClusterClient(h.LOOPBACK, cls.by_port)
        cls.expected = {}

    @classmethod
    def tearDownClass(cls):
        for s in cls.servers:
            s.stop()

    @classmethod
    def wait_replicas_linked(cls):
        def linked():
            info = nodes_info(cls.servers[0].client())
            masters = [n for n in info if "master" in n[2] and "fail" not in n[2] and n[4]]
            for m in masters:
                replicas = [n for n in info if n[3] == m[0]]
                if not replicas:
                    return False
                for rep in replicas:
                    i = cls.by_port[rep[1]].client().info("replication")
                    if i.get("master_link_status") != "up":
                        return False
            return len(masters) == 3

        h.wait_until(linked, 30, "three masters, each with a linked replica")

    def reserve(self, name, nonscaling=False):
        # 100 keys into a first stage of 30 make scalable filters grow to 3 stages.
        args = ["BF.RESERVE", name, 0.01, 1000, "NONSCALING"] if nonscaling else ["BF.RESERVE", name, 0.01, 30]
        self.assertEqual(self.client.execute(*args), b"OK")
        items = ["%s:item:%d" % (name, i) for i in range(ITEMS_PER_FILTER)]
        self.client.execute("BF.MADD", name, *items)
        return items

    def record(self, name, items):
        self.expected[name] = (items, self.client.execute("BF.MEXISTS", name, *PROBES))

    def check_all_answers(self, when):
        for name, (items, probe_answers) in sorted(self.expected.items()):
            self.assertEqual(self.client.execute("BF.MEXISTS", name, *items), [1] * len(items),
                             "%s lost keys %s" % (name, when))
            self.assertEqual(self.client.execute("BF.MEXISTS", name, *PROBES), probe_answers,
                             "%s answers probes differently %s" % (name, when))

    def masters(self):
        return [n for n in nodes_info(self.servers[0].client()) if "master" in n[2] and n[4]]

    def test_cluster_life(self):
        # --- the slot function agrees with the server's
        c0 = self.servers[0].client()
        for k in ("a", "bloom:1", "{user7}.x", "x{}y", "{}", "f{a}{b}"):
            self.assertEqual(key_slot(k), c0.execute_command("CLUSTER", "KEYSLOT", k), k)

        # --- many filters over all masters, plus some in the lowest and
        # highest 1000 slots of the first master, which the reshard moves.
        for i in range(60):  # scalable (the default) and NONSCALING, alternately
            self.record("filter:%d" % i, self.reserve("filter:%d" % i, nonscaling=i % 2 == 1))
        self.assertGreater(self.client.execute("BF.INFO", "filter:0", "FILTERS")[0], 1)
        masters = self.masters()
        source = min(masters, key=lambda m: m[4][0][0])
        lo, hi = source[4][0][0], source[4][-1][1]
        names = ["edge:%d" % i for i in range(20000)]
        edge = ([n for n in names if key_slot(n) < lo + 1000][:4] +
                [n for n in names if key_slot(n) > hi - 1000][:4])
        for name in edge:
            self.record(name, self.reserve(name))
        per_master = {m[1]: 0 for m in masters}
        for name in self.expected:
            per_master[self.client.master_of(name)] += 1
        self.assertTrue(all(n > 0 for n in per_master.values()), per_master)
        self.check_all_answers("right after writing")

        # --- BF.MERGE: keys sharing a hash tag live in one slot
        a = self.reserve("{merge}a")
        b = self.reserve("{merge}b")
        self.assertEqual(self.client.execute("BF.MERGE", "{merge}dst", "{merge}a", "{merge}b"), b"OK")
        self.assertEqual(self.client.execute("BF.MEXISTS", "{merge}dst", *(a + b)), [1] * len(a + b))
        self.record("{merge}dst", a + b)
        # ... and without a tag Redis refuses before the module runs.
        x, y = "mergex", "mergey:3"
        self.assertNotEqual(key_slot(x), key_slot(y))
        self.reserve(x)
        self.reserve(y)
        with self.assertRaisesRegex(redis.exceptions.ResponseError, "^CROSSSLOT"):
            self.client.conn(self.client.master_of(x)).execute_command("BF.MERGE", x, y)

        # --- reshard 1000 slots from the first master to another
        target = [m for m in masters if m[0] != source[0]][0]
        before = {n: self.client.master_of(n) for n in self.expected}
        cli("--cluster", "reshard", "%s:%d" % (h.LOOPBACK, source[1]), "--cluster-from", source[0],
            "--cluster-to", target[0], "--cluster-slots", "1000", "--cluster-yes")
        self.client.refresh()
        moved = [n for n in self.expected if self.client.master_of(n) != before[n]]
        print("reshard moved %d of %d filters" % (len(moved), len(self.expected)))
        self.assertGreaterEqual(len(moved), 4, "the reshard moved too few filters to test anything")
        self.assertTrue(all(self.client.master_of(n) == target[1] for n in moved))
        self.check_all_answers("after resharding 1000 slots")

        # --- kill the master now holding the moved filters; its replica takes over
        victim = target[1]
        conn = self.client.conn(victim)
        self.assertEqual(conn.execute_command("WAIT", 1, 5000), 1, "replica did not acknowledge the writes")
        self.by_port[victim].kill()
        self.client.forget(victim)
        survivors = [s for s in self.servers if s.port != victim]

        def promoted():
            self.client.refresh()
            owners = set(self.client.owner.values())
            state_ok = all(b"cluster_state:ok" in s.client().execute_command("CLUSTER", "INFO")
                           for s in survivors)
            return state_ok and victim not in owners and len(self.client.owner) == 16384

        h.wait_until(promoted, 30, "the replica of port %d to be promoted" % victim)
        self.assertTrue(all(self.client.master_of(n) != victim for n in moved))
        self.check_all_answers("after failover")
        # the promoted master takes writes
        name = moved[0]
        self.assertEqual(self.client.execute("BF.ADD", name, "after-failover"), 1)
        self.assertEqual(self.client.execute("BF.EXISTS", name, "after-failover"), 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
