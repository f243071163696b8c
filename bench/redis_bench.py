#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Speed and memory of the Redis module, beside RedisBloom when given.

    python3 bench/redis_bench.py [MODULE.so] [--rounds N] [--requests N] [--port P]
    REDISBLOOM_MODULE=/path/to/redisbloom.so python3 bench/redis_bench.py build/redis/bloom_redis.so

For each module (this one; RedisBloom too when REDISBLOOM_MODULE names its
.so), rounds alternating between them, a fresh redis-server on 127.0.0.1:
  - memory: BF.RESERVE of 1,000,000 items at 1% (scalable, the default, and
    NONSCALING), filled with 1,000,000 distinct items, then MEMORY USAGE and
    the growth of used_memory;
  - speed: redis-benchmark (50 clients, random items out of 10^6) on a
    filled 1 M / 1% filter: BF.ADD, BF.EXISTS, BF.MADD of 10, BF.MEXISTS of
    10, and BF.ADD to a NONSCALING filter (10 M / 1%, 1 M items in), each
    unpipelined (-P 1) and pipelined (-P 16), requests per second
    (--writes: only the three writes, pipelined);
  - --small instead: 10,000 keys each holding a filter reserved for 1,000
    items at 1 % (a filter per user), used_memory per key, and BF.ADD,
    BF.EXISTS and BF.MADD of 10 at random keys, -P 1 and -P 16.
