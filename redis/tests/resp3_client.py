# SPDX-License-Identifier: Apache-2.0
"""A minimal RESP3 (and raw RESP2) client for the tests: python3-redis 4.3 (Debian 12)
speaks only RESP2, so the RESP3 reply types (booleans, maps, nulls, doubles)
are read here from a plain socket after HELLO 3.

Replies come back typed: True/False for booleans, dict for maps (keys as
str), int, float, bytes for strings, None for null, Resp3Error for errors.
"""

import socket


class Resp3Error(Exception):
    pass


class Resp3Client:
    def __init__(self, host, port, timeout=30, protocol=3):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buf = b""
        if protocol == 3:
            hello = self.call("HELLO", "3")
            assert isinstance(hello, dict) and hello.get("proto") == 3, hello

    def close(self):
        self.sock.close()

    def call(self, *args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        self.sock.sendall(b"".join(out))
        reply = self._read()
        if isinstance(reply, Resp3Error):
            raise reply
        return reply

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def _read(self):
        line = self._line()
        t, rest = line[:1], line[1:]
        if t == b"+":
            return rest.decode()
        if t == b"-":
            return Resp3Error(rest.decode())
        if t == b":":
            return int(rest)
        if t == b",":
            return float(rest)
        if t == b"#":
            return rest == b"t"
        if t == b"_":
            return None
        if t in (b"$", b"="):
            n = int(rest)
            return None if n < 0 else self._exact(n)
        if t in (b"*", b"~", b">"):
            n = int(rest)
            return None if n < 0 else [self._read() for _ in range(n)]
        if t == b"%":
            m = {}
            for _ in range(int(rest)):
                k = self._read()
                m[k.decode() if isinstance(k, bytes) else k] = self._read()
            return m
        raise ValueError("unknown RESP3 type %r" % line)
