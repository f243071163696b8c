#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bloomkit.Filter against Python's own set, in the same run.

Targets (issue 22): a single ``add`` and ``in`` within 2x of ``set.add`` /
``in`` for str and bytes keys; ``add_many`` / ``contains_many`` at most 60 ns
per key for a list of bytes. Each timing (thread CPU time) is the median of
--runs runs; each run times every contender once, interleaved (set first in
even runs, the filter first in odd ones, as the second finds the keys in
cache), so machine load hits them alike.
The filter is sized for the keys at 1% (classic, xxh3): 200,000 keys take
240 KB of bits, the set about 8 MB.

    PYTHONPATH=python python3 bench/python/set_vs_filter.py [--keys N] [--runs R]

BLOOMKIT_PURE=1 measures the ctypes path instead (bloomkit.implementation).
Prints numbers, never judges: the ratios are for the reader (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

import bloomkit


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


# CPU time of this process, not wall time: on a shared machine (load 16 on
# 2 cores while this was written) wall time counts other programs' time
# slices; the thread's CPU time counts only its own work (caches are still shared).
clock = time.thread_time_ns


# Every loop has the same shape, so the interpreter's own per-iteration cost
# (about 15 ns) is in both sides of each ratio.
def loop_set_add(keys):
    s = set()
    t = clock()
    for k in keys:
        s.add(k)
    return clock() - t, s


def loop_filter_add(keys, n):
    f = bloomkit.Filter(capacity=n, fp_rate=0.01)
    t = clock()
    for k in keys:
        f.add(k)
    return clock() - t, f


def loop_in(container, probes):
    hits = 0
    t = clock()
    for k in probes:
        if k in container:
            hits += 1
    return clock() - t, hits


def timed(fn, *args):
    t = clock()
    result = fn(*args)
    return clock() - t, result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keys", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    if args.keys < 2 or args.runs < 1:
        ap.error("need --keys >= 2 and --runs >= 1")
    n = args.keys
    str_keys = [f"user-{i:08d}" for i in range(n)]  # 13 bytes, as a short id
    bytes_keys = [k.encode() for k in str_keys]
    # Half present, half absent, in a fixed shuffled order; the probe objects
    # are made in that order so that, like the keys, they lie in memory in the
    # order they are read (scattered objects would add cache misses that
    # measure the allocator, not the containers).
    order = sorted(range(n), key=lambda i: (i * 2654435761) % (1 << 32))
    str_probes = [f"user-{i:08d}" if i % 2 == 0 else f"nope-{i:08d}" for i in order]
    bytes_probes = [k.encode() for k in str_probes]

    samples: dict = {}

    def record(name: str, ns: int, count: int) -> None:
        samples.setdefault(name, []).append(ns / count)

    for run in range(args.runs):
        # Whichever goes second finds the keys in cache: alternate who that is.
        set_first = run % 2 == 0
        for kind, keys, probes in (("str", str_keys, str_probes), ("bytes", bytes_keys, bytes_probes)):
            for first in (set_first, not set_first):
                if first:
                    ns, s = loop_set_add(keys)
                    record(f"set.add {kind}", ns, n)
                else:
                    ns, f = loop_filter_add(keys, n)
                    record(f"Filter.add {kind}", ns, n)
            for first in (set_first, not set_first):
                if first:
                    ns, set_hits = loop_in(s, probes)
                    record(f"in set {kind}", ns, len(probes))
                else:
                    ns, filter_hits = loop_in(f, probes)
                    record(f"in Filter {kind}", ns, len(probes))
            if filter_hits < set_hits:  # never a false negative: a broken build, not a number
                print(f"error: the filter found {filter_hits} of {set_hits} present keys", file=sys.stderr)
                return 1
        s2 = set()
        f2 = bloomkit.Filter(capacity=n, fp_rate=0.01)
        for first in (set_first, not set_first):
            if first:
                ns, _ = timed(s2.update, bytes_keys)
                record("set.update bytes", ns, n)
            else:
                ns, _ = timed(f2.add_many, bytes_keys)
                record("Filter.add_many bytes", ns, n)
        for first in (set_first, not set_first):
            if first:
                ns, _ = timed(lambda: [k in s2 for k in bytes_probes])
                record("[k in set] bytes", ns, len(bytes_probes))
            else:
                ns, _ = timed(f2.contains_many, bytes_probes)
                record("Filter.contains_many bytes", ns, len(bytes_probes))
        # Whole-filter set vocabulary (O(m), 240 KB here): per call, not per key.
        g = f2.copy()
        for name, fn in (("Filter.copy", f2.copy), ("Filter | Filter", lambda: f2 | g),
                         ("Filter & Filter", lambda: f2 & g), ("Filter |= Filter", lambda: f2.update(g)),
                         ("Filter <= Filter", lambda: f2 <= g)):
            ns, _ = timed(fn)
            record(name, ns, 1)

    med = {name: statistics.median(v) for name, v in samples.items()}
    print(f"bloomkit {bloomkit.version()} ({bloomkit.implementation} path), Python {platform.python_version()}, "
          f"{n} keys, median of {args.runs} runs")
    print(f"machine: {cpu_model()}, {os.cpu_count()} CPUs (shared; see docs/PERFORMANCE.md)")
    print(f"{'operation':<30}{'ns/key':>10}{'baseline':>26}{'ratio':>8}")
    pairs = [
        ("Filter.add str", "set.add str"), ("Filter.add bytes", "set.add bytes"),
        ("in Filter str", "in set str"), ("in Filter bytes", "in set bytes"),
        ("Filter.add_many bytes", "set.update bytes"), ("Filter.contains_many bytes", "[k in set] bytes"),
    ]
    for name, base in pairs:
        print(f"{name:<30}{med[name]:>10.1f}{base + f' {med[base]:.1f}':>26}{med[name] / med[base]:>8.2f}")
    print(f"{'operation (whole filter)':<30}{'us/call':>10}")
    for name in ("Filter.copy", "Filter | Filter", "Filter & Filter", "Filter |= Filter", "Filter <= Filter"):
        print(f"{name:<30}{med[name] / 1000:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
