# SPDX-License-Identifier: Apache-2.0
"""Starts and stops real redis-server processes for the module's tests.

Every server listens on 127.0.0.1 only, on a port the kernel reports free,
in a private temporary directory. Servers are stopped by the PID this
harness started them with, never by name, and die with the test process
(PR_SET_PDEATHSIG), so a crashed or timed-out test leaves nothing behind.
"""

import atexit
import ctypes
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

LOOPBACK = "127.0.0.1"
SKIP = 77  # ctest's SKIP_RETURN_CODE for these tests
# The server and its command-line client: Redis by default; Valkey with
# BLOOM_REDIS_SERVER=valkey-server BLOOM_REDIS_CLI=valkey-cli (its own
# names; the module and the protocol are the same).
SERVER = os.environ.get("BLOOM_REDIS_SERVER", "redis-server")
CLI = os.environ.get("BLOOM_REDIS_CLI", "redis-cli")

_live = []  # every server started and not yet stopped
_dirs = []


def require_redis():
    """Exits with SKIP and a reason when redis-server is missing, except in
    CI, where packages.d installs it and a missing server is a failure."""
    missing = [t for t in (SERVER, CLI) if shutil.which(t) is None]
    try:
        import redis  # noqa: F401
    except ImportError:
        missing.append("python3-redis")
    if missing:
        msg = "redis tests: %s not installed (Debian: apt-get install redis-server redis-tools python3-redis)" % (
            ", ".join(missing))
        if os.environ.get("CI"):
            print("FAILED: " + msg, file=sys.stderr)
            sys.exit(1)
        print("SKIPPED: " + msg)
        sys.exit(SKIP)


def _die_with_parent():
    # PR_SET_PDEATHSIG = 1: the kernel sends SIGKILL when the test dies.
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL, 0, 0, 0)


def _bindable(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind((LOOPBACK, port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def free_port(cluster=False):
    """A loopback port nobody listens on; for cluster nodes also port+10000
    (the cluster bus), so the pair is drawn from 20000-55000."""
    for _ in range(500):
        if cluster:
            port = random.randint(20000, 55000)
            if _bindable(port) and _bindable(port + 10000):
                return port
        else:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((LOOPBACK, 0))
            port = s.getsockname()[1]
            s.close()
            return port
    raise RuntimeError("no free loopback port")


def temp_dir(tag):
    d = tempfile.mkdtemp(prefix="bloom-redis-%s-" % tag)
    _dirs.append(d)
    return d


class RedisServer:
    """One redis-server with the module loaded."""

    def __init__(self, module, module_args=(), cluster=False, extra=(), workdir=None):
        self.module = module
        self.module_args = list(module_args)
        self.cluster = cluster
        self.extra = list(extra)
        self.dir = workdir or temp_dir("node")
        self.port = None
        self.proc = None

    def args(self):
        a = [SERVER, "--port", str(self.port), "--bind", LOOPBACK, "--protected-mode", "yes",
             "--dir", self.dir, "--dbfilename", "dump.rdb", "--save", "", "--appendonly", "no",
             "--daemonize", "no", "--logfile", os.path.join(self.dir, "redis.log")]
        if self.cluster:
            a += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                  # 2 s: fails over in ~4 s, yet a node slowed by a busy CI
                  # machine is not declared failed by mistake.
                  "--cluster-node-timeout", "2000"]
        a += self.extra
        a += ["--loadmodule", self.module] + self.module_args
        return a

    def start(self, port=None, attempts=3):
        """Starts on `port` (a restart) or on a fresh free port (retried:
        another process may take a free port before the server binds it)."""
        for attempt in range(attempts):
            self.port = port or free_port(self.cluster)
            self.proc = subprocess.Popen(self.args(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         preexec_fn=_die_with_parent)
            _live.append(self)
            if self._wait_ready():
                return self
            self.kill()
            if port:
                break
        raise RuntimeError("%s did not start; log:\n%s" % (SERVER, self.log_tail()))

    def _wait_ready(self, timeout=10.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                if self.client().ping():
                    return True
            except Exception:
                time.sleep(0.05)
        return False

    def client(self, **kw):
        import redis
        return redis.Redis(host=LOOPBACK, port=self.port, socket_timeout=30, **kw)

    def stop(self):
        """SIGTERM by PID, then SIGKILL if it lingers."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._forget()

    def kill(self):
        """SIGKILL by PID: a crash, for failover tests."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._forget()

    def _forget(self):
        if self in _live:
            _live.remove(self)
        self.proc = None

    def log_tail(self, n=30):
        try:
            with open(os.path.join(self.dir, "redis.log")) as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return "(no log)"


def _cleanup():
    for s in list(_live):
        s.kill()
    for d in _dirs:
        shutil.rmtree(d, ignore_errors=True)


atexit.register(_cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))


def wait_until(predicate, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if predicate():
                return
        except Exception:
            pass
        time.sleep(0.1)
    raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))


class DebugServerCase(unittest.TestCase):
    """One server for the class, with DEBUG enabled (DIGEST-VALUE, RELOAD),
    emptied before each test. Subclasses set module to the built module."""

    module = None

    @classmethod
    def setUpClass(cls):
        cls.server = RedisServer(cls.module, extra=["--enable-debug-command", "local"]).start()
        cls.r = cls.server.client()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def setUp(self):
        self.r.flushall()


def test_paths():
    """The module and interop tool paths ctest passes in the environment."""
    module = os.environ.get("BLOOM_REDIS_MODULE")
    tool = os.environ.get("BLOOM_REDIS_INTEROP")
    if not module or not os.path.exists(module):
        print("FAILED: BLOOM_REDIS_MODULE does not name the built module", file=sys.stderr)
        sys.exit(1)
    return os.path.abspath(module), tool and os.path.abspath(tool)
