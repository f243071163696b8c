#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""How bloomkit.dask.build scales: one process, then LocalClusters of 1, 2
(...) worker processes, with the bytes shipped between processes, the
scaling ratios, and a semi-join beside the single-process query loop.

    PYTHONPATH=python /usr/bin/python3 bench/dask_build.py               # 40 M keys, 16 partitions
    PYTHONPATH=python /usr/bin/python3 bench/dask_build.py --keys 10e6 --join-rows 10e6 --reps 5

Keys are distinct int64 (8 bytes each, bloomkit.encoding), generated inside
the tasks (on the workers; in this process for the one-process rows), so no
key crosses a process boundary. Every timed build is checked to equal the
one-process filter byte for byte. Times are wall-clock medians of --reps
runs; the rows take turns within each repetition (all clusters stay up), so
a change in the machine's load falls on every row alike; cluster start-up
is not timed. "MB shipped" is what the workers sent of task results
during one run, to each other and to the client or scheduler (their
transfer logs: the bytes comm.write put on the wire); not counted are the
client's messages to workers (the graph, a scattered filter) and a
scheduler's relay of a result to the client (a second copy of it).
"CPU s here" is this process's CPU time (with a LocalCluster's scheduler,
which runs here), "CPU s worker" the busiest worker's: on a loaded machine
they show the work each process did, which wall time hides. "W processes,
1/W of the keys each, no Dask" is the machine's ceiling: W forked
processes adding their shares into filters of their own, not merged.
"""

import argparse
import logging
import multiprocessing
import os
import platform
import statistics
import subprocess
import time
import warnings

import numpy as np
import pandas as pd
import dask
import dask.dataframe as dd
from distributed import Client, LocalCluster

import bloomkit
import bloomkit.dask as bd
from bloomkit import _columns


def key_partition(i, per, text=False):
    """Partition i: per distinct int64 keys, spread over the whole range
    (as their decimal text, str objects, with text=True)."""
    values = np.arange(i * per, (i + 1) * per, dtype=np.int64) * 0x9E3779B1 + 12345
    return pd.Series(values.astype(str), dtype=object) if text else pd.Series(values)


def half_of_the_build(args):
    """One of W plain processes (no Dask, no merge): its share of the
    partitions into a filter of the full size, as a worker would."""
    share, workers, parts, per, text, params = args
    f = bloomkit.Filter(**params)
    for i in range(share, parts, workers):
        _columns.add_column(f, key_partition(i, per, text))
    return None


def left_partition(i, rows, id_range):
    """Rows of the semi-join's large table: ids drawn from id_range."""
    rng = np.random.default_rng(i)
    return pd.DataFrame({"id": rng.integers(0, id_range, rows, dtype=np.int64),
                         "value": rng.integers(0, 1 << 30, rows, dtype=np.int64)})


def sent_by_worker(dask_worker):
    """Bytes this worker has sent of task results (to other workers, the
    scheduler or a client), as written on the wire (comm.write's count)."""
    return sum(entry.get("compressed") or entry["total"] for entry in dask_worker.transfer_outgoing_log)


def load():
    return "{:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(os.path.abspath(__file__)), timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = "?"
    return (f"machine: {cpu}, {len(os.sched_getaffinity(0))} CPUs available, load {load()} at the start; "
            f"Python {platform.python_version()}, dask {dask.__version__}, bloom {bloomkit.version()} ({commit})")


def cpu_seconds():
    return time.process_time()


class Row:
    """One way of doing the job: its timed runs, bytes, CPU and load samples."""

    def __init__(self, name, run, client=None):
        self.name, self.run, self.client = name, run, client
        self.times, self.shipped, self.loads, self.cpu_here, self.cpu_worker = [], [], [], [], []

    def once(self, check):
        before, cpu_workers = self.bytes_written(), self.worker_cpu()
        cpu = cpu_seconds()
        t = time.perf_counter()
        result = self.run()
        self.times.append(time.perf_counter() - t)
        self.cpu_here.append(cpu_seconds() - cpu)
        after = self.worker_cpu()
        self.cpu_worker.append(max((after[w] - cpu_workers[w] for w in after if w in cpu_workers), default=0.0))
        self.shipped.append(self.bytes_written() - before)
        self.loads.append(os.getloadavg()[0])
        check(self.name, result)

    def bytes_written(self):
        return 0 if self.client is None else sum(self.client.run(sent_by_worker).values())

    def worker_cpu(self):
        return {} if self.client is None else self.client.run(cpu_seconds)

    @property
    def median(self):
        return statistics.median(self.times)


