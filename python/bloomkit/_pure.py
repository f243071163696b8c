# SPDX-License-Identifier: Apache-2.0
"""The per-key calls of Filter through ctypes: the fallback when the C
extension (bloomkit._cext, _fast.py) is absent, or forced by BLOOMKIT_PURE=1.

``_cext.Core`` implements exactly these methods, with the same arguments,
results and exceptions; tests/python runs the whole suite on both.
"""

from __future__ import annotations

import ctypes
from typing import Iterable, List

from . import _keys, _native
from ._keys import Key
from ._status import check as _check

_lib = _native.lib


class PureCore:
    """Base class of Filter on the ctypes path: owns ``_handle``; the
    subclass provides ``_h`` (the handle, or ValueError once closed)."""

    __slots__ = ("_handle",)

    def add(self, key: Key) -> None:
        """Add one key (str or bytes-like)."""
        b, n = _keys.pair(key)
        _check(_lib.bloom_add(self._h, b, n), "add")

    def __contains__(self, key: object) -> bool:
        """True if the key may have been added; False if it certainly was not."""
        b, n = _keys.pair(key)  # type: ignore[arg-type]
        return _check(_lib.bloom_query(self._h, b, n), "query") == 1

    def test_and_add(self, key: Key) -> bool:
        """Add the key; return whether it may have been present before.

        False means the key was certainly new: the "contains, else add" step
        of stream de-duplication in one call (atomic with ``concurrent=True``).
        """
        b, n = _keys.pair(key)
        return _check(_lib.bloom_test_and_add(self._h, b, n), "test_and_add") == 1

    def remove(self, key: Key) -> None:
        """Counting filters: remove one occurrence of an added key.

        Raises:
            BloomNotPresentError: the filter shows the key was never added
                (also a KeyError); nothing changes.
            BloomUnsupportedError: not a counting filter.
        """
        b, n = _keys.pair(key)
        _check(_lib.bloom_remove(self._h, b, n), "remove")

    def add_many(self, keys: Iterable[Key]) -> int:
        """Add every key of an iterable through the batch API; return the count.

        Keys go to ``bloom_add_batch`` in chunks of 65,536, so any iterable,
        however long, is fine. On an error, earlier chunks stay added.
        """
        # No local holds the handle: a traceback kept from an exception here
        # (a failing iterator) would keep the filter alive after close().
        self._h  # a closed filter raises even for no keys
        count = 0
        for batch in _keys.batches(keys):
            _check(_lib.bloom_add_batch(self._h, batch.keys, batch.lens, batch.n), "add_many")
            count += batch.n
        return count

    def contains_many(self, keys: Iterable[Key]) -> List[bool]:
        """Query every key of an iterable (``bloom_query_batch``); a list of
        answers in the same order."""
        self._h  # a closed filter raises even for no keys (no local: see add_many)
        answers: List[bool] = []
        for batch in _keys.batches(keys):
            results = (ctypes.c_uint8 * batch.n)()
            _check(_lib.bloom_query_batch(self._h, batch.keys, batch.lens, batch.n, results),
                   "contains_many")
            answers.extend(map(bool, bytes(results)))
        return answers
