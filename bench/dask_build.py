#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Build throughput of bloomkit.dask on a LocalCluster of 1 and 2 worker
processes beside the single-process batch path, and the rows a semi-join
removes before a shuffle. Prints a table, the ratios and the machine.

    PYTHONPATH=python /usr/bin/python3 bench/dask_build.py                 # 100 M keys
    PYTHONPATH=python /usr/bin/python3 bench/dask_build.py --keys 20e6 --reps 3

Keys are distinct int64 (8 bytes each, bloomkit.encoding), generated inside
the tasks (on the workers; in this process for the single-process rows), so
no key crosses a process boundary. Every timed build is checked to equal
the single-process filter byte for byte. Times are wall-clock medians of
--reps runs; cluster start-up is not timed (it is paid once per cluster).
"""

import argparse
import logging
import os
import platform
import statistics
import subprocess
import time

import numpy as np
import pandas as pd
import dask
import dask.dataframe as dd
from distributed import Client, LocalCluster

import bloomkit
import bloomkit.dask as bd
from bloomkit import _columns
from bloomkit.encoding import int_key


def key_partition(i, per):
    """Partition i: per distinct int64 keys, spread over the whole range."""
    return pd.Series(np.arange(i * per, (i + 1) * per, dtype=np.int64) * 0x9E3779B1 + 12345)


def left_partition(i, rows, id_range):
    """Rows of the large table of the semi-join: ids drawn from id_range."""
    rng = np.random.default_rng(i)
    return pd.DataFrame({"id": rng.integers(0, id_range, rows, dtype=np.int64),
                         "value": rng.integers(0, 1 << 30, rows, dtype=np.int64)})


def row(name, t, runs, n, t_single):
    return (f"{name:<46} {t:9.2f} {n / t / 1e6:9.1f} {t_single / t:12.2f}x   "
            + " ".join(f"{r:.2f}" for r in runs))


def timed(fn, reps):
    times, result = [], None
    for _ in range(reps):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), times, result


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(os.path.abspath(__file__)), timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = "?"
    return (f"machine: {cpu}, {len(os.sched_getaffinity(0))} CPUs available, "
            f"load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; Python {platform.python_version()}, "
            f"dask {dask.__version__}, bloom {bloomkit.version()} ({commit})")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--keys", type=float, default=100e6)
    p.add_argument("--partitions", type=int, default=8)
    p.add_argument("--fp-rate", type=float, default=0.01)
    p.add_argument("--kind", default="blocked")
    p.add_argument("--workers", default="1,2", help="cluster sizes to run, e.g. 1,2")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--join-rows", type=float, default=20e6, help="rows of the semi-join's large table")
    p.add_argument("--join-keys", type=float, default=1e6, help="keys of the semi-join's small side")
    args = p.parse_args()
    n, parts = int(args.keys), args.partitions
    per = n // parts
    n = per * parts
    params = dict(capacity=n, fp_rate=args.fp_rate, kind=args.kind)
    print(machine())
    print(f"{n:,} keys in {parts} partitions of {per:,}, kind {args.kind}, p = {args.fp_rate}, "
          f"median of {args.reps}")

    # Single process: the same partitions, generated and added one by one.
    def single():
        f = bloomkit.Filter(**params)
        for i in range(parts):
            _columns.add_column(f, key_partition(i, per))
        return f

    t_single, runs, reference = timed(single, args.reps)
    image = reference.to_bytes()
    rows = [("1 process, add_column (int64 buffer)", t_single, runs)]
    print("done:", row(*rows[-1], n, t_single), flush=True)
    # The generic batch path (a bytes object per key), on 2 M keys.
    sample = key_partition(0, min(per, 2_000_000))
    t_bytes, runs_b, _ = timed(lambda: bloomkit.Filter(**params).add_many(map(int_key, sample.tolist())), 1)
    rows.append((f"1 process, add_many(bytes) ({len(sample):,} keys, scaled)", t_bytes * n / len(sample),
                 [t * n / len(sample) for t in runs_b]))

    join = None
    for workers in [int(w) for w in args.workers.split(",")]:
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                          silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
            client.wait_for_workers(workers, timeout=600)
            keys = dd.from_map(key_partition, range(parts), per=per)
            t, runs, built = timed(lambda: bd.build(keys, **params), args.reps)
            if built.to_bytes() != image:
                raise SystemExit(f"{workers} workers: the filter differs from the single-process one")
            rows.append((f"dask, {workers} worker process{'es' if workers > 1 else ''}", t, runs))
            print("done:", row(*rows[-1], n, t_single), flush=True)
            if workers == max(int(w) for w in args.workers.split(",")):
                join = semi_join_rows(args, client)
                print("done:", join, flush=True)

    print(f"\n{'path':<46} {'median s':>9} {'M keys/s':>9} {'vs 1 process':>13}   runs (s)")
    for name, t, runs in rows:
        print(row(name, t, runs, n, t_single))
    print("every dask build equals the single-process filter byte for byte "
          f"({len(image):,} bytes)")
    if join:
        print(join)


def semi_join_rows(args, client):
    """Rows a semi-join removes: a large table of ids drawn from a range
    10^8 wide against a small side of join_keys ids spread over it."""
    rows, small, id_range = int(args.join_rows), int(args.join_keys), 100_000_000
    step = id_range // small
    f = bloomkit.Filter(capacity=small, fp_rate=args.fp_rate, kind=args.kind)
    _columns.add_column(f, np.arange(0, id_range, step, dtype=np.int64)[:small])
    parts = max(2, args.partitions)
    left = dd.from_map(left_partition, range(parts), rows=rows // parts, id_range=id_range)
    t0 = time.perf_counter()
    total, kept = dd.compute(left.shape[0], bd.semi_join(left, f, on="id").shape[0])
    elapsed = time.perf_counter() - t0
    matching = total / step  # expected: ids are uniform, 1 in `step` matches
    return (f"semi-join: {total:,} rows (16 bytes each) against {small:,} keys: {kept:,} kept, "
            f"{total - kept:,} removed before the shuffle ({100 * (total - kept) / total:.2f}%, "
            f"{(total - kept) * 16 / 1e6:,.0f} MB not shuffled); ~{matching:,.0f} rows match, so "
            f"{max(0, kept - matching) / (total - matching):.4f} of the others passed (p = {args.fp_rate}); "
            f"generate + filter + count: {elapsed:.1f} s")


if __name__ == "__main__":
    main()