def take_turns(rows, reps, check):
    """reps repetitions, each running every row once, in order."""
    for rep in range(reps):
        for r in rows:
            r.once(check)
        print(f"  repetition {rep + 1}: " + ", ".join(f"{r.times[-1]:.2f}" for r in rows) + f" s; load {load()}",
              flush=True)


def table(rows, unit_count, unit, baseline):
    lines = [f"{'path':<52} {'median s':>9} {f'M {unit}/s':>10} {'vs 1 process':>13} {'MB shipped':>11}"
             f" {'CPU s here':>10} {'CPU s worker':>12}   runs (s); load (1 min) after each"]
    for r in rows:
        lines.append(f"{r.name:<52} {r.median:9.2f} {unit_count / r.median / 1e6:10.1f} "
                     f"{r.median / baseline.median:12.2f}x {statistics.median(r.shipped) / 1e6:11.1f} "
                     f"{statistics.median(r.cpu_here):10.2f} {statistics.median(r.cpu_worker):12.2f}   "
                     + " ".join(f"{t:.2f}" for t in r.times) + "; "
                     + " ".join(f"{x:.1f}" for x in r.loads))
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--keys", type=float, default=40e6)
    p.add_argument("--partitions", type=int, default=16)
    p.add_argument("--fp-rate", type=float, default=0.01)
    p.add_argument("--kind", default="blocked")
    p.add_argument("--text", action="store_true", help="keys as str (decimal text), hashed one by one")
    p.add_argument("--workers", default="1,2", help="cluster sizes, e.g. 1,2,4")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--no-per-partition", action="store_true",
                   help="skip the per-partition graph (build_delayed) rows")
    p.add_argument("--join-rows", type=float, default=100e6, help="rows of the semi-join's large table (0: none)")
    p.add_argument("--join-keys", type=float, default=1e6, help="keys of the semi-join's small side")
    args = p.parse_args()
    n, parts = int(args.keys), args.partitions
    per = n // parts
    n = per * parts
    params = dict(capacity=n, fp_rate=args.fp_rate, kind=args.kind)
    sizes = [int(w) for w in args.workers.split(",")]
    print(machine(), flush=True)

    # Forked before any cluster or client thread exists.
    pools = {w: multiprocessing.get_context("fork").Pool(w) for w in sizes if w > 1}
    clusters = {}
    try:
        for w in sizes:
            cluster = LocalCluster(n_workers=w, threads_per_worker=1, processes=True, dashboard_address=":0",
                                   silence_logs=logging.ERROR)
            client = Client(cluster, set_as_default=False)
            client.wait_for_workers(w, timeout=600)
            clusters[w] = (cluster, client)
        build_rows(args, n, parts, per, params, clusters, pools)
        if args.join_rows:
            join_rows(args, clusters)
    finally:
        for pool in pools.values():
            pool.close()
        for cluster, client in clusters.values():
            client.close()
            cluster.close()


def build_rows(args, n, parts, per, params, clusters, pools):
    def one_process():
        f = bloomkit.Filter(**params)
        for i in range(parts):
            _columns.add_column(f, key_partition(i, per, args.text))
        return f

    keys = dd.from_map(key_partition, range(parts), per=per, text=args.text)

    def on(client, fn):
        def run():
            with client.as_current():
                return fn()
        return run

    def sync_scheduler():
        with dask.config.set(scheduler="sync"):
            return bd.build(keys, **params)

    def threads_scheduler():
        with dask.config.set(scheduler="threads"):
            return bd.build(keys, **params)

    rows = [Row("1 process, add_column (no Dask)", one_process),
            Row("1 process, Dask's sync scheduler", sync_scheduler),
            Row(f"1 process, Dask's threads ({os.cpu_count()})", threads_scheduler)]
    def plain_processes(w):
        return lambda: pools[w].map(half_of_the_build, [(j, w, parts, per, args.text, params) for j in range(w)])

    for w in pools:
        rows.append(Row(f"{w} processes, 1/{w} of the keys each, no Dask", plain_processes(w)))
    for w, (_, client) in clusters.items():
        plural = "es" if w > 1 else ""
        rows.append(Row(f"{w} worker process{plural}, one filter per worker",
                        on(client, lambda: bd.build(keys, **params)), client))
        if not args.no_per_partition:
            rows.append(Row(f"{w} worker process{plural}, one per partition", on(
                client, lambda client=client: client.compute(bd.build_delayed(keys, **params)).result()), client))

    image = []

    def check(name, f):
        if not isinstance(f, bloomkit.Filter):  # the plain processes keep their filters
            return
        data = f.to_bytes()
        if not image:
            image.append(data)
        elif data != image[0]:
            raise SystemExit(f"{name}: the filter differs from the one-process one")

    print(f"build: {n:,} {'str' if args.text else 'int64'} keys in {parts} partitions of {per:,}, "
          f"kind {args.kind}, p = {args.fp_rate}, "
          f"median of {args.reps}", flush=True)
    take_turns(rows, args.reps, check)
    print(table(rows, n, "keys", rows[0]))
    print(f"every build equals the one-process filter byte for byte ({len(image[0]):,} bytes)")
    best = {w: next(r for r in rows if r.name.startswith(f"{w} worker") and "per worker" in r.name).median
            for w in clusters}
    for w, t in best.items():
        print(f"scaling: {w} worker{'s' if w > 1 else ''} / 1 process = {t / rows[0].median:.2f}"
              + (f", / 1 worker = {t / best[1]:.2f}" if 1 in best and w != 1 else ""))


