# SPDX-License-Identifier: Apache-2.0
"""``bloomkit.dask.build`` on a distributed Client: each worker folds the
partitions it holds into one filter of its own, in place, and only those
filters (one per worker) are shipped and merged by a tree of tasks.

Why: a filter per partition costs a full-size filter (m/8 bytes) allocated,
zeroed, pickled and shipped per partition, so the cost grows with the
number of partitions instead of shrinking with the number of workers.
Shipping the keys instead (8 bytes each, hashed or not) would move about 6x
more bytes than a filter holds at p = 1% (9.6 bits a key).

How a build stays exact when workers die or a task runs twice:

1. Fold: one task per partition adds the partition's keys into the
   worker's accumulator for (build id, round). The Client holds every fold
   Future until all have finished, so the partitions of a worker that dies
   meanwhile (its accumulator dies with it) are recomputed by Dask.
2. Take: one task per worker removes that worker's accumulator and returns
   it with the list of partitions folded into it (a partition folded
   twice is listed twice). Once taken, a round's accumulator is closed on
   that worker: a late fold of the round is ignored. A take that runs on
   another worker (its own died) takes that worker's accumulator if it is
   still there, else nothing; each accumulator is taken at most once.
3. Merge: the filters are merged by a tree, split_every at a time, each
   node folding its children into its first child in place, lists too;
   the Client makes the root's union from its two children.
4. Check: the result's list must hold every partition once. If some are
   missing (a worker died with its filter before it was merged), they are
   folded again in a new round (new accumulators) and merged with the
   result; if one is there twice (a fold or a merge ran twice), the build
   starts again. So the filter returned has each partition's keys once:
   the bits, the key count and, for counting filters, the counters of the
   one-process filter.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter, deque
from typing import Any, Deque, Dict, List, Optional, Sequence, Set, Tuple

from . import _columns
from .filter import Filter

# More rounds than this means workers keep dying under the build: give up
# with an error rather than loop.
MAX_ROUNDS = 8

_Round = Tuple[str, str, int]  # (worker address, build id, round)


class _Accumulator:
    """One worker's filter for one round, and the partitions folded into it."""

    __slots__ = ("filter", "partitions", "busy")

    def __init__(self, params: dict) -> None:
        self.filter = Filter(**params)
        self.partitions: List[int] = []
        self.busy = False


class _Recent:
    """A set that keeps only its last ``size`` members: the ids of builds
    and rounds that ended, remembered long enough to ignore a late fold
    of one, without growing with every build a process ever ran."""

    def __init__(self, size: int = 4096) -> None:
        self.members: Set[Any] = set()
        self.order: Deque[Any] = deque()
        self.size = size

    def add(self, item: Any) -> None:
        if item in self.members:
            return
        self.members.add(item)
        self.order.append(item)
        if len(self.order) > self.size:
            self.members.discard(self.order.popleft())

    def __contains__(self, item: Any) -> bool:
        return item in self.members


class _WorkerState:
    """This process's accumulators. A worker with several threads folds
    into a pool: a thread takes a free accumulator or, when all are busy,
    makes one, so no two threads add to one filter at once (filters are
    not thread-safe) and a worker holds at most one filter per thread."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.pools: Dict[_Round, List[_Accumulator]] = {}
        self.closed = _Recent()
        self.forgotten = _Recent()

    def acquire(self, r: _Round, params: dict) -> Optional[_Accumulator]:
        with self.changed:
            if r in self.closed or r[1] in self.forgotten:
                return None
            pool = self.pools.setdefault(r, [])
            acc = next((a for a in pool if not a.busy), None)
            if acc is None:
                acc = _Accumulator(params)
                pool.append(acc)
            acc.busy = True
            return acc

    def release(self, acc: _Accumulator) -> None:
        with self.changed:
            acc.busy = False
            self.changed.notify_all()

    def take(self, r: _Round) -> List[_Accumulator]:
        """Close the round here and return its accumulators once no fold
        is adding to them."""
        with self.changed:
            self.closed.add(r)
            self.changed.wait_for(lambda: not any(a.busy for a in self.pools.get(r, ())))
            return self.pools.pop(r, [])

    def forget(self, build: str) -> None:
        with self.changed:
            self.forgotten.add(build)
            for r in [r for r in self.pools if r[1] == build]:
                del self.pools[r]


_state = _WorkerState()


def _address() -> str:
    """This worker's address; "" in a thread of a local scheduler."""
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):  # ValueError: not on a worker
        return ""


def _fold(keys: Any, build: str, round_: int, index: int, params: dict) -> int:
    """Task: add partition ``index`` to this worker's accumulator; the
    number of keys added (0 for a late fold of a closed round)."""
    acc = _state.acquire((_address(), build, round_), params)
    if acc is None:
        return 0
    try:
        added = _columns.add_column(acc.filter, keys)
        acc.partitions.append(index)
        return added
    except BaseException:
        # Part of the partition may be in the filter: mark it folded twice,
        # so the check discards this filter should the build go on.
        acc.partitions += [index, index]
        raise
    finally:
        _state.release(acc)


class Taken:
    """Task result: one worker's filter for a round (None if it folded
    nothing) and the partitions in it."""

    __slots__ = ("filter", "partitions")

    def __init__(self, f: Optional[Filter], partitions: List[int]) -> None:
        self.filter = f
        self.partitions = partitions

    def __reduce__(self) -> Any:
        return (Taken, (self.filter, self.partitions))


def _take(build: str, round_: int) -> Taken:
    """Task: this worker's accumulators of the round, as one filter."""
    accs = _state.take((_address(), build, round_))
    if not accs:
        return Taken(None, [])
    f = accs[0].filter
    for other in accs[1:]:  # threads of this worker: merged here, in place
        f.update(other.filter)
    return Taken(f, [i for a in accs for i in a.partitions])


