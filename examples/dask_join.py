#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Seed 001's MapReduce join on Dask: a large table (page views) joined to
a small one (premium users). A filter built from the small side's keys is
shipped to every worker, which drops the views of other users before the
shuffle; the join result is the same, with fewer rows shuffled.

    /usr/bin/python3 examples/dask_join.py [--views N] [--workers W]

Needs Debian's python3-dask, python3-distributed and python3-pandas, and
bloomkit on PYTHONPATH (docs/distributed.md).
"""

import argparse
import logging

import numpy as np
import pandas as pd
import dask.dataframe as dd
from distributed import Client, LocalCluster

import bloomkit.dask


def views_partition(i, rows, users):
    """Partition i of the large table, made on a worker: user ids drawn
    from all `users` ids, most of them not premium."""
    rng = np.random.default_rng(1000 + i)
    return pd.DataFrame({"user_id": rng.integers(0, users, rows, dtype=np.int64),
                         "page": rng.integers(0, 500, rows, dtype=np.int32)},
                        index=pd.RangeIndex(i * rows, (i + 1) * rows))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=400_000, help="rows of the large table")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--users", type=int, default=1_000_000, help="distinct user ids in the views")
    parser.add_argument("--premium", type=int, default=10_000, help="rows of the small table")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
            Client(cluster):
        rows = args.views // args.partitions
        views = dd.from_map(views_partition, range(args.partitions), rows=rows, users=args.users)
        rng = np.random.default_rng(7)
        premium_ids = rng.choice(args.users, args.premium, replace=False).astype(np.int64)
        premium = dd.from_pandas(pd.DataFrame({"user_id": premium_ids,
                                               "tier": rng.integers(1, 4, args.premium)}),
                                 npartitions=2)

        # The filter of the small side's keys, built on the workers.
        f = bloomkit.dask.build(premium, capacity=args.premium, fp_rate=0.01, on="user_id")
        info = f.info
        print(f"filter: {args.premium} premium users, m = {info.bits} bits ({info.bytes} bytes), "
              f"k = {info.hashes}, p = 0.01")

        # Map side: drop the views the filter rules out, before the shuffle.
        kept = bloomkit.dask.semi_join(views, f, on="user_id")
        total, shuffled = dd.compute(views.shape[0], kept.shape[0])
        print(f"views: {total} rows, {shuffled} kept for the shuffle, {total - shuffled} removed "
              f"({100 * (total - shuffled) / total:.1f}%)")

        # Reduce side: the join itself, with and without the filter.
        with_filter = kept.merge(premium, on="user_id").compute()
        without = views.merge(premium, on="user_id").compute()
        order = ["user_id", "page", "tier"]
        same = with_filter.sort_values(order).reset_index(drop=True).equals(
            without.sort_values(order).reset_index(drop=True))
        false_positives = shuffled - len(with_filter)
        print(f"join: {len(with_filter)} rows with the filter, {len(without)} without: "
              f"{'identical' if same else 'DIFFERENT'}")
        print(f"false positives shuffled: {false_positives} of {total - len(without)} non-matching views "
              f"({100 * false_positives / max(1, total - len(without)):.2f}%, target 1%)")
        if not same:
            raise SystemExit("the join with the filter differs from the join without it")


if __name__ == "__main__":
    main()
