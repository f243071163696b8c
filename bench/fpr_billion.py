#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The false-positive rate of filters past 2^32 bits: 1e9 keys at p = 0.01
(1.2 GB a filter), classic and blocked, each measured on fresh keys, with
every one of a sample of the added keys checked present.

    PYTHONPATH=python /usr/bin/python3 bench/fpr_billion.py            # 1e9 keys, ~1.2 GB, minutes
    PYTHONPATH=python /usr/bin/python3 bench/fpr_billion.py --keys 1e7 # a quick look

Not run by ctest or CI: it needs 1.3 GB of memory per kind (one at a
time) and minutes of CPU. Keys are distinct int64: i times an odd constant
modulo 2^64 (a bijection), i < n for the added keys, n <= i for the
non-members, so no non-member is a key. Exits 1 on any false negative.
"""

import argparse
import os
import time

import numpy as np

import bloomkit
from bloomkit import _columns

ODD = np.uint64(0x9E3779B97F4A7C15)
CHUNK = 1 << 22


def keys(start, stop):
    """The int64 keys of indices [start, stop): a bijection of the index."""
    with np.errstate(over="ignore"):
        return (np.arange(start, stop, dtype=np.uint64) * ODD).view(np.int64)


def load():
    return "{:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def measure(kind, n, p, queries, rng):
    t0 = time.perf_counter()
    f = bloomkit.Filter(capacity=n, fp_rate=p, kind=kind)
    info = f.info
    for start in range(0, n, CHUNK):
        _columns.add_column(f, keys(start, min(n, start + CHUNK)))
    t_add = time.perf_counter() - t0

    t0 = time.perf_counter()
    missed = 0
    for start in range(0, queries, CHUNK):
        count = min(CHUNK, queries - start)
        sample = rng.integers(0, n, count, dtype=np.uint64)
        with np.errstate(over="ignore"):
            members = (sample * ODD).view(np.int64)
        missed += int(count - _columns.query_column(f, members).sum())
    positives = 0
    for start in range(0, queries, CHUNK):
        positives += int(_columns.query_column(f, keys(n + start, n + min(queries, start + CHUNK))).sum())
    t_query = time.perf_counter() - t0
    fill = f.info.fill_ratio
    f.close()
    fpr = positives / queries
    return (f"{kind:<8} {info.bits:>14,} {info.bits / 8 / 1e9:7.3f} {info.hashes:>3} {fill:7.4f} "
            f"{missed:>6} {positives:>10,} {fpr:10.6f} {fpr / p:8.4f} {t_add:8.1f} {t_query:8.1f}   {load()}"), missed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=float, default=1e9)
    ap.add_argument("--fp-rate", type=float, default=0.01)
    ap.add_argument("--queries", type=float, default=2e7, help="member queries, and as many non-member ones")
    ap.add_argument("--kinds", default="classic,blocked")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n, queries = int(args.keys), int(args.queries)
    rng = np.random.default_rng(args.seed)
    print(f"{n:,} keys, p = {args.fp_rate}, {queries:,} member and {queries:,} non-member queries; "
          f"bloom {bloomkit.version()}; load {load()} at the start")
    print(f"{'kind':<8} {'bits':>14} {'GB':>7} {'k':>3} {'fill':>7} {'missed':>6} {'false pos':>10} "
          f"{'FPR':>10} {'FPR / p':>8} {'add s':>8} {'query s':>8}   load after", flush=True)
    failed = False
    for kind in args.kinds.split(","):
        line, missed = measure(kind, n, args.fp_rate, queries, rng)
        print(line, flush=True)
        failed |= missed > 0
    if failed:
        print("FALSE NEGATIVES: an added key was reported absent")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
