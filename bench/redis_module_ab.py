# SPDX-License-Identifier: Apache-2.0
"""A/B of two builds of the Redis module (docs/redis.md, "Memory"):
used_memory, MEMORY USAGE and RSS for BF.RESERVE mem 0.01 1000000 plus 1 M
keys, then BF.ADD/BF.EXISTS throughput (redis-benchmark) and Redis's own
usec_per_call, the builds alternating round by round.

    python3 bench/redis_module_ab.py BEFORE.so AFTER.so [ROUNDS] [PORT]

Starts redis-server on 127.0.0.1:PORT (default 6480) in a temporary
directory, one at a time, and shuts each down after its round.
"""
import os, re, subprocess, sys, tempfile, time, statistics
import redis
MODS = {"before": os.path.abspath(sys.argv[1]), "after": os.path.abspath(sys.argv[2])}
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
port = int(sys.argv[4]) if len(sys.argv) > 4 else 6480
workdir = tempfile.mkdtemp(prefix="bloom-redis-ab-")
res = {k: {"used_reserve": [], "used_filled": [], "usage": [], "rss": [], "add": [], "exists": [], "usec_add": [], "usec_exists": []} for k in MODS}
def bench(cmd):
    out = subprocess.run(["redis-benchmark", "-p", str(port), "-n", "200000", "-c", "20", "-P", "16", "-r", "1000000", "-q"] + cmd,
                         capture_output=True, text=True).stdout
    m = re.findall(r"([\d.]+) requests per second", out.replace("\r", "\n"))
    return float(m[-1])
for r_ in range(rounds):
    for name, mod in MODS.items():
        d = os.path.join(workdir, name)
        os.makedirs(d, exist_ok=True)
        p = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", d, "--save", "",
                              "--slowlog-log-slower-than", "-1", "--loadmodule", mod], stdout=subprocess.DEVNULL)
        r = redis.Redis(port=port)
        for _ in range(100):
            try:
                r.ping(); break
            except Exception:
                time.sleep(0.1)
        r.execute_command("BF.RESERVE", "warm", 0.01, 100); r.execute_command("BF.MADD", "warm", *["w%d" % i for i in range(1000)]); r.delete("warm")
        info = r.info("memory"); u0, rss0 = info["used_memory"], info["used_memory_rss"]
        r.execute_command("BF.RESERVE", "mem", 0.01, 1000000)
        res[name]["used_reserve"].append(r.info("memory")["used_memory"] - u0)
        for i in range(0, 1000000, 1000):
            r.execute_command("BF.MADD", "mem", *["k%d" % j for j in range(i, i + 1000)])
        info = r.info("memory")
        res[name]["used_filled"].append(info["used_memory"] - u0)
        res[name]["rss"].append(info["used_memory_rss"] - rss0)
        res[name]["usage"].append(r.memory_usage("mem"))
        r.execute_command("BF.RESERVE", "bench", 0.01, 1000000)
        res[name]["add"].append(bench(["BF.ADD", "bench", "key:__rand_int__"]))
        res[name]["exists"].append(bench(["BF.EXISTS", "bench", "key:__rand_int__"]))
        cs = r.info("commandstats")
        res[name]["usec_add"].append(cs["cmdstat_BF.ADD"]["usec_per_call"])
        res[name]["usec_exists"].append(cs["cmdstat_BF.EXISTS"]["usec_per_call"])
        try:
            r.shutdown(nosave=True)
        except redis.exceptions.ConnectionError:
            pass
        p.wait()
        print(r_, name, {k: v[-1] for k, v in res[name].items()}, flush=True)
for name in MODS:
    print(name, {k: statistics.median(v) for k, v in res[name].items()})
