# SPDX-License-Identifier: Apache-2.0
"""A small slot-routing client for the cluster test.

It computes a key's slot as Redis Cluster does (CRC16/XMODEM of the key, or
of its {hash tag}, mod 16384), sends each command to the master owning that
slot, and follows MOVED and ASK redirections, so the test sees exactly what
a cluster-aware client sees while slots migrate and masters fail over.
"""

import time

import redis

SLOTS = 16384


def crc16(data):
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def key_slot(key):
    if isinstance(key, str):
        key = key.encode()
    start = key.find(b"{")
    if start >= 0:
        end = key.find(b"}", start + 1)
        if end > start + 1:
            key = key[start + 1:end]
    return crc16(key) % SLOTS


class ClusterClient:
    def __init__(self, host, ports):
        self.host = host
        self.ports = list(ports)
        self.conns = {}
        self.owner = {}  # slot -> port of its master
        self.refresh()

    def conn(self, port):
        if port not in self.conns:
            self.conns[port] = redis.Redis(host=self.host, port=port, socket_timeout=10)
        return self.conns[port]

    def refresh(self):
        """Reads the slot map from the first node that answers."""
        for port in list(self.ports):
            try:
                slots = self.conn(port).execute_command("CLUSTER", "SLOTS")
            except redis.exceptions.ConnectionError:
                continue
            owner = {}
            for entry in slots:
                start, end, master = entry[0], entry[1], entry[2]
                for s in range(start, end + 1):
                    owner[s] = int(master[1])
            self.owner = owner
            return
        raise RuntimeError("no cluster node answers")

    def forget(self, port):
        self.ports.remove(port)
        self.conns.pop(port, None)

    def master_of(self, key):
        return self.owner[key_slot(key)]

    def execute(self, *args, key=None):
        """Runs args on the master of key (default: args[1])."""
        key = args[1] if key is None else key
        port = self.master_of(key)
        asking = False
        for _ in range(50):
            try:
                c = self.conn(port)
                if asking:
                    p = c.pipeline(transaction=False)
                    p.execute_command("ASKING")
                    p.execute_command(*args)
                    return p.execute(raise_on_error=True)[1]
                return c.execute_command(*args)
            except redis.exceptions.ResponseError as e:
                msg = str(e)
                kind = msg.split(" ")[0]
                if kind in ("MOVED", "ASK"):
                    port = int(msg.split(" ")[2].rsplit(":", 1)[1])
                    asking = kind == "ASK"
                    if kind == "MOVED":
                        self.refresh()
                    continue
                if kind in ("TRYAGAIN", "CLUSTERDOWN"):
                    time.sleep(0.1)
                    continue
                raise
            except redis.exceptions.ConnectionError:
                time.sleep(0.2)
                self.refresh()
                port = self.master_of(key)
                asking = False
        raise RuntimeError("no answer for %r after 50 redirections" % (args,))