Prints each round, the medians, the ratios this/RedisBloom (throughput:
> 1 is faster; memory: < 1 is smaller) and the machine. Timing on a shared
machine is noisy: compare medians of several rounds taken in one sitting.
"""
import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import redis
except ImportError:
    sys.exit("needs redis-py (Debian: python3-redis; run with /usr/bin/python3)")

ap = argparse.ArgumentParser()
ap.add_argument("module", nargs="?", default="build/redis/bloom_redis.so")
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--requests", type=int, default=100000)
ap.add_argument("--clients", type=int, default=50)
ap.add_argument("--port", type=int, default=6491)
ap.add_argument("--writes", action="store_true",
                help="only the pipelined writes (-P 16): BF.ADD, BF.MADD of 10, and BF.ADD to a NONSCALING filter")
ap.add_argument("--small", action="store_true",
                help="10,000 small filters (1,000 items at 1%% each): memory per key, adds and queries at random keys")
args = ap.parse_args()

MODULES = {"bloom": os.path.abspath(args.module)}
if os.environ.get("REDISBLOOM_MODULE"):
    MODULES["redisbloom"] = os.path.abspath(os.environ["REDISBLOOM_MODULE"])
for name, path in MODULES.items():
    if not os.path.exists(path):
        sys.exit("%s module not found: %s" % (name, path))
for tool in ("redis-server", "redis-benchmark"):
    if shutil.which(tool) is None:
        sys.exit(tool + " not found (Debian: redis-server, redis-tools)")

ITEMS = 1000000
ITEM = "item:__rand_int__"
SPEED = [
    ("BF.ADD", ["BF.ADD", "f", ITEM]),
    ("BF.EXISTS", ["BF.EXISTS", "f", ITEM]),
    ("BF.MADD x10", ["BF.MADD", "f"] + [ITEM] * 10),
    ("BF.MEXISTS x10", ["BF.MEXISTS", "f"] + [ITEM] * 10),
    # A NONSCALING filter reserved for 10 x the items, so it never fills.
    ("BF.ADD NONSCALING", ["BF.ADD", "g", ITEM]),
]
WRITES = ("BF.ADD", "BF.MADD x10", "BF.ADD NONSCALING")
SMALL_KEYS = 10000
SMALL_KEY = "u:__rand_int__"
SMALL_SPEED = [
    ("small BF.ADD", ["BF.ADD", SMALL_KEY, ITEM]),
    ("small BF.EXISTS", ["BF.EXISTS", SMALL_KEY, ITEM]),
    ("small BF.MADD x10", ["BF.MADD", SMALL_KEY] + [ITEM] * 10),
]
workdir = tempfile.mkdtemp(prefix="bloom-redis-bench-")


def start(module):
    proc = subprocess.Popen(["redis-server", "--port", str(args.port), "--bind", "127.0.0.1", "--dir", workdir,
                             "--save", "", "--appendonly", "no", "--loadmodule", module],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r = redis.Redis(host="127.0.0.1", port=args.port, socket_timeout=120)
    for _ in range(200):
        try:
            r.ping()
            return proc, r
        except redis.exceptions.ConnectionError:
            if proc.poll() is not None:
                sys.exit("redis-server did not start with " + module)
            time.sleep(0.05)
    proc.kill()
    sys.exit("redis-server did not answer")


def stop(proc, r):
    try:
        r.shutdown(nosave=True)
    except redis.exceptions.ConnectionError:
        pass
    proc.wait()


def fill(r, key, n):
    pipe = r.pipeline(transaction=False)
    for i in range(0, n, 1000):
        pipe.execute_command("BF.MADD", key, *["item:%d" % j for j in range(i, min(n, i + 1000))])
        if i % 50000 == 0:
            pipe.execute()
    pipe.execute()


def rps(cmd, pipeline, keyspace=ITEMS):
    out = subprocess.run(["redis-benchmark", "-h", "127.0.0.1", "-p", str(args.port), "-n", str(args.requests),
                          "-c", str(args.clients), "-P", str(pipeline), "-r", str(keyspace), "-q"] + cmd,
                         capture_output=True, text=True).stdout
    found = re.findall(r"([\d.]+) requests per second", out.replace("\r", "\n"))
    return float(found[-1]) if found else float("nan")


results = {name: {} for name in MODULES}


def record(name, metric, value):
    results[name].setdefault(metric, []).append(value)


for rnd in range(args.rounds):
    for name, module in MODULES.items():
        proc, r = start(module)
        if args.small:
            try:
                # redis-benchmark's -r draws every __rand_int__ below
                # SMALL_KEYS: the item numbers too, so no filter grows.
                base = r.info("memory")["used_memory"]
                pipe = r.pipeline(transaction=False)
                for i in range(SMALL_KEYS):
                    pipe.execute_command("BF.RESERVE", "u:%012d" % i, 0.01, 1000)
                pipe.execute()
                record(name, "used_memory per small key (B)", (r.info("memory")["used_memory"] - base) / SMALL_KEYS)
                record(name, "MEMORY USAGE small key (B)", r.memory_usage("u:%012d" % 1))
                for label, cmd in SMALL_SPEED:
                    for pipeline in (1, 16):
                        record(name, "%s -P %d (req/s)" % (label, pipeline), rps(cmd, pipeline, SMALL_KEYS))
            finally:
                stop(proc, r)
            print("round %d %s: %s" % (rnd + 1, name, {k: v[-1] for k, v in results[name].items()}), flush=True)
            continue
        try:
            for variant, extra in () if args.writes else (("scalable", []), ("NONSCALING", ["NONSCALING"])):
                base = r.info("memory")["used_memory"]
                r.execute_command("BF.RESERVE", "m", 0.01, ITEMS, *extra)
                fill(r, "m", ITEMS)
                record(name, "MEMORY USAGE %s 1M/1%% (B)" % variant, r.memory_usage("m"))
                record(name, "used_memory growth %s (B)" % variant, r.info("memory")["used_memory"] - base)
                r.delete("m")
            r.execute_command("BF.RESERVE", "f", 0.01, ITEMS)
            fill(r, "f", ITEMS)
            r.execute_command("BF.RESERVE", "g", 0.01, 10 * ITEMS, "NONSCALING")
            fill(r, "g", ITEMS)
            for label, cmd in SPEED:
                if args.writes and label not in WRITES:
                    continue
                for pipeline in (16,) if args.writes else (1, 16):
                    record(name, "%s -P %d (req/s)" % (label, pipeline), rps(cmd, pipeline))
        finally:
            stop(proc, r)
        print("round %d %s: %s" % (rnd + 1, name, {k: v[-1] for k, v in results[name].items()}), flush=True)

shutil.rmtree(workdir, ignore_errors=True)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


version = subprocess.run(["redis-server", "--version"], capture_output=True, text=True).stdout.strip()
print("\nmachine: %s, %d CPUs, %s; load average %s; %s" % (
    cpu_model(), os.cpu_count(), platform.platform(), " ".join("%.1f" % x for x in os.getloadavg()), version))
print("medians of %d rounds (%d requests, %d clients per run):" % (args.rounds, args.requests, args.clients))
metrics = list(results["bloom"].keys())
header = "%-38s %14s" % ("metric", "bloom")
if "redisbloom" in MODULES:
    header += " %14s %8s" % ("RedisBloom", "ratio")
print(header)
for m in metrics:
    line = "%-38s %14.0f" % (m, statistics.median(results["bloom"][m]))
    if "redisbloom" in MODULES:
        a, b = statistics.median(results["bloom"][m]), statistics.median(results["redisbloom"][m])
        line += " %14.0f %8.3f" % (b, a / b if b else float("nan"))
    print(line)
if "redisbloom" not in MODULES:
    print("(set REDISBLOOM_MODULE=/path/to/redisbloom.so to measure RedisBloom beside it)")