async def _forget(build: str) -> None:
    """Run on every worker when a build ends: drops what a failed or
    late fold left (async: Dask runs only coroutines without waiting)."""
    _state.forget(build)


def union(*parts: Taken) -> Taken:
    """Task: one tree node, the union of its children, folded into the
    first child in place (no copy of a filter). A rerun of this task on
    the same worker would see that child already folded, and so list its
    partitions twice: the final check then refuses the result."""
    parts = tuple(p for p in parts if p.filter is not None)
    if not parts:
        return Taken(None, [])
    first = parts[0]
    for other in parts[1:]:
        first.filter.update(other.filter)
        first.partitions += other.partitions
    return first


def _exact(partitions: List[int], count: int) -> bool:
    seen = Counter(partitions)
    return sorted(seen) == list(range(count)) and all(c == 1 for c in seen.values())


def build_local(parts: Sequence[Any], params: dict, scheduler: Any) -> Filter:
    """The same fold with a scheduler that runs every task in this process
    (Dask's threads or sync scheduler): the tasks add into this process's
    accumulators (one per busy thread), merged here at the end; no filter
    per partition, nothing serialized."""
    import dask

    build_id = uuid.uuid4().hex
    try:
        dask.compute(*[dask.delayed(_fold, pure=False)(part, build_id, 0, i, params,
                                                       dask_key_name=f"bloom-fold-{build_id}-0-{i}")
                       for i, part in enumerate(parts)], scheduler=scheduler)
        taken = _take(build_id, 0)
        if not _exact(taken.partitions, len(parts)):  # a scheduler ran a task twice
            raise RuntimeError("bloomkit.dask.build: a partition was added twice or not at all")
        return taken.filter if taken.filter is not None else Filter(**params)
    finally:
        _state.forget(build_id)


def _tree(client: Any, level: List[Any], split_every: int) -> List[Any]:
    """Two Futures (or one) whose union is that of level's Taken Futures:
    a tree of unions without its root. The root's union is made by the
    Client, which fetches its two children at once: a root on a worker
    would receive one child's filter, then send the result, two transfers
    of a whole filter one after the other instead of two side by side."""
    while len(level) > 2:
        level = [client.submit(union, *level[i:i + split_every], pure=False)
                 for i in range(0, len(level), split_every)]
    return level


def _submit_fused(client: Any, tasks: List[Any]) -> List[Any]:
    """Futures of the Delayed tasks, each fused with the chain of tasks
    that makes its partition (reading or computing the keys), so that a
    partition costs the scheduler one task instead of one per step, and
    its keys never wait in a worker's memory between two tasks."""
    from dask.base import collections_to_dsk
    from dask.optimization import fuse

    keys = [t.key for t in tasks]
    graph, _ = fuse(dict(collections_to_dsk(tasks, optimize_graph=True)), keys=keys, rename_keys=False)
    return client.get(graph, keys, sync=False)


def _direct(client: Any) -> Optional[bool]:
    """Whether to fetch the filter straight from its worker: when the
    Client says so, or its cluster is a LocalCluster (the workers are
    reachable). Dask's default is through the scheduler, because a client
    outside the cluster's network may not reach the workers; that is two
    transfers of the filter instead of one."""
    if client.direct_to_workers is not None:
        return client.direct_to_workers
    try:
        from distributed import LocalCluster
    except ImportError:  # pragma: no cover
        return None
    return True if isinstance(getattr(client, "cluster", None), LocalCluster) else None


def build(client: Any, parts: Sequence[Any], params: dict, split_every: int,
          after_fold: Any = None) -> Filter:
    """The filter of all the keys in ``parts`` (Delayed partitions), folded
    per worker on ``client``'s cluster. ``after_fold(client, build_id,
    round)``, if given, runs between folding and taking (tests use it to
    kill a worker there, or to fold a partition twice)."""
    import dask

    build_id = uuid.uuid4().hex
    everything = list(range(len(parts)))
    todo = everything
    done: Optional[Taken] = None  # holds each of its partitions once
    try:
        for round_ in range(MAX_ROUNDS):
            folds = _submit_fused(client, [
                dask.delayed(_fold, pure=False)(parts[i], build_id, round_, i, params,
                                                dask_key_name=f"bloom-fold-{build_id}-{round_}-{i}")
                for i in todo])
            client.gather(folds)  # waits; raises the first task error
            del folds  # released: a later loss shows in the list, not recomputed
            if after_fold is not None:
                after_fold(client, build_id, round_)
            takes = [client.submit(_take, build_id, round_, workers=[w], allow_other_workers=True,
                                   key=f"bloom-take-{build_id}-{round_}-{n}")
                     for n, w in enumerate(client.nthreads())]
            children = client.gather(_tree(client, takes, split_every), direct=_direct(client))
            result = union(*([] if done is None else [done]), *children)
            if _exact(result.partitions, len(parts)):
                return result.filter if result.filter is not None else Filter(**params)
            seen = Counter(result.partitions)
            if any(c > 1 for c in seen.values()):
                done, todo = None, everything  # a partition in twice: start again
            else:
                done, todo = result, [i for i in everything if i not in seen]
        raise RuntimeError(f"bloomkit.dask.build: partitions were lost in {MAX_ROUNDS} rounds "
                           "(workers keep failing); no filter was built")
    finally:
        try:
            client.run(_forget, build_id, wait=False)
        except Exception:  # noqa: BLE001 - cleanup of a failed build must not hide its error
            pass