def join_rows(args, clusters):
    """A semi-join: a large table of ids drawn from a range 10^8 wide
    against a small side of join_keys ids spread over it (1% match at the
    defaults). One process runs the same per-partition work (generate,
    query the filter, keep the rows) in a loop without Dask; rows/s per
    worker is the scaling."""
    rows_total, small, id_range = int(args.join_rows), int(args.join_keys), 100_000_000
    step = id_range // small
    f = bloomkit.Filter(capacity=small, fp_rate=args.fp_rate, kind=args.kind)
    _columns.add_column(f, np.arange(0, id_range, step, dtype=np.int64)[:small])
    parts = max(2, args.partitions)
    per = rows_total // parts
    rows_total = per * parts
    left = dd.from_map(left_partition, range(parts), rows=per, id_range=id_range)

    shared = bd.SharedFilter(f)

    def one_process():  # what each semi_join task does, in a loop
        return sum(len(bd._keep_rows(left_partition(i, per, id_range), shared, "id")) for i in range(parts))

    # Two ways to count the rows kept. Dask (2022.12) fuses a partition's
    # tasks (make the rows, semi-join them, len) into one when the result
    # is a per-partition map; a Scalar reduction such as .shape[0] leaves
    # them three tasks each, the 100 MB partitions waiting in the worker's
    # memory in between.
    def on(client, fused):
        def run():
            with client.as_current():
                kept = bd.semi_join(left, f, on="id")
                if fused:
                    return int(kept.map_partitions(len).compute(scheduler=client).sum())
                return int(kept.shape[0].compute(scheduler=client))
        return run

    rows = [Row("1 process, the same tasks in a loop", one_process)]
    for w, (_, client) in clusters.items():
        workers = f"{w} worker process{'es' if w > 1 else ''}"
        rows.append(Row(f"semi_join, {workers}, map_partitions(len)", on(client, True), client))
        rows.append(Row(f"semi_join, {workers}, .shape[0]", on(client, False), client))
    kept = []

    def check(name, count):
        if kept and count != kept[0]:
            raise SystemExit(f"{name}: {count} rows kept, the one-process loop kept {kept[0]}")
        kept.append(count)

    print(f"\nsemi-join: {rows_total:,} rows (id, value: 16 bytes) in {parts} partitions against {small:,} keys, "
          f"median of {args.reps}", flush=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # large graph / sizeof warnings are not the point here
        take_turns(rows, args.reps, check)
    print(table(rows, rows_total, "rows", rows[0]))
    for r, w in zip(rows[1:], [w for w in clusters for _ in range(2)]):
        print(f"per worker: {r.name}: {rows_total / r.median / w / 1e6:.1f} M rows/s "
              f"per worker, 1 process {rows_total / rows[0].median / 1e6:.1f} M rows/s")
    matching = rows_total / step
    print(f"kept {kept[0]:,} of {rows_total:,} rows ({100 * (rows_total - kept[0]) / rows_total:.2f}% removed "
          f"before a shuffle); ~{matching:,.0f} match, so {(kept[0] - matching) / (rows_total - matching):.4f} "
          f"of the others passed (p = {args.fp_rate})")


if __name__ == "__main__":
    main()
