# SPDX-License-Identifier: Apache-2.0
"""Adding and querying whole columns (pandas Series, NumPy arrays, lists)
through the batch API, with the key encoding of ``encoding.py``.

Used by ``bloomkit.dask`` on the workers. Integer columns never become
Python objects: the int64 values are one little-endian buffer and key i is
the 8 bytes at offset 8i, so the pointer array is ``base + 8 * arange(n)``
(an order of magnitude faster than add_many of one bytes object per key;
bench/dask_build.py shows it). Other columns go key by key through
``encoding.key_bytes``. Needs NumPy (a dependency of
pandas and Dask); the core package does not.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Iterable, List, Optional, Tuple

import numpy as np

from . import _native
from .encoding import INT_BYTES, INT_MAX, key_bytes
from .filter import Filter, _check

_lib = _native.lib

# Rows per C call: the pointer and length arrays cost 16 bytes a key, so a
# chunk is at most 16 MiB of them however large the partition.
CHUNK = 1 << 20

_KEYS = ctypes.POINTER(ctypes.c_void_p)
_LENS = ctypes.POINTER(ctypes.c_size_t)
assert np.dtype(np.uintp).itemsize == ctypes.sizeof(ctypes.c_void_p) == ctypes.sizeof(ctypes.c_size_t)


class _Encoded:
    """n keys laid out for one batch call; ``present`` marks non-missing rows."""

    __slots__ = ("n", "keys", "lens", "present", "_hold")

    def __init__(self, buffer: np.ndarray, addresses: np.ndarray, lens: np.ndarray,
                 present: Optional[np.ndarray]) -> None:
        self._hold = (buffer, addresses, lens)
        self.n = len(lens)
        self.present = present
        self.keys = addresses.ctypes.data_as(_KEYS)
        self.lens = lens.ctypes.data_as(_LENS)


class _IntegerLayout(threading.local):
    """The pointer and length arrays of integer chunks, made once per
    thread and reused: a fresh 16 MiB per chunk costs page faults on every
    chunk wherever large allocations go straight to mmap (Dask's workers
    set MALLOC_TRIM_THRESHOLD_, which does that: 30% of an add there)."""

    def __init__(self) -> None:
        self.steps: Optional[np.ndarray] = None  # 0, 8, 16, ... (read-only)
        self.lens: Optional[np.ndarray] = None  # 8, 8, 8, ... (read-only)
        self.addresses: Optional[np.ndarray] = None  # this chunk's key addresses

    def chunk(self, data: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """(addresses, lens) of the int64 keys in data (a chunk).
        The addresses are valid until this thread's next call."""
        n = len(data)
        have = 0 if self.steps is None else len(self.steps)
        if have < n:  # doubling, up to a chunk
            size = min(max(n, 2 * have), max(n, CHUNK))
            self.steps = np.arange(0, size * INT_BYTES, INT_BYTES, dtype=np.uintp)
            self.lens = np.full(size, INT_BYTES, dtype=np.uintp)
            self.addresses = np.empty(size, dtype=np.uintp)
        addresses = self.addresses[:n]
        np.add(self.steps[:n], np.uintp(data.ctypes.data), out=addresses)
        return addresses, self.lens[:n]  # type: ignore[index]


_integer_layout = _IntegerLayout()


def _integer_values(values: np.ndarray) -> np.ndarray:
    """int64 little-endian values; OverflowError for uint64 above int64."""
    if values.dtype.kind == "u" and values.dtype.itemsize == 8 and len(values) and values.max() > INT_MAX:
        raise OverflowError(f"integer key {int(values.max())} is outside int64; encode it as str or bytes")
    return np.ascontiguousarray(values, dtype="<i8")


def _encode_integers(values: np.ndarray, present: Optional[np.ndarray]) -> _Encoded:
    data = _integer_values(values)
    addresses, lens = _integer_layout.chunk(data)
    if present is not None:
        addresses, lens = addresses[present], lens[present]
    return _Encoded(data, addresses, lens, present)


