# SPDX-License-Identifier: Apache-2.0
"""Bloom filters on Dask: build one from a distributed collection, and
semi-join a large table against a small one's keys (the MapReduce join of
docs/distributed.md).

>>> import dask.dataframe as dd, bloomkit.dask
>>> f = bloomkit.dask.build(small["user_id"], capacity=1_000_000, fp_rate=0.01)
>>> kept = bloomkit.dask.semi_join(large, f, on="user_id")   # lazy, rows the filter keeps
>>> joined = kept.merge(small, on="user_id")                 # = large.merge(small, ...)

``build`` on a distributed Client adds each partition's keys into a filter
of the worker that holds the partition, in place, and merges the workers'
filters by a tree (``split_every`` at a time): one filter per worker
crosses between processes, whatever the number of partitions, and the
keys never leave their worker. The result is the filter one process would
build from all the keys, byte for byte (merge is a bitwise OR, or a
saturating add for counting filters, and both are order-free), also when
workers die mid-build (``_worker_fold`` says how). With Dask's threads or
sync scheduler the tasks add into filters of this process, one per busy
thread; with the processes scheduler, and in ``build_delayed``'s graph,
each partition makes a filter of its own.

``semi_join`` ships the filter to each worker once (``Client.scatter`` with
``broadcast=True``) and drops, partition by partition, the rows whose key
it rules out. Without a distributed Client (Dask's local schedulers) the
filter is one key of the task graph, shared by every task.

Keys are ``str`` (UTF-8), ``bytes`` and integers (8 bytes little-endian,
int64: ``bloomkit.encoding``), the same bytes every other binding hashes.
Missing values (None, NaN, NA) are no key: ``build`` skips them and
``semi_join`` keeps their rows (the filter cannot rule them out).

Needs Debian's python3-dask, python3-distributed (for a cluster) and
python3-pandas.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import dask
import dask.bag as db
import dask.dataframe as dd
from dask.sizeof import sizeof

from . import _columns, _worker_fold
from ._native import kinds
from .filter import Filter


def _why_not_mergeable(caps: frozenset) -> Optional[str]:
    """Why filters of a kind with these capabilities, built from parts of
    the keys, do not merge into the filter of all the keys (None: they do)."""
    if "merge" not in caps:
        return "its filters cannot be merged"
    if "grows" in caps:  # scalable
        return ("it grows a stage when one fills, so each part's filter depends on how many keys it "
                "saw, and their union is not the filter of all the keys")
    if "forgets" in caps:
        return "it forgets keys by a clock or a count, which depends on the order of the adds"
    return None


# Kinds whose merge gives exactly the filter built on all the keys, by
# what the library says each kind can do.
MERGEABLE_KINDS = tuple(k.name for k in kinds() if _why_not_mergeable(k.caps) is None)

# Filters merged per tree node: a node holds split_every filters at once;
# 8 keeps the tree two levels deep up to 64 workers (or partitions, for
# build_delayed).
SPLIT_EVERY = 8

Collection = Union[db.Bag, dd.Series, dd.DataFrame]


@sizeof.register(Filter)
def _filter_nbytes(f: Filter) -> int:
    """What a filter weighs for Dask's scheduler (its file image), so that
    it moves tasks to the filters, not filters to the tasks (the default,
    sys.getsizeof, sees about 50 bytes)."""
    return f._serialized_size()


@sizeof.register(_worker_fold.Taken)
def _taken_nbytes(t: _worker_fold.Taken) -> int:
    return 0 if t.filter is None else t.filter._serialized_size()


def _filter_options(capacity: Optional[int], fp_rate: Optional[float], kind: str,
                    options: dict) -> dict:
    if not isinstance(kind, str):
        raise TypeError("kind must be a str such as 'classic'")
    known = {k.name: k.caps for k in kinds()}
    why = _why_not_mergeable(known[kind]) if kind in known else None  # unknown: the library's error, below
    if why is not None:
        raise ValueError(
            f"bloomkit.dask.build cannot build a {kind!r} filter: {why}; use one of "
            f"{', '.join(MERGEABLE_KINDS)} (size it with the total number of keys)")
    if options.get("concurrent"):
        raise ValueError("concurrent=True is for threads sharing one filter; each partition builds its own")
    params = dict(options, capacity=capacity, fp_rate=fp_rate, kind=kind)
    # Refuse bad parameters here, with the library's message, rather than
    # in every task. (This allocates the filter once on the client.)
    Filter(**params).close()
    return params


def _keys_of(collection: Collection, on: Optional[str]) -> Union[db.Bag, dd.Series]:
    if isinstance(collection, dd.DataFrame):
        if on is None:
            raise TypeError("a DataFrame needs on=<column> naming the key column")
        return collection[on]
    if on is not None:
        raise TypeError(f"on= names a column of a DataFrame, not of a {type(collection).__name__}")
    if isinstance(collection, (dd.Series, db.Bag)):
        return collection
    raise TypeError(f"build takes a dask Bag, Series or DataFrame, not {type(collection).__name__}")


def _partition_filter(keys: Any, params: dict) -> Filter:
    f = Filter(**params)
    _columns.add_column(f, keys)
    return f


def _merge(*filters: Filter) -> Filter:
    """One tree node: the union of its children, in a new filter (a task
    must not change its inputs: Dask may hand them to a retried task)."""
    result = filters[0].copy()
    for other in filters[1:]:
        result.update(other)
    return result


def _check_split_every(split_every: object) -> None:
    if not isinstance(split_every, int) or isinstance(split_every, bool) or split_every < 2:
        raise ValueError("split_every must be an integer >= 2")


def build_delayed(keys: Collection, capacity: Optional[int], fp_rate: Optional[float] = None, *,
                  kind: str = "classic", on: Optional[str] = None, split_every: int = SPLIT_EVERY,
                  **options: Any) -> "dask.delayed.Delayed":
    """As :func:`build`, but return the Delayed filter without computing it.

    The graph makes one filter per partition and merges them by a tree, so
    it runs on any scheduler; :func:`build` is cheaper (one filter per
    worker or thread instead of one per partition)."""
    _check_split_every(split_every)
    params = _filter_options(capacity, fp_rate, kind, options)
    return _tree_of_partitions(_keys_of(keys, on), params, split_every)


def _tree_of_partitions(column: Union[db.Bag, dd.Series], params: dict, split_every: int) -> Any:
    level = [dask.delayed(_partition_filter, pure=True)(part, params)
             for part in column.to_delayed(optimize_graph=True)]
    if not level:  # dask collections have >= 1 partition, but be safe
        level = [dask.delayed(Filter, pure=True)(**params)]
    while len(level) > 1:
        level = [dask.delayed(_merge, pure=True)(*level[i:i + split_every])
                 for i in range(0, len(level), split_every)]
    return level[0]


def build(keys: Collection, capacity: Optional[int], fp_rate: Optional[float] = None, *,
          kind: str = "classic", on: Optional[str] = None, split_every: int = SPLIT_EVERY,
          **options: Any) -> Filter:
    """Build a filter from the keys of a Dask collection, on the workers.

    Args:
        keys: a dask Bag, a Series, or a DataFrame with ``on=`` its key column.
        capacity: n, the number of distinct keys expected over ALL
            partitions (every worker's filter has the final shape).
        fp_rate: p, the target false-positive rate (default 0.01).
        kind: one of MERGEABLE_KINDS; a kind whose filters do not merge
            into the filter of all the keys (scalable, window) is refused
            (ValueError, saying why).
        on: the key column of a DataFrame.
        split_every: filters merged per node of the reduction tree.
        **options: the other arguments of ``bloomkit.Filter`` (hash, seed,
            bits, hashes, counter_bits, plain_double_hashing).

    With a distributed Client, each worker adds the partitions it holds
    into one filter of its own, in place, and only those filters (one per
    worker) are shipped and merged. With Dask's threads or sync scheduler
    the tasks add into this process's filters (one per busy thread); with
    the processes scheduler each partition makes a filter, merged as in
    :func:`build_delayed`.

    Returns the filter, equal byte for byte to one ``Filter`` built with
    the same arguments from all the keys (``to_bytes()`` compares equal).
    Bad keys (float, bool...) raise TypeError, integers outside int64
    OverflowError, from the task that met them.
    """
    return _build(keys, capacity, fp_rate, kind=kind, on=on, split_every=split_every, **options)


def _build(keys: Collection, capacity: Optional[int], fp_rate: Optional[float] = None, *,
           kind: str = "classic", on: Optional[str] = None, split_every: int = SPLIT_EVERY,
           after_fold: Any = None, **options: Any) -> Filter:
    _check_split_every(split_every)
    params = _filter_options(capacity, fp_rate, kind, options)
    column = _keys_of(keys, on)
    client = _client()
    if client is not None:
        return _worker_fold.build(client, column.to_delayed(optimize_graph=True), params, split_every,
                                  after_fold)
    scheduler = _in_process_scheduler(column)
    if scheduler is not None:
        return _worker_fold.build_local(column.to_delayed(optimize_graph=True), params, scheduler)
    return _tree_of_partitions(column, params, split_every).compute()


def _in_process_scheduler(column: Any) -> Any:
    """The scheduler compute() would use, if it runs every task in this
    process (threads, sync); None for others (processes: a filter per
    partition, merged by the tree)."""
    import dask.local
    import dask.threaded
    from dask.base import get_scheduler

    scheduler = get_scheduler(collections=[column])
    return scheduler if scheduler in (dask.threaded.get, dask.local.get_sync) else None


def _keep_rows(part: Any, shared: "SharedFilter", on: Optional[str]) -> Any:
    """The rows of one partition whose key the filter does not rule out."""
    import pandas as pd

    if not isinstance(shared, SharedFilter):
        # A scattered Future reached a non-distributed scheduler (compute(
        # scheduler="threads") while a Client is active): fetch it.
        shared = shared.result()
    f = shared.filter
    if isinstance(part, pd.DataFrame):
        return part[_columns.query_column(f, part[on])]
    if isinstance(part, pd.Series):
        return part[_columns.query_column(f, part)]
    items = list(part)  # a Bag partition
    return [item for item, keep in zip(items, _columns.query_column(f, items)) if keep]


def _client() -> Any:
    """The active distributed Client, or None (local schedulers)."""
    try:
        from distributed import get_client
    except ImportError:
        return None
    try:
        client = get_client()
    except ValueError:  # no client
        return None
    # A Client that is not Dask's current scheduler is not used by compute().
    return client if dask.config.get("scheduler", None) in (None, "dask.distributed", "distributed") \
        else None


def broadcast(f: Filter) -> Any:
    """The filter as one shared input for many tasks (a SharedFilter): with a distributed
    Client, a Future of the filter scattered to every worker (one copy
    sent to, and loaded by, each worker); otherwise a Delayed of it."""
    if not isinstance(f, Filter):
        raise TypeError(f"broadcast takes a bloomkit.Filter, not {type(f).__name__}")
    client = _client()
    if client is not None:
        return client.scatter(SharedFilter(f), broadcast=True, hash=False)
    return dask.delayed(SharedFilter(f), pure=True)


def semi_join(left: Collection, right: Union[Filter, Collection], on: Optional[str] = None, *,
              right_on: Optional[str] = None, capacity: Optional[int] = None,
              fp_rate: Optional[float] = 0.01, **options: Any) -> Collection:
    """The rows of ``left`` whose key may be in ``right`` (lazy).

    Args:
        left: a dask DataFrame (with ``on=``), Series or Bag: the large side.
        right: a ``bloomkit.Filter`` built from the small side's keys, or
            the small side itself (a Series, Bag, or DataFrame with
            ``right_on=``/``on=``); then a filter is built from it with
            :func:`build` (capacity: its number of keys, counted, unless
            given; fp_rate default 0.01; **options as for build).
        on: the key column of ``left`` (and of ``right`` unless right_on).

    Returns a collection of the same type as ``left`` with the rows the
    filter rules out dropped, partition by partition on the workers; rows
    with a missing key are kept. Every row whose key is in ``right`` is
    kept (no false negatives), plus about fp_rate of the others, so
    ``left.merge(small)`` and ``semi_join(left, ...).merge(small)`` are
    the same join, the second with fewer rows to shuffle.
    """
    if isinstance(left, dd.DataFrame):
        if on is None:
            raise TypeError("semi_join on a DataFrame needs on=<key column>")
        if on not in left.columns:
            raise KeyError(f"left has no column {on!r}")
    elif isinstance(left, (dd.Series, db.Bag)):
        if on is not None and not isinstance(right, dd.DataFrame):
            raise TypeError(f"on= names a column; left is a {type(left).__name__}")
    else:
        raise TypeError(f"semi_join takes a dask DataFrame, Series or Bag, not {type(left).__name__}")

    if isinstance(right, Filter):
        if capacity is not None or options:
            raise TypeError("capacity and filter options apply only when right is a collection of keys")
        f = right
    else:
        right_keys = _keys_of(right, (right_on or on) if isinstance(right, dd.DataFrame) else None)
        if capacity is None:
            capacity = max(1, int(right_keys.count().compute()))
        f = build(right_keys, capacity, fp_rate, **options)

    shared = broadcast(f)
    key_column = on if isinstance(left, dd.DataFrame) else None
    if isinstance(left, db.Bag):
        return left.map_partitions(_keep_rows, shared, None)
    return left.map_partitions(_keep_rows, shared, key_column, meta=left._meta,
                               enforce_metadata=False, align_dataframes=False)


class SharedFilter:
    """A filter on its way to the workers (:func:`broadcast`). It pickles
    as the file image, like a Filter, and counts its unpicklings in each
    process, so a test can see that a semi-join loads the filter once per
    worker, not once per task (:func:`loads_in_this_process`)."""

    __slots__ = ("filter",)

    def __init__(self, f: Filter) -> None:
        self.filter = f

    def __reduce__(self) -> Any:
        return (_load_shared, (self.filter.to_bytes(),))


_loads = [0]


def _load_shared(data: bytes) -> SharedFilter:
    _loads[0] += 1
    return SharedFilter(Filter.from_bytes(data))


def loads_in_this_process() -> int:
    """How many broadcast filters this process has unpickled."""
    return _loads[0]


__all__ = ["build", "build_delayed", "semi_join", "broadcast", "SharedFilter", "loads_in_this_process", "MERGEABLE_KINDS", "SPLIT_EVERY"]
