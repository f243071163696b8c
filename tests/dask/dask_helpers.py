# SPDX-License-Identifier: Apache-2.0
"""Shared pieces of the Dask tests: the availability check and functions
the workers run (they import this module by name: tests/dask is on their
PYTHONPATH, set by tests/dask/CMakeLists.txt)."""

import os
import signal
import unittest

import numpy as np

try:
    import dask  # noqa: F401
    import dask.dataframe  # noqa: F401
    import distributed  # noqa: F401
    import pandas  # noqa: F401
    MISSING = None
except ImportError as e:  # pragma: no cover - depends on the machine
    MISSING = str(e)


def require_dask():
    """Skip on a developer machine without Dask; fail in CI (CI set, as
    redis/tests/redis_harness.py reads it), where scripts/packages.d/dask.txt
    installs it."""
    if MISSING is None:
        return
    if os.environ.get("CI"):
        raise RuntimeError(f"CI is set but Dask is missing ({MISSING}): install python3-dask, "
                           "python3-distributed and python3-pandas (scripts/packages.d/dask.txt)")
    raise unittest.SkipTest(f"Dask is not installed ({MISSING}); apt-get install python3-dask "
                            "python3-distributed python3-pandas")


def int_partition(i, per_partition):
    """Partition i of a Series of distinct int64 keys (and a few repeats)."""
    import pandas as pd
    keys = np.arange(i * per_partition, (i + 1) * per_partition, dtype=np.int64) * 7919 - (1 << 40)
    return pd.Series(np.concatenate([keys, keys[:10]]))


def partition_killing_its_worker(i, per_partition, marker_dir, victim):
    """As int_partition, but the first time partition ``victim`` is made,
    its worker process is killed (SIGKILL) part-way: Dask must rerun the
    lost tasks elsewhere. Each attempt leaves a file, so the test can see
    that the kill happened and the partition was made again."""
    attempts = len([n for n in os.listdir(marker_dir) if n.startswith(f"attempt-{i}-")])
    with open(os.path.join(marker_dir, f"attempt-{i}-{attempts + 1}-pid{os.getpid()}"), "w"):
        pass
    if i == victim and attempts == 0:
        os.kill(os.getpid(), signal.SIGKILL)
    return int_partition(i, per_partition)


def counted_partition(i, per_partition, marker_dir):
    """As int_partition, leaving a file per attempt (no kill)."""
    attempts = len([n for n in os.listdir(marker_dir) if n.startswith(f"attempt-{i}-")])
    with open(os.path.join(marker_dir, f"attempt-{i}-{attempts + 1}-pid{os.getpid()}"), "w"):
        pass
    return int_partition(i, per_partition)


def worker_pid():
    return os.getpid()


def filters_sent(dask_worker, since):
    """How many filters this worker has sent (to a worker or a client)
    after its transfer log's first ``since`` entries: the build's per-worker
    filters and merge results (their task keys)."""
    entries = list(dask_worker.transfer_outgoing_log)[since:]
    return sum(1 for e in entries for key in e["keys"]
               if str(key).startswith(("bloom-take-", "union-")))


def folded_here(build_id, round_, dask_worker):
    """The partitions this worker has folded in a round of a build and not
    yet handed over (what it would lose by dying now)."""
    from bloomkit import _worker_fold

    accs = _worker_fold._state.pools.get((dask_worker.address, build_id, round_), [])
    return sorted(i for a in accs for i in a.partitions)


def transfers_so_far(dask_worker):
    return len(dask_worker.transfer_outgoing_log)