def _encode_objects(values: Iterable[object]) -> _Encoded:
    encoded: List[Optional[bytes]] = [key_bytes(v) for v in values]
    present_list = [b is not None for b in encoded]
    keys = [b for b in encoded if b is not None]
    present = None if all(present_list) else np.array(present_list, dtype=bool)
    lens = np.fromiter(map(len, keys), dtype=np.uintp, count=len(keys))
    offsets = np.zeros(len(keys), dtype=np.uintp)
    if len(keys) > 1:
        np.cumsum(lens[:-1], out=offsets[1:])
    buffer = np.frombuffer(b"".join(keys) or b"\0", dtype=np.uint8)
    offsets += np.uintp(buffer.ctypes.data)  # now addresses
    return _Encoded(buffer, offsets, lens, present)


def _column(values: object) -> Tuple[object, Optional[np.ndarray]]:
    """(values as an ndarray or list, mask of present rows or None)."""
    import pandas as pd

    if isinstance(values, pd.Index):
        values = values.to_series()
    if isinstance(values, pd.Series):
        dtype = values.dtype
        if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_float_dtype(dtype):
            raise TypeError(f"keys are str, bytes or int (int64), not a {dtype} column; "
                            "cast it to int or str first")
        if pd.api.types.is_integer_dtype(dtype):
            if isinstance(dtype, pd.api.extensions.ExtensionDtype):  # nullable Int64 & co.
                mask = values.isna().to_numpy()
                data = values.to_numpy(dtype="int64" if dtype.kind == "i" else "uint64", na_value=0)
                return data, (None if not mask.any() else ~mask)
            return values.to_numpy(), None
        return values.to_numpy(dtype=object), None
    if isinstance(values, np.ndarray):
        if values.dtype.kind in "iu":
            return values, None
        if values.dtype.kind in "bf":
            raise TypeError(f"keys are str, bytes or int (int64), not a {values.dtype} array")
        return values, None
    if isinstance(values, (str, bytes, bytearray, memoryview)):
        raise TypeError("a column of keys is an iterable of keys, not a single key")
    return values if isinstance(values, list) else list(values), None  # type: ignore[call-overload]


def _chunks(data: object, present: Optional[np.ndarray]) -> Iterable[Tuple[int, _Encoded]]:
    """(first row, encoded keys) of each chunk of a column from _column."""
    n = len(data)  # type: ignore[arg-type]
    for start in range(0, n, CHUNK) if n else ():
        part = data[start:start + CHUNK]  # type: ignore[index]
        if isinstance(part, np.ndarray) and part.dtype.kind in "iu":
            yield start, _encode_integers(part, None if present is None else present[start:start + CHUNK])
        else:
            yield start, _encode_objects(part)


def add_column(f: Filter, values: object) -> int:
    """Add every present key of ``values``; return how many were added.

    Missing values (None, NaN, NA) are skipped: they are no key.
    """
    added = 0
    for _, enc in _chunks(*_column(values)):
        if enc.n:
            _check(_lib.bloom_add_batch(f._h, enc.keys, enc.lens, enc.n), "add_many")
        added += enc.n
    return added


def query_column(f: Filter, values: object) -> np.ndarray:
    """A bool array, one per row: False where the filter rules the key out.

    Missing values answer True: the filter cannot rule them out (pandas
    joins a missing key to a missing key), so a semi-join keeps them.
    """
    data, present = _column(values)
    n = len(data)  # type: ignore[arg-type]
    # The library writes 0 or 1 per key: straight into the answer when no
    # row of the chunk is missing (one array, no per-chunk copies).
    answers = np.empty(n, dtype=bool)
    for start, enc in _chunks(data, present):
        if enc.present is None:
            results = answers[start:start + enc.n]
        else:
            results = np.empty(enc.n, dtype=bool)
        if enc.n:
            _check(_lib.bloom_query_batch(f._h, enc.keys, enc.lens, enc.n,
                                          results.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8))),
                   "contains_many")
        if enc.present is not None:
            rows = answers[start:start + len(enc.present)]
            rows[:] = True
            rows[enc.present] = results
    return answers
